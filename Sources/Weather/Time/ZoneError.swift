import HAL

/// Why a time zone could not be loaded. Every case names the zone and reads as one line for the
/// log; a caller that gets one falls back to the fixed offset the weather service sent
/// (`ZoneRules.fixed(offsetSeconds:identifier:)`) rather than showing no clock.
public enum ZoneError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Empty, absolute, containing `.`/`..` or a character outside `A-Za-z0-9/_+-`: it could
    /// name a file outside the zoneinfo directory, so it is never looked up.
    case invalidIdentifier(String)
    /// No such zone in the tzdata directory (or the name is a directory, like `Europe`).
    case notFound(String)
    /// The file is larger than the cap (the largest real zone is under 4 KiB).
    case tooLarge(identifier: String, size: Int64)
    /// The file system failed while opening or reading.
    case fileSystem(identifier: String, FileSystemError)
    /// Not a valid TZif file or POSIX TZ string (RFC 8536 / RFC 9636); `reason` says where.
    case malformed(identifier: String, reason: String)
    /// Valid TZif this reader deliberately does not handle (leap-second "right/" zones).
    case unsupported(identifier: String, reason: String)

    public var description: String {
        switch self {
        case .invalidIdentifier(let name): "refusing time zone name \"\(name)\" (use an IANA name like Europe/Berlin)"
        case .notFound(let name): "no time zone \"\(name)\" in tzdata (is the tzdata package installed?)"
        case .tooLarge(let name, let size): "time zone \(name): file of \(size) bytes is too large to be TZif"
        case .fileSystem(let name, let error): "time zone \(name): \(error)"
        case .malformed(let name, let reason): "time zone \(name): malformed: \(reason)"
        case .unsupported(let name, let reason): "time zone \(name): unsupported: \(reason)"
        }
    }
}

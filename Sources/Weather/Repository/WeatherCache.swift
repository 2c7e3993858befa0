import HAL
import SystemPackage

/// The last good response on disk, so a reboot without network shows the weather (marked stale
/// by its age) instead of a blank screen (docs/design/parts.md#the-weather-service).
///
/// The raw body is kept, not the decoded report: loading runs the same decoder as a fetch, so
/// there is one way to read a forecast and a newer build reads an older cache. The file is
/// written whole to a temporary name, synced, renamed over the old one and the directory
/// synced: a power cut leaves the old copy or the new one, never half of either.
///
/// ```
/// thunderstorm weather cache 1
/// provider open-meteo
/// fetched 1768461300
/// position 52.52 13.41
/// last-modified Thu, 15 Jan 2026 07:16:40 GMT     (optional)
/// body 2786
/// <the body>
/// ```
public struct WeatherCache: Sendable, Equatable {
    public var provider: WeatherProvider
    public var fetchedAt: WallTime
    public var position: Coordinate
    public var lastModified: String?
    public var body: [UInt8]

    public init(provider: WeatherProvider, fetchedAt: WallTime, position: Coordinate, lastModified: String?, body: [UInt8]) {
        self.provider = provider
        self.fetchedAt = fetchedAt
        self.position = position
        self.lastModified = lastModified
        self.body = body
    }

    public static let fileName = "weather.cache"
    static let magic = "thunderstorm weather cache 1"
    /// Larger than any forecast a provider sends; a bigger file is not ours.
    static let maximumSize: Int64 = 2 << 20
    /// What `encoded` can have written (1970-01-01 to 9999-12-31, seconds): a device clock is
    /// never before 1970, and a damaged number beyond 9999 would reach calendar arithmetic.
    static let fetchRange: ClosedRange<Int64> = 0...253_402_300_799

    public var encoded: [UInt8] {
        var header = "\(Self.magic)\nprovider \(provider.rawValue)\nfetched \(fetchedAt.seconds)\n"
        header += "position \(position.latitude) \(position.longitude)\n"
        if let lastModified = Self.storable(lastModified) { header += "last-modified \(lastModified)\n" }
        header += "body \(body.count)\n"
        return Array(header.utf8) + body
    }

    /// A `Last-Modified` the file can hold and send back: printable ASCII (RFC 9110 §5.5 field
    /// values; an HTTP-date is 29 characters) of at most 128 bytes. Anything else is left out,
    /// which costs one unconditional fetch: written as it came, a long or broken value made the
    /// whole file unreadable at the next start (found by CacheFuzz).
    static func storable(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= 128, value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            return nil
        }
        return value
    }

    /// Reads a cache file's bytes; nil with the reason when they are not one.
    public static func decode(_ bytes: [UInt8]) -> Result<WeatherCache, CacheError> {
        var lines: [String: String] = [:]
        var index = 0
        var first = true
        while index < bytes.count {
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")), end - index < 200 else {
                return .failure(.damaged("a header line is not terminated"))
            }
            let line = String(decoding: bytes[index..<end], as: UTF8.self)
            index = end + 1
            if first {
                guard line == magic else { return .failure(.damaged("not a weather cache (\"\(line.prefix(40))\")")) }
                first = false
                continue
            }
            guard let space = line.firstIndex(of: " ") else { return .failure(.damaged("header line \"\(line)\"")) }
            let key = String(line[..<space]), value = String(line[line.index(after: space)...])
            lines[key] = value
            if key == "body" { break }
        }
        guard let providerName = lines["provider"], let provider = WeatherProvider(rawValue: providerName) else {
            return .failure(.damaged("no known provider"))
        }
        guard let fetchedText = lines["fetched"], fetchedText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let fetched = Int64(fetchedText), fetchRange.contains(fetched)
        else {
            return .failure(.damaged("no fetch time between 1970 and 9999"))
        }
        let parts = lines["position"]?.split(separator: " ") ?? []
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
            let position = try? Coordinate(latitude: latitude, longitude: longitude)
        else { return .failure(.damaged("no position")) }
        guard let lengthText = lines["body"], let length = Int(lengthText), length == bytes.count - index else {
            return .failure(.damaged("the body is not as long as its header says (torn write?)"))
        }
        return .success(
            WeatherCache(
                provider: provider, fetchedAt: WallTime(seconds: fetched),
                position: position, lastModified: storable(lines["last-modified"]),
                body: Array(bytes[index...])))
    }

    public enum CacheError: Error, Sendable, Equatable, CustomStringConvertible {
        case missing
        case damaged(String)
        case io(FileSystemError)

        public var description: String {
            switch self {
            case .missing: "no cached weather"
            case .damaged(let why): "the cached weather is damaged (\(why)); it is ignored and replaced on the next fetch"
            case .io(let error): "the cached weather could not be read or written: \(error)"
            }
        }
    }

    // MARK: Files

    /// Writes `self` as `directory/weather.cache`, atomically (temporary file, sync, rename,
    /// directory sync). A full or read-only disk fails with `.io` and changes nothing.
    public func save<Files: FileSystem>(in directory: FilePath, files: inout Files) -> Result<Void, CacheError> {
        do throws(FileSystemError) {
            try files.replace(Self.fileName, in: directory, with: encoded)
            return .success(())
        } catch {
            return .failure(.io(error))
        }
    }

    /// Reads `directory/weather.cache`.
    public static func load<Files: FileSystem>(from directory: FilePath, files: inout Files) -> Result<WeatherCache, CacheError> {
        do throws(FileSystemError) {
            switch try files.contents(of: directory.appending(fileName), limit: maximumSize) {
            case .bytes(let bytes): return decode(bytes)
            case .tooLarge(let size): return .failure(.damaged("\(size) bytes, larger than any forecast"))
            }
        } catch {
            return .failure(error.kind == .notFound ? .missing : .io(error))
        }
    }

    /// Removes the cache (`wipe()`); a missing file is not an error.
    public static func remove<Files: FileSystem>(from directory: FilePath, files: inout Files) -> Result<Void, CacheError> {
        do throws(FileSystemError) {
            try files.unlink(directory.appending(fileName))
            return .success(())
        } catch where error.kind == .notFound {
            return .success(())
        } catch {
            return .failure(.io(error))
        }
    }
}

#if os(Linux)
import Glibc
#endif
import HAL
import HALSim
import SystemPackage
import Weather

/// The zones of the App tests: loaded from the machine's tzdata through `ZoneRules.load` (the
/// way the device loads them), or, where tzdata is not installed, the same rules from the zone's
/// POSIX TZ string, which holds for the years the tests use.
enum TestZones {
    static let root = "/usr/share/zoneinfo"

    static func berlin() -> ZoneRules { zone("Europe/Berlin", posix: "CET-1CEST,M3.5.0,M10.5.0/3") }
    static func sydney() -> ZoneRules { zone("Australia/Sydney", posix: "AEST-10AEDT,M10.1.0,M4.1.0/3") }
    /// Tromsø keeps Norway's time.
    static func oslo() -> ZoneRules { zone("Europe/Oslo", posix: "CET-1CEST,M3.5.0,M10.5.0/3") }

    static func zone(_ identifier: String, posix: String) -> ZoneRules {
        if let bytes = bytes(root + "/" + identifier) {
            var files = CrashableFileSystem()
            files.seedFile(FilePath(root + "/" + identifier), contents: bytes)
            if case .success(let rules) = ZoneRules.load(identifier: identifier, files: &files) { return rules }
        }
        return ZoneRules.parse(posix: posix)!
    }

    /// The bytes of the file at `path`, or nil.
    private static func bytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            result += chunk[0..<n]
        }
        return result
    }
}

extension WallTime {
    /// `2026-01-15T08:15:00Z`.
    static func utc(_ text: String) -> WallTime {
        ISO8601.parse(text)!.instant(offsetSeconds: 0)
    }
}

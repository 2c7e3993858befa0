import Glibc
import HAL
import HALSim
import SystemPackage
import Testing
import Weather

/// The machine's tzdata, read with plain `open`/`read` (this test target does not link
/// HALLinux) and served to `ZoneRules.load` through the simulated file system, so the loader is
/// exercised through the `FileSystem` seam with the real bytes.
enum ZoneData {
    static let root = "/usr/share/zoneinfo"

    /// Whether tzdata is installed. When it is not, the tests that need it are disabled with
    /// `.enabled(if:)` (not failed: a build container may lack the tzdata package), and this
    /// says so once in the output.
    static let available: Bool = {
        let present = access(root + "/Europe/Berlin", R_OK) == 0
        if !present { print("Zone tests on real tzdata skipped: \(root)/Europe/Berlin is missing (apt-get install tzdata)") }
        return present
    }()

    /// The bytes of `root/identifier`, or nil.
    static func bytes(_ identifier: String) -> [UInt8]? {
        let fd = open(root + "/" + identifier, O_RDONLY | O_CLOEXEC)
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

    /// A simulated file system holding the given zones under `root`.
    static func fileSystem(_ identifiers: [String]) throws -> CrashableFileSystem {
        let files = CrashableFileSystem()
        for identifier in identifiers {
            let contents = try #require(bytes(identifier), "\(identifier) is not in \(root)")
            files.seedFile(FilePath(root + "/" + identifier), contents: contents)
        }
        return files
    }

    /// `identifier` loaded through `ZoneRules.load`.
    static func rules(_ identifier: String) throws -> ZoneRules {
        var files = try fileSystem([identifier])
        return try ZoneRules.load(identifier: identifier, files: &files).get()
    }

    /// The footer's POSIX TZ string (RFC 8536 §3.3: the last line of the file).
    static func footer(_ identifier: String) throws -> String {
        let contents = try #require(bytes(identifier))
        let lines = contents.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        return String(decoding: try #require(lines.dropLast().last), as: UTF8.self)
    }
}

/// The instant of a UTC calendar time.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> WallTime {
    CivilDateTime(date: CivilDate(year: year, month: month, day: day), hour: hour, minute: minute, second: second)
        .instant(offsetSeconds: 0)
}

/// One change of a zone as `zdump -v` prints it: the first instant of the new period, the
/// offset and abbreviation before and after.
struct ZoneChange: CustomStringConvertible, Sendable {
    var at: WallTime
    var before: Int, after: Int
    var abbreviation: String

    var description: String { "\(CivilDateTime(at, offsetSeconds: 0))Z → \(after) \(abbreviation)" }
}

/// Builds TZif bytes (RFC 8536 §3) for the tests of slim files and of damaged ones.
struct TZifBuilder {
    var version: UInt8 = UInt8(ascii: "2")
    var transitions: [Int64] = []
    var transitionTypes: [UInt8] = []
    /// (utoff, isdst, abbreviation index)
    var types: [(Int32, UInt8, UInt8)] = [(0, 0, 0)]
    var abbreviations: [UInt8] = Array("UTC\0".utf8)
    var footer: String? = "UTC0"
    var leapCount: UInt32 = 0
    /// Replaces the counts written into the 64-bit header (isutcnt, isstdcnt, leapcnt, timecnt,
    /// typecnt, charcnt) when set.
    var headerCounts: [UInt32]?

    func build() -> [UInt8] {
        var out: [UInt8] = []
        // A minimal version 1 block, as `zic -b slim` writes it: no transitions, one type.
        out += header(version: version, counts: [0, 0, 0, 0, 1, 1])
        out += [0, 0, 0, 0, 0, 0, 0]
        if version == 0 { return out }
        let counts = headerCounts ?? [0, 0, leapCount, UInt32(transitions.count), UInt32(types.count), UInt32(abbreviations.count)]
        out += header(version: version, counts: counts)
        for t in transitions { out += be64(UInt64(bitPattern: t)) }
        out += transitionTypes
        for (utoff, isdst, index) in types { out += be32(UInt32(bitPattern: utoff)) + [isdst, index] }
        out += abbreviations
        for _ in 0..<leapCount { out += be64(0) + be32(1) }
        if let footer { out += Array(("\n" + footer + "\n").utf8) }
        return out
    }

    private func header(version: UInt8, counts: [UInt32]) -> [UInt8] {
        Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15) + counts.flatMap(be32)
    }

    private func be32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
    private func be64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) } }
}

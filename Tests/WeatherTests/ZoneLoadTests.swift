import AllocationCounting
import HAL
import HALSim
import SystemPackage
import Testing
import Weather

/// Loading zones through the `FileSystem` seam, the names it refuses, the local zone, and the
/// allocation-free lookups.
@Suite("Loading time zones")
struct ZoneLoadTests {
    @Test("names that could leave the zoneinfo directory are refused before any file is opened", arguments: [
        "", "/etc/passwd", "../etc/passwd", "Europe/../../etc/passwd", "./Europe/Berlin", "Europe/Berlin/", "Europe//Berlin",
        "Europe/Berlin\0", "Europe/Ber lin", "Europe/Berlin.bak", "München", "Europe\\Berlin", "~root",
        String(repeating: "A", count: 256),
    ])
    func refusedNames(identifier: String) {
        var files = CrashableFileSystem()
        #expect(ZoneRules.load(identifier: identifier, files: &files) == .failure(.invalidIdentifier(identifier)))
        #expect(files.operationCount == 0)
    }

    @Test("a missing zone or a directory is notFound; an oversized file is tooLarge")
    func missingAndLarge() {
        var files = CrashableFileSystem()
        files.seedDirectory("/usr/share/zoneinfo/Europe")
        files.seedFile("/usr/share/zoneinfo/Huge/Zone", contents: [UInt8](repeating: 0, count: 70_000))
        #expect(ZoneRules.load(identifier: "Mars/Olympus_Mons", files: &files) == .failure(.notFound("Mars/Olympus_Mons")))
        #expect(ZoneRules.load(identifier: "Europe", files: &files) == .failure(.notFound("Europe")))
        #expect(ZoneRules.load(identifier: "Huge/Zone", files: &files) == .failure(.tooLarge(identifier: "Huge/Zone", size: 70_000)))
        #expect(ZoneError.notFound("Mars/Olympus_Mons").description
            == "no time zone \"Mars/Olympus_Mons\" in tzdata (is the tzdata package installed?)")
    }

    @Test("an I/O error while reading is reported with the zone's name", .enabled(if: ZoneData.available, "tzdata is not installed"))
    func readError() throws {
        var files = try ZoneData.fileSystem(["Europe/Berlin"])
        files.failNext(.read, with: .io)
        let result = ZoneRules.load(identifier: "Europe/Berlin", files: &files)
        #expect(result == .failure(.fileSystem(identifier: "Europe/Berlin", FileSystemError(.io))))
    }

    @Test("another root directory can be given", .enabled(if: ZoneData.available, "tzdata is not installed"))
    func otherRoot() throws {
        var files = CrashableFileSystem()
        files.seedFile("/opt/tz/Europe/Berlin", contents: try #require(ZoneData.bytes("Europe/Berlin")))
        let rules = try ZoneRules.load(identifier: "Europe/Berlin", files: &files, root: "/opt/tz").get()
        #expect(rules.offset(at: utc(2026, 7, 1)) == 7200)
    }

    @Test("the local zone takes its name from /etc/timezone only when the rules match", .enabled(if: ZoneData.available, "tzdata is not installed"))
    func localZone() throws {
        let berlin = try #require(ZoneData.bytes("Europe/Berlin"))
        var files = try ZoneData.fileSystem(["Europe/Berlin", "Europe/Dublin"])
        files.seedFile("/etc/localtime", contents: berlin)
        // No /etc/timezone: the rules, named "localtime".
        var rules = try ZoneRules.loadLocalZone(files: &files).get()
        #expect(rules.identifier == "localtime")
        #expect(rules.offset(at: utc(2026, 7, 1)) == 7200)
        // Debian's /etc/timezone names the same zone.
        files.seedFile("/etc/timezone", contents: Array("Europe/Berlin\n".utf8))
        rules = try ZoneRules.loadLocalZone(files: &files).get()
        #expect(rules.identifier == "Europe/Berlin")
        // A stale /etc/timezone (naming another zone, or garbage) does not rename the rules.
        files.seedFile("/etc/timezone", contents: Array("Europe/Dublin\n".utf8))
        #expect(try ZoneRules.loadLocalZone(files: &files).get().identifier == "localtime")
        files.seedFile("/etc/timezone", contents: Array("../../etc/passwd\n".utf8))
        #expect(try ZoneRules.loadLocalZone(files: &files).get().identifier == "localtime")
        // No /etc/localtime at all.
        var empty = CrashableFileSystem()
        #expect(ZoneRules.loadLocalZone(files: &empty) == .failure(.notFound("localtime")))
    }

    @Test("fixed offsets and UTC")
    func fixed() {
        let india = ZoneRules.fixed(offsetSeconds: 19_800, identifier: "Asia/Kolkata")
        #expect(india.offset(at: utc(2026, 1, 1)) == 19_800)
        #expect(india.abbreviation(at: utc(2026, 1, 1)) == "+0530")
        #expect(india.nextTransition(after: utc(2026, 1, 1)) == nil)
        #expect(ZoneRules.fixed(offsetSeconds: -10_800, identifier: "x").abbreviation(at: utc(2026, 1, 1)) == "-03")
        #expect(ZoneRules.utc.abbreviation(at: utc(2026, 1, 1)) == "UTC")
        #expect(ZoneRules.utc.offset(at: WallTime(seconds: .min)) == 0)
        #expect(localTime(utc(2026, 1, 15, 7), in: india).description == "2026-01-15T12:30:00")
    }

    @Test("offset(at:) allocates nothing, from the table, the footer or a bare rule", .enabled(if: ZoneData.available, "tzdata is not installed"))
    func offsetDoesNotAllocate() throws {
        let table = try ZoneData.rules("Australia/Sydney")
        let rule = try #require(ZoneRules.parse(posix: "IST-1GMT0,M10.5.0,M3.5.0/1"))
        let start = utc(2026, 1, 1).seconds
        let count = countAllocations {
            var sum = 0
            for step in Int64(0)..<2000 {
                let t = WallTime(seconds: start + step * 7919 * 97)  // 2026 into the 2070s
                sum &+= table.offset(at: t) &+ rule.offset(at: t)
                sum &+= table.isDaylightSavingTime(at: t) ? 1 : 0
            }
            keepAlive(sum)
        }
        if case .unavailable(let reason) = count { Issue.record("cannot count allocations: \(reason)") }
        #expect(count == .counted(0))
    }
}

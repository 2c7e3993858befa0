import HAL
import Testing
import Weather

/// The zones of docs/design/parts.md#the-weather-service's complaints, read from this machine's tzdata
/// (Debian 12, tzdata 2025b-0+deb12u2, "fat" files with transitions written out to 2037).
///
/// Every expected instant below was printed by `zdump -v -c 2025,2028 ZONE` (and
/// `-c 2100,2101` for the far future) on that machine: the first second of each new period.
@Suite("Time zones from tzdata", .enabled(if: ZoneData.available, "tzdata is not installed"))
struct ZoneTZifTests {
    static let changes: [(String, [ZoneChange])] = [
        ("Europe/Berlin", [
            ZoneChange(at: utc(2025, 3, 30, 1), before: 3600, after: 7200, abbreviation: "CEST"),
            ZoneChange(at: utc(2025, 10, 26, 1), before: 7200, after: 3600, abbreviation: "CET"),
            ZoneChange(at: utc(2026, 3, 29, 1), before: 3600, after: 7200, abbreviation: "CEST"),
            ZoneChange(at: utc(2026, 10, 25, 1), before: 7200, after: 3600, abbreviation: "CET"),
            ZoneChange(at: utc(2027, 3, 28, 1), before: 3600, after: 7200, abbreviation: "CEST"),
            ZoneChange(at: utc(2027, 10, 31, 1), before: 7200, after: 3600, abbreviation: "CET"),
        ]),
        ("America/Denver", [
            ZoneChange(at: utc(2025, 3, 9, 9), before: -25200, after: -21600, abbreviation: "MDT"),
            ZoneChange(at: utc(2025, 11, 2, 8), before: -21600, after: -25200, abbreviation: "MST"),
            ZoneChange(at: utc(2026, 3, 8, 9), before: -25200, after: -21600, abbreviation: "MDT"),
            ZoneChange(at: utc(2026, 11, 1, 8), before: -21600, after: -25200, abbreviation: "MST"),
            ZoneChange(at: utc(2027, 3, 14, 9), before: -25200, after: -21600, abbreviation: "MDT"),
            ZoneChange(at: utc(2027, 11, 7, 8), before: -21600, after: -25200, abbreviation: "MST"),
        ]),
        // Southern hemisphere: DST from October to April, across new year.
        ("Australia/Sydney", [
            ZoneChange(at: utc(2025, 4, 5, 16), before: 39600, after: 36000, abbreviation: "AEST"),
            ZoneChange(at: utc(2025, 10, 4, 16), before: 36000, after: 39600, abbreviation: "AEDT"),
            ZoneChange(at: utc(2026, 4, 4, 16), before: 39600, after: 36000, abbreviation: "AEST"),
            ZoneChange(at: utc(2026, 10, 3, 16), before: 36000, after: 39600, abbreviation: "AEDT"),
            ZoneChange(at: utc(2027, 4, 3, 16), before: 39600, after: 36000, abbreviation: "AEST"),
            ZoneChange(at: utc(2027, 10, 2, 16), before: 36000, after: 39600, abbreviation: "AEDT"),
        ]),
        // A 30-minute DST shift.
        ("Australia/Lord_Howe", [
            ZoneChange(at: utc(2025, 4, 5, 15), before: 39600, after: 37800, abbreviation: "+1030"),
            ZoneChange(at: utc(2025, 10, 4, 15, 30), before: 37800, after: 39600, abbreviation: "+11"),
            ZoneChange(at: utc(2026, 4, 4, 15), before: 39600, after: 37800, abbreviation: "+1030"),
            ZoneChange(at: utc(2026, 10, 3, 15, 30), before: 37800, after: 39600, abbreviation: "+11"),
            ZoneChange(at: utc(2027, 4, 3, 15), before: 39600, after: 37800, abbreviation: "+1030"),
            ZoneChange(at: utc(2027, 10, 2, 15, 30), before: 37800, after: 39600, abbreviation: "+11"),
        ]),
        // +12:45 standard, +13:45 daylight.
        ("Pacific/Chatham", [
            ZoneChange(at: utc(2025, 4, 5, 14), before: 49500, after: 45900, abbreviation: "+1245"),
            ZoneChange(at: utc(2025, 9, 27, 14), before: 45900, after: 49500, abbreviation: "+1345"),
            ZoneChange(at: utc(2026, 4, 4, 14), before: 49500, after: 45900, abbreviation: "+1245"),
            ZoneChange(at: utc(2026, 9, 26, 14), before: 45900, after: 49500, abbreviation: "+1345"),
            ZoneChange(at: utc(2027, 4, 3, 14), before: 49500, after: 45900, abbreviation: "+1245"),
            ZoneChange(at: utc(2027, 9, 25, 14), before: 45900, after: 49500, abbreviation: "+1345"),
        ]),
        // "Negative DST": IST (+1) is the standard time, winter GMT the daylight one (isdst=1).
        ("Europe/Dublin", [
            ZoneChange(at: utc(2025, 3, 30, 1), before: 0, after: 3600, abbreviation: "IST"),
            ZoneChange(at: utc(2025, 10, 26, 1), before: 3600, after: 0, abbreviation: "GMT"),
            ZoneChange(at: utc(2026, 3, 29, 1), before: 0, after: 3600, abbreviation: "IST"),
            ZoneChange(at: utc(2026, 10, 25, 1), before: 3600, after: 0, abbreviation: "GMT"),
            ZoneChange(at: utc(2027, 3, 28, 1), before: 0, after: 3600, abbreviation: "IST"),
            ZoneChange(at: utc(2027, 10, 31, 1), before: 3600, after: 0, abbreviation: "GMT"),
        ]),
    ]

    @Test("offsets and abbreviations change exactly at zdump's transitions, 2025–2027",
          arguments: ZoneTZifTests.changes.map(\.0))
    func transitions(identifier: String) throws {
        let rules = try ZoneData.rules(identifier)
        let expected = try #require(Self.changes.first { $0.0 == identifier }?.1)
        #expect(rules.identifier == identifier)
        var cursor = utc(2025, 1, 1)
        for change in expected {
            #expect(rules.offset(at: change.at + .seconds(-1)) == change.before, "\(identifier) before \(change)")
            #expect(rules.offset(at: change.at) == change.after, "\(identifier) at \(change)")
            #expect(rules.abbreviation(at: change.at) == change.abbreviation, "\(identifier) at \(change)")
            // The redraw schedule walks from one change to the next with nothing in between.
            #expect(rules.nextTransition(after: cursor) == change.at, "\(identifier) after \(CivilDateTime(cursor, offsetSeconds: 0))")
            cursor = change.at
        }
        let next = try #require(rules.nextTransition(after: cursor))
        #expect(CivilDateTime(next, offsetSeconds: 0).date.year == 2028)
    }

    @Test("Berlin: every hour of 2026 has the offset of the period it falls in")
    func berlinHourly() throws {
        let rules = try ZoneData.rules("Europe/Berlin")
        // zdump: CEST from 2026-03-29T01:00Z up to, not including, 2026-10-25T01:00Z.
        let summer = utc(2026, 3, 29, 1)..<utc(2026, 10, 25, 1)
        var t = utc(2026, 1, 1)
        var changes = 0, previous = rules.offset(at: t)
        while t < utc(2027, 1, 1) {
            let offset = rules.offset(at: t)
            #expect(offset == (summer.contains(t) ? 7200 : 3600), "\(CivilDateTime(t, offsetSeconds: 0))Z")
            #expect(rules.abbreviation(at: t) == (summer.contains(t) ? "CEST" : "CET"))
            if offset != previous { changes += 1 }
            previous = offset
            t = t + .seconds(3600)
        }
        #expect(changes == 2)
        #expect(rules.isDaylightSavingTime(at: utc(2026, 7, 1)))
        #expect(!rules.isDaylightSavingTime(at: utc(2026, 1, 1)))
    }

    @Test("zones without DST in 2025–2027: Kolkata +5:30, São Paulo (abolished 2019), Etc/UTC",
          arguments: [("Asia/Kolkata", 19800, "IST"), ("America/Sao_Paulo", -10800, "-03"), ("Etc/UTC", 0, "UTC")])
    func noDaylightSaving(identifier: String, offset: Int, abbreviation: String) throws {
        let rules = try ZoneData.rules(identifier)
        for t in [utc(2025, 1, 1), utc(2026, 1, 15, 7), utc(2026, 7, 1), utc(2100, 6, 1)] {
            #expect(rules.offset(at: t) == offset)
            #expect(rules.abbreviation(at: t) == abbreviation)
            #expect(!rules.isDaylightSavingTime(at: t))
        }
        // zdump -v -c 2025,2028 lists no transitions for these zones; none follow either.
        #expect(rules.nextTransition(after: utc(2025, 1, 1)) == nil)
    }

    @Test("São Paulo's last DST (ended 2019-02-17, zdump) is still in the table")
    func saoPauloHistory() throws {
        let rules = try ZoneData.rules("America/Sao_Paulo")
        #expect(rules.offset(at: utc(2019, 1, 15)) == -7200)
        #expect(rules.nextTransition(after: utc(2019, 1, 15)) == utc(2019, 2, 17, 2))
    }

    @Test("Dublin marks winter GMT as its daylight-saving half, as the data says")
    func dublinNegativeDST() throws {
        let rules = try ZoneData.rules("Europe/Dublin")
        #expect(rules.offset(at: utc(2026, 1, 15)) == 0)
        #expect(rules.abbreviation(at: utc(2026, 1, 15)) == "GMT")
        #expect(rules.isDaylightSavingTime(at: utc(2026, 1, 15)))  // zdump: GMT isdst=1
        #expect(!rules.isDaylightSavingTime(at: utc(2026, 7, 15)))  // zdump: IST isdst=0
        #expect(rules.offset(at: utc(2100, 7, 15)) == 3600)  // the footer says the same
        #expect(rules.isDaylightSavingTime(at: utc(2100, 1, 15)))
    }

    /// `zdump -v -c 2100,2101 ZONE`: past the table's 2037, only the footer rule knows.
    @Test("2100 comes from the footer rule", arguments: [
        ("Europe/Berlin", utc(2100, 3, 28, 1), 7200, utc(2100, 10, 31, 1), 3600),
        ("Australia/Sydney", utc(2100, 4, 3, 16), 36000, utc(2100, 10, 2, 16), 39600),
        ("Europe/Dublin", utc(2100, 3, 28, 1), 3600, utc(2100, 10, 31, 1), 0),
        ("Australia/Lord_Howe", utc(2100, 4, 3, 15), 37800, utc(2100, 10, 2, 15, 30), 39600),
        ("America/Denver", utc(2100, 3, 14, 9), -21600, utc(2100, 11, 7, 8), -25200),
    ])
    func farFuture(identifier: String, first: WallTime, firstOffset: Int, second: WallTime, secondOffset: Int) throws {
        let rules = try ZoneData.rules(identifier)
        #expect(rules.nextTransition(after: utc(2100, 1, 1)) == first)
        #expect(rules.offset(at: first) == firstOffset)
        #expect(rules.offset(at: first + .seconds(-1)) == secondOffset)
        #expect(rules.nextTransition(after: first) == second)
        #expect(rules.offset(at: second) == secondOffset)
        #expect(rules.offset(at: second + .seconds(-1)) == firstOffset)
    }

    /// Each fat file's table (written by zic) and its footer rule (computed here) describe the
    /// same years 2026–2037: checks the POSIX arithmetic against zic for every rule shape in use.
    @Test("the footer rule alone reproduces zic's table for 2026–2037", arguments: [
        "Europe/Berlin", "America/Denver", "Australia/Sydney", "Australia/Lord_Howe", "Pacific/Chatham",
        "Europe/Dublin", "Asia/Jerusalem", "America/Nuuk", "America/Santiago", "Antarctica/Troll",
        "America/St_Johns", "Asia/Kolkata",
    ])
    func footerMatchesTable(identifier: String) throws {
        let table = try ZoneData.rules(identifier)
        let footer = try #require(ZoneRules.parse(posix: try ZoneData.footer(identifier)))
        var a: WallTime? = utc(2026, 1, 1), b: WallTime? = utc(2026, 1, 1)
        var count = 0
        while let t = a, t < utc(2037, 1, 1) {
            #expect(a == b, "\(identifier): table \(CivilDateTime(t, offsetSeconds: 0)), rule \(b.map { CivilDateTime($0, offsetSeconds: 0) }.debugDescription)")
            guard a == b else { return }
            #expect(table.offset(at: t) == footer.offset(at: t) && table.abbreviation(at: t) == footer.abbreviation(at: t))
            #expect(table.offset(at: t + .seconds(-1)) == footer.offset(at: t + .seconds(-1)))
            a = table.nextTransition(after: t)
            b = footer.nextTransition(after: t)
            count += 1
        }
        // Kolkata: no change at all (nil from both); the others change twice a year.
        #expect(identifier == "Asia/Kolkata" ? count == 1 : count >= 22)
        var t = utc(2026, 1, 1)
        while t < utc(2027, 1, 1) {
            #expect(table.offset(at: t) == footer.offset(at: t), "\(identifier) at \(CivilDateTime(t, offsetSeconds: 0))Z")
            t = t + .seconds(1800)
        }
    }

    @Test("localTime shows the wall clock across Berlin's spring gap")
    func localTimeAcrossGap() throws {
        let rules = try ZoneData.rules("Europe/Berlin")
        #expect(localTime(utc(2026, 3, 29, 0, 59, 59), in: rules).description == "2026-03-29T01:59:59")
        #expect(localTime(utc(2026, 3, 29, 1), in: rules).description == "2026-03-29T03:00:00")
        #expect(localTime(utc(2026, 10, 25, 0, 59, 59), in: rules).description == "2026-10-25T02:59:59")
        #expect(localTime(utc(2026, 10, 25, 1), in: rules).description == "2026-10-25T02:00:00")
        // MET Norway's Date header (met-norway-compact.headers.txt) on a Berlin clock.
        #expect(localTime(WallTime(seconds: 1_768_461_485), in: rules).description == "2026-01-15T08:18:05")
    }

    @Test("a slim file (no transitions, footer only) gives the fat file's answers")
    func slimFile() throws {
        let footer = try ZoneData.footer("Europe/Berlin")
        var builder = TZifBuilder()
        builder.types = [(3600, 0, 0)]
        builder.abbreviations = Array("CET\0".utf8)
        builder.footer = footer
        let slim = try ZoneRules.parse(tzif: builder.build(), identifier: "Europe/Berlin").get()
        let fat = try ZoneData.rules("Europe/Berlin")
        for change in Self.changes[0].1 {
            #expect(slim.offset(at: change.at) == change.after)
            #expect(slim.abbreviation(at: change.at) == change.abbreviation)
            #expect(slim.nextTransition(after: change.at + .seconds(-1)) == change.at)
            #expect(fat.offset(at: change.at + .seconds(-1)) == slim.offset(at: change.at + .seconds(-1)))
        }
    }
}

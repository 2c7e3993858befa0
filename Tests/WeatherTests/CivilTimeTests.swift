import HAL
import HALSim
import Testing
import Weather

@Suite("Civil time")
struct CivilTimeTests {
    @Test("days since the epoch round-trip over 800 years, leap days included")
    func daysRoundTrip() {
        for days in stride(from: Int64(-146_097), through: 146_097, by: 1) {
            let date = CivilDate(daysSinceEpoch: days)
            #expect(date.isValid)
            if date.daysSinceEpoch != days {
                Issue.record("\(date) → \(date.daysSinceEpoch), expected \(days)")
                return
            }
        }
        #expect(CivilDate(year: 1970, month: 1, day: 1).daysSinceEpoch == 0)
        #expect(CivilDate(year: 2000, month: 2, day: 29).daysSinceEpoch == 11_016)
        #expect(CivilDate(year: 2026, month: 1, day: 15).weekday == 4)  // a Thursday
        #expect(CivilDate(year: 1969, month: 12, day: 31).weekday == 3)
    }

    @Test("local times become instants with the offset, and back")
    func offsets() throws {
        let local = try #require(ISO8601.parse("2026-01-15T08:15"))
        let instant = local.instant(offsetSeconds: 3600)
        #expect(instant == WallTime(seconds: 1_768_461_300))  // 07:15Z
        #expect(CivilDateTime(instant, offsetSeconds: 3600) == local)
        #expect(CivilDateTime(WallTime(seconds: -1), offsetSeconds: 0).description == "1969-12-31T23:59:59")
    }

    @Test("ISO 8601 forms of the services parse strictly", arguments: [
        ("2026-01-15", "2026-01-15T00:00:00"),
        ("2026-01-15T08:15", "2026-01-15T08:15:00"),
        ("2026-01-15T07:00:00Z", "2026-01-15T07:00:00"),
        ("2024-02-29T23:59", "2024-02-29T23:59:00"),
    ])
    func parses(text: String, expected: String) {
        #expect(ISO8601.parse(text)?.description == expected)
    }

    @Test("malformed times are refused", arguments: [
        "", "2026-1-15", "2026-01-15 08:15", "2026-13-01", "2026-02-29", "2026-01-15T24:00",
        "2026-01-15T08:60", "2026-01-15T08", "+2026-01-15", "2026-01-15T08:15:00+01:00", "２０２６-01-15",
    ])
    func refuses(text: String) {
        #expect(ISO8601.parse(text) == nil)
    }
}

@Suite("The zone a report is shown in")
struct ReportZoneTests {
    static func report(_ provider: WeatherProvider, zone: String?) -> WeatherReport {
        WeatherReport(provider: provider, latitude: 1, longitude: 2, fetchedAt: WallTime(seconds: 0), utcOffsetSeconds: 3600,
                      timeZone: zone, current: nil)
    }

    @Test("a named zone tzdata lacks, no name, and MET Norway each get their fallback")
    func fallbacks() {
        var files = CrashableFileSystem()  // no tzdata at all
        let named = ZoneRules.forReport(Self.report(.openMeteo, zone: "Europe/Berlin"), files: &files, fallback: .utc)
        #expect(named.identifier == "Europe/Berlin" && named.offset(at: WallTime(seconds: 0)) == 3600)
        let unnamed = ZoneRules.forReport(Self.report(.openMeteo, zone: nil), files: &files, fallback: .utc)
        #expect(unnamed.identifier == "UTC+01" && unnamed.offset(at: WallTime(seconds: 0)) == 3600)
        let met = ZoneRules.forReport(Self.report(.metNorway, zone: nil), files: &files, fallback: .fixed(offsetSeconds: -7200, identifier: "here"))
        #expect(met.identifier == "here")
    }
}

import HAL
import Testing
import Weather

/// POSIX TZ strings on their own (POSIX XBD §8.3, RFC 8536 §3.3.1), no tzdata needed. The
/// strings are the footers of Debian 12's tzdata 2025b; the expected instants are from
/// `zdump -v -c 2026,2027 ZONE` on that machine.
@Suite("POSIX TZ strings")
struct ZonePosixTests {
    /// (TZ string, [(first instant of a period, offset, abbreviation)] in 2026)
    static let cases: [(String, [(WallTime, Int, String)])] = [
        ("CET-1CEST,M3.5.0,M10.5.0/3", [(utc(2026, 3, 29, 1), 7200, "CEST"), (utc(2026, 10, 25, 1), 3600, "CET")]),
        ("MST7MDT,M3.2.0,M11.1.0", [(utc(2026, 3, 8, 9), -21600, "MDT"), (utc(2026, 11, 1, 8), -25200, "MST")]),
        // Southern hemisphere: the end rule comes first in the year.
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", [(utc(2026, 4, 4, 16), 36000, "AEST"), (utc(2026, 10, 3, 16), 39600, "AEDT")]),
        // Quoted names, half-hour offsets, default 02:00 rule times.
        ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", [(utc(2026, 4, 4, 15), 37800, "+1030"), (utc(2026, 10, 3, 15, 30), 39600, "+11")]),
        ("<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45", [(utc(2026, 4, 4, 14), 45900, "+1245"), (utc(2026, 9, 26, 14), 49500, "+1345")]),
        // Negative DST: the daylight half (GMT) is behind the standard one (IST).
        ("IST-1GMT0,M10.5.0,M3.5.0/1", [(utc(2026, 3, 29, 1), 3600, "IST"), (utc(2026, 10, 25, 1), 0, "GMT")]),
        // RFC 8536 §3.3.1: a rule time past 24 h (Thursday 26:00 = Friday 02:00)…
        ("IST-2IDT,M3.4.4/26,M10.5.0", [(utc(2026, 3, 27, 0), 10800, "IDT"), (utc(2026, 10, 24, 23), 7200, "IST")]),
        // …and a negative one (Sunday −1:00 = Saturday 23:00).
        ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", [(utc(2026, 3, 29, 1), -3600, "-01"), (utc(2026, 10, 25, 1), -7200, "-02")]),
        ("<-04>4<-03>,M9.1.6/24,M4.1.6/24", [(utc(2026, 4, 5, 3), -14400, "-04"), (utc(2026, 9, 6, 4), -10800, "-03")]),
        // Two hours of DST with an explicit DST offset (Antarctica/Troll).
        ("<+00>0<+02>-2,M3.5.0/1,M10.5.0/3", [(utc(2026, 3, 29, 1), 7200, "+02"), (utc(2026, 10, 25, 1), 0, "+00")]),
    ]

    @Test("2026 transitions match zdump", arguments: ZonePosixTests.cases.map(\.0))
    func transitions(text: String) throws {
        let rules = try #require(ZoneRules.parse(posix: text))
        let expected = try #require(Self.cases.first { $0.0 == text }?.1)
        #expect(rules.identifier == text)
        var cursor = utc(2026, 1, 1)
        for (at, offset, abbreviation) in expected {
            #expect(rules.nextTransition(after: cursor) == at, "\(text) after \(CivilDateTime(cursor, offsetSeconds: 0))")
            #expect(rules.offset(at: at) == offset)
            #expect(rules.abbreviation(at: at) == abbreviation)
            #expect(rules.offset(at: at + .seconds(-1)) != offset)
            cursor = at
        }
    }

    @Test("fixed zones: no daylight part, no transitions")
    func fixedZones() throws {
        let kolkata = try #require(ZoneRules.parse(posix: "IST-5:30"))
        #expect(kolkata.offset(at: utc(2026, 6, 1)) == 19800)
        #expect(kolkata.nextTransition(after: utc(2026, 1, 1)) == nil)
        let saoPaulo = try #require(ZoneRules.parse(posix: "<-03>3"))
        #expect(saoPaulo.offset(at: utc(2026, 6, 1)) == -10800)
        #expect(saoPaulo.abbreviation(at: utc(2026, 6, 1)) == "-03")
        #expect(ZoneRules.parse(posix: "UTC0")?.offset(at: WallTime(seconds: 0)) == 0)
        #expect(ZoneRules.parse(posix: "<+0330>-3:30")?.offset(at: utc(2026, 1, 1)) == 12600)
        #expect(ZoneRules.parse(posix: "XXX-1:02:03")?.offset(at: utc(2026, 1, 1)) == 3723)
    }

    @Test("defaults: DST one hour ahead, and the US rule when none is given (tzcode's default)")
    func defaults() throws {
        let rules = try #require(ZoneRules.parse(posix: "EST5EDT"))
        #expect(rules.nextTransition(after: utc(2026, 1, 1)) == utc(2026, 3, 8, 7))  // 02:00 EST
        #expect(rules.offset(at: utc(2026, 7, 1)) == -14400)
        #expect(rules.nextTransition(after: utc(2026, 3, 8, 7)) == utc(2026, 11, 1, 6))  // 02:00 EDT
    }

    @Test("Jn skips 29 February, n counts it")
    func julianDays() throws {
        // J60 is 1 March in every year; zero-based 59 is 29 February in a leap year.
        let julian = try #require(ZoneRules.parse(posix: "AAA0BBB,J60/0,J300/0"))
        #expect(julian.nextTransition(after: utc(2028, 1, 1)) == utc(2028, 3, 1))
        #expect(julian.nextTransition(after: utc(2026, 1, 1)) == utc(2026, 3, 1))
        let zeroBased = try #require(ZoneRules.parse(posix: "AAA0BBB,59/0,300/0"))
        #expect(zeroBased.nextTransition(after: utc(2028, 1, 1)) == utc(2028, 2, 29))
        #expect(zeroBased.nextTransition(after: utc(2026, 1, 1)) == utc(2026, 3, 1))
        // "Week 5" of a month with four Sundays is the fourth: February 2026 has Sundays 1, 8,
        // 15, 22. The end rule is in daylight time (UTC+1), so 00:00 is 23:00Z the day before.
        let last = try #require(ZoneRules.parse(posix: "AAA0BBB,M3.5.0/0,M2.5.0/0"))
        #expect(last.nextTransition(after: utc(2026, 1, 1)) == utc(2026, 2, 21, 23))
        #expect(last.nextTransition(after: utc(2026, 2, 21, 23)) == utc(2026, 3, 29))
    }

    @Test("all-year DST (RFC 8536 §3.3.1's EST5EDT,0/0,J365/25) never changes")
    func permanentDaylight() throws {
        let rules = try #require(ZoneRules.parse(posix: "EST5EDT,0/0,J365/25"))
        for t in [utc(2026, 1, 1), utc(2026, 1, 1, 5), utc(2026, 6, 1), utc(2026, 12, 31, 23), utc(2028, 2, 29)] {
            #expect(rules.offset(at: t) == -14400)
            #expect(rules.abbreviation(at: t) == "EDT")
        }
        #expect(rules.nextTransition(after: utc(2026, 1, 1)) == nil)
    }

    @Test("instants before 1970 and at the ends of time do not trap")
    func extremes() throws {
        let rules = try #require(ZoneRules.parse(posix: "CET-1CEST,M3.5.0,M10.5.0/3"))
        #expect(rules.offset(at: utc(1960, 7, 1)) == 7200)
        _ = rules.offset(at: WallTime(seconds: .max))
        _ = rules.offset(at: WallTime(seconds: .min))
        _ = rules.nextTransition(after: WallTime(seconds: .max))
        _ = rules.nextTransition(after: WallTime(seconds: .min))
    }

    @Test("malformed TZ strings are refused", arguments: [
        "", "C", "CE1", "CET", "CET-", "CET-1CEST,", "CET-1CEST,M3.5.0", "CET-1CEST,M3.5.0,", "CET-1CEST,M13.5.0,M10.5.0",
        "CET-1CEST,M3.6.0,M10.5.0", "CET-1CEST,M3.5.7,M10.5.0", "CET-1CEST,M3.5.0/168,M10.5.0", "CET-1CEST,J0,J365",
        "CET-1CEST,J366,J1", "CET-1CEST,366,1", "CET-25", "CET-1:60", "CET-1 ", " CET-1", ":Europe/Berlin", "<AB>1",
        "<+01-1", "CET-1CEST,M3.5.0,M10.5.0/3x", "CET-1CEST-2-3", "CET-0001", "C3T-1", "Europe/Berlin",
    ])
    func malformed(text: String) {
        #expect(ZoneRules.parse(posix: text) == nil, "\(text)")
    }
}

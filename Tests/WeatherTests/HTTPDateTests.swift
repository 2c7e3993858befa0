import HAL
import HALSim
import Testing
import Weather

/// HTTP dates, RFC 9110 §5.6.7, and Retry-After, §10.2.3.
@Suite("HTTP dates")
struct HTTPDateTests {
    /// The dates of the corpus's weather/met-norway-compact.headers.txt and
    /// met-norway-304.headers.txt, copied here (the repository tests read the files themselves);
    /// the instants were computed with python3's `calendar.timegm`.
    static let metNorway: [(String, Int64)] = [
        ("Thu, 15 Jan 2026 07:18:05 GMT", 1_768_461_485),  // 200: Date
        ("Thu, 15 Jan 2026 07:16:40 GMT", 1_768_461_400),  // 200 and 304: Last-Modified
        ("Thu, 15 Jan 2026 07:48:31 GMT", 1_768_463_311),  // 200: Expires
        ("Thu, 15 Jan 2026 07:49:02 GMT", 1_768_463_342),  // 304: Date
        ("Thu, 15 Jan 2026 08:19:02 GMT", 1_768_465_142),  // 304: Expires
    ]

    @Test("MET Norway's header dates", arguments: HTTPDateTests.metNorway)
    func metNorwayHeaders(text: String, seconds: Int64) {
        #expect(HTTPDate.parse(text) == WallTime(seconds: seconds))
        #expect(HTTPDate.format(WallTime(seconds: seconds)) == text)
    }

    @Test("the three forms of RFC 9110's example name the same instant")
    func threeForms() {
        let instant = WallTime(seconds: 784_111_777)  // 1994-11-06T08:49:37Z
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == instant)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == instant)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == instant)
        #expect(HTTPDate.parse("Sun Nov 06 08:49:37 1994") == instant)  // 2DIGIT is allowed too
        #expect(HTTPDate.parse("Wednesday, 15-Jan-26 07:18:05 GMT") == WallTime(seconds: 1_768_461_485))
    }

    @Test("RFC 850 two-digit years: more than 50 years ahead of now means the previous century")
    func twoDigitYears() {
        let now = WallTime(seconds: 1_768_461_485)  // 2026
        #expect(HTTPDate.parse("Thursday, 15-Jan-26 07:18:05 GMT", now: now) == utc(2026, 1, 15, 7, 18, 5))
        #expect(HTTPDate.parse("Saturday, 15-Jan-76 00:00:00 GMT", now: now) == utc(2076, 1, 15))  // 50 ahead
        #expect(HTTPDate.parse("Saturday, 15-Jan-77 00:00:00 GMT", now: now) == utc(1977, 1, 15))  // 51 ahead
        let later = utc(2090, 6, 1)
        #expect(HTTPDate.parse("Monday, 01-Jan-30 00:00:00 GMT", now: later) == utc(2130, 1, 1))
        #expect(HTTPDate.parse("Monday, 01-Jan-45 00:00:00 GMT", now: later) == utc(2045, 1, 1))
        // Without a clock: the POSIX %y window.
        #expect(HTTPDate.parse("Monday, 01-Jan-69 00:00:00 GMT") == utc(1969, 1, 1))
        #expect(HTTPDate.parse("Monday, 01-Jan-68 00:00:00 GMT") == utc(2068, 1, 1))
    }

    @Test("a wrong day name is accepted and ignored; an unknown one is not")
    func dayNames() {
        // 15 January 2026 is a Thursday. The date fields decide (see HTTPDate's documentation).
        #expect(HTTPDate.parse("Fri, 15 Jan 2026 07:18:05 GMT") == WallTime(seconds: 1_768_461_485))
        #expect(HTTPDate.parse("Mon Jan 15 07:18:05 2026") == WallTime(seconds: 1_768_461_485))
        #expect(HTTPDate.parse("Thx, 15 Jan 2026 07:18:05 GMT") == nil)
        #expect(HTTPDate.parse("Thurs, 15 Jan 2026 07:18:05 GMT") == nil)
    }

    @Test("29 February, 2038 and beyond, a leap second")
    func calendarEdges() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 12:00:00 GMT") == utc(2024, 2, 29, 12))
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") == utc(2000, 2, 29))
        #expect(HTTPDate.parse("Sat, 29 Feb 2025 12:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Mon, 29 Feb 2100 12:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Tue, 19 Jan 2038 03:14:08 GMT") == WallTime(seconds: 2_147_483_648))
        #expect(HTTPDate.format(WallTime(seconds: 2_147_483_648)) == "Tue, 19 Jan 2038 03:14:08 GMT")
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT") == WallTime(seconds: 253_402_300_799))
        #expect(HTTPDate.parse("Sat, 31 Dec 2016 23:59:60 GMT") == utc(2016, 12, 31, 23, 59, 59))
        #expect(HTTPDate.format(WallTime(seconds: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(WallTime(seconds: -1)) == "Wed, 31 Dec 1969 23:59:59 GMT")
        #expect(HTTPDate.format(WallTime(seconds: .max)) == "Fri, 31 Dec 9999 23:59:59 GMT")  // clamped
        #expect(HTTPDate.format(WallTime(seconds: .min)) == "Mon, 01 Jan 0001 00:00:00 GMT")
    }

    @Test("format then parse returns the instant, years 1 to 9999")
    func roundTrips() {
        var random = SplitMix64(seed: 9110)
        let first = utc(1, 1, 1).seconds, last = utc(9999, 12, 31, 23, 59, 59).seconds
        for _ in 0..<20_000 {
            let t = WallTime(seconds: first + Int64(random.next(below: UInt64(last - first + 1))))
            let text = HTTPDate.format(t)
            #expect(HTTPDate.parse(text) == t, "\(text)")
            #expect(text.utf8.count == 29)
        }
    }

    @Test("anything else is refused", arguments: [
        "", "Thu", "thu, 15 Jan 2026 07:18:05 GMT", "Thu, 15 jan 2026 07:18:05 GMT", "Thu, 15 Jan 2026 07:18:05 gmt",
        "Thu, 15 Jan 2026 07:18:05 UTC", "Thu, 15 Jan 2026 07:18:05 +0000", "Thu, 5 Jan 2026 07:18:05 GMT",
        "Thu, 15 Jan 2026 24:00:00 GMT", "Thu, 15 Jan 2026 07:60:00 GMT", "Thu, 15 Jan 2026 07:18:61 GMT",
        "Thu, 32 Jan 2026 07:18:05 GMT", "Thu, 00 Jan 2026 07:18:05 GMT", "Thu,15 Jan 2026 07:18:05 GMT",
        "Thu, 15 Jan 2026 07:18:05 GMT ", " Thu, 15 Jan 2026 07:18:05 GMT", "Thu, 15 Jan 2026 07:18:05 GMT\r\n",
        "Thu, 15 Jan 26 07:18:05 GMT", "Thu, 15 Jan 2026 7:18:05 GMT", "Thu, 15 Jan 2026 07:18 GMT",
        "Thursday, 15-Jan-2026 07:18:05 GMT", "Thu, 15-Jan-26 07:18:05 GMT", "Thursday 15-Jan-26 07:18:05 GMT",
        "Thursday, 15 Jan 26 07:18:05 GMT", "Thu Jan 15 07:18:05 2026 GMT", "Thu Jan 5 07:18:05 2026",
        "Thu Jan  5 07:18:05 26", "2026-01-15T07:18:05Z", "Thu, 15 Jan 2026 07:18:05 GMT, Thu", "Thu, 1\u{0}Jan 2026 07:18:05 GMT",
        "Thu, 15 Jän 2026 07:18:05 GMT", "Thu, +5 Jan 2026 07:18:05 GMT",
    ])
    func malformed(text: String) {
        #expect(HTTPDate.parse(text) == nil, "\(text.debugDescription)")
    }

    @Test("Retry-After: delay-seconds or an HTTP-date")
    func retryAfter() {
        let now = WallTime(seconds: 1_768_461_485)  // the MET Date above
        #expect(HTTPDate.retryAfter("120", now: now) == .seconds(120))
        #expect(HTTPDate.retryAfter(" 120\t", now: now) == .seconds(120))
        #expect(HTTPDate.retryAfter("0", now: now) == .zero)
        #expect(HTTPDate.retryAfter("Thu, 15 Jan 2026 07:48:31 GMT", now: now) == .seconds(1826))
        #expect(HTTPDate.retryAfter("Thu, 15 Jan 2026 07:00:00 GMT", now: now) == .zero)  // already past
        let halfSecondLater = WallTime(seconds: 1_768_461_485, nanoseconds: 500_000_000)
        #expect(HTTPDate.retryAfter("Thu, 15 Jan 2026 07:18:06 GMT", now: halfSecondLater) == .milliseconds(500))
        #expect(HTTPDate.retryAfter("9223372036854775807", now: now) == .seconds(Int64.max))
        for bad in ["", " ", "-1", "+5", "1.5", "12s", "120 120", "9223372036854775808", "99999999999999999999999", "soon"] {
            #expect(HTTPDate.retryAfter(bad, now: now) == nil, "\(bad)")
        }
    }
}

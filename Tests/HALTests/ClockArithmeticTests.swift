import HAL
import Testing

/// Times come from outside (a server's `Retry-After`, a cache file, a GPS date): arithmetic on
/// them must stop at the ends of the range, never wrap into the past or trap.
@Suite("Clock arithmetic saturates")
struct ClockArithmeticTests {
    @Test("an instant plus a huge duration stops at the end of time instead of wrapping into the past")
    func instantPlusHuge() {
        let now = Instant(nanoseconds: 5_000_000_000)
        let later = now + .seconds(Int64.max)
        #expect(later > now)
        #expect(later == Instant(nanoseconds: .max))
        #expect(Instant(nanoseconds: .max - 1) + .nanoseconds(10) == Instant(nanoseconds: .max))
    }

    @Test("an instant minus a huge duration stops at the start of time")
    func instantMinusHuge() {
        let now = Instant(nanoseconds: -5)
        #expect(now - .seconds(Int64.max) == Instant(nanoseconds: .min))
        #expect(now + .seconds(Int64.min) == Instant(nanoseconds: .min))
    }

    @Test("the distance between the two ends of time is not wrapped")
    func instantDistance() {
        let span = Instant(nanoseconds: .max) - Instant(nanoseconds: .min)
        #expect(span > .zero)
        #expect(Instant(nanoseconds: .min) - Instant(nanoseconds: .max) < .zero)
    }

    @Test("civil time plus or minus a huge duration saturates")
    func wallTimeSaturates() {
        let now = WallTime(seconds: 1_768_461_485)
        #expect(now + .seconds(Int64.max) > now)
        #expect(now - .seconds(Int64.max) < now)
        #expect(WallTime(seconds: .max, nanoseconds: 999_999_999) + .seconds(1) == WallTime(seconds: .max, nanoseconds: 999_999_999))
        #expect(WallTime(seconds: .min) - .seconds(1) == WallTime(seconds: .min))
    }

    @Test("the distance between far-apart civil times does not trap")
    func wallTimeDistance() {
        let far = WallTime(seconds: .max) - WallTime(seconds: .min)
        #expect(far > .seconds(Int64.max / 2))
        let back = WallTime(seconds: .min) - WallTime(seconds: .max, nanoseconds: 5)
        #expect(back < .zero)
    }
}

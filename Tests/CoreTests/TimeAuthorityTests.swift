import Core
import HAL
import Testing

/// The order of trust, and what each source is called.
@Suite("Core: the time authority")
struct TimeAuthorityTests {
    static let system = WallTime(seconds: 1_796_119_200)  // 2026-12-01T10:00:00Z
    static let now = Instant(nanoseconds: 50_000_000_000)

    @Test("a synchronised kernel clock wins over GPS time")
    func synchronisedWins() {
        let m = TimeAuthority.moment(now: Self.now, system: Self.system, synchronised: true, gps: (Self.system + .seconds(86_400), Self.now))
        #expect(m.source == .system && m.wall == Self.system && m.base.trusted)
    }

    @Test("unsynchronised: vouched GPS time carried forward on the monotonic clock")
    func gpsCarried() {
        let vouched = (time: Self.system + .seconds(3 * 86_400), at: Self.now - .seconds(10))
        let m = TimeAuthority.moment(now: Self.now, system: Self.system, synchronised: false, gps: vouched)
        #expect(m.source == .gps)
        #expect(m.wall == vouched.time + .seconds(10))
        #expect(m.base.wall(at: Self.now - .seconds(10)) == vouched.time)
    }

    @Test("no GPS: a plausible system clock is unsure, 1970 is none")
    func unsureAndNone() {
        #expect(TimeAuthority.moment(now: Self.now, system: Self.system, synchronised: false, gps: nil).source == .unsure)
        let m = TimeAuthority.moment(now: Self.now, system: WallTime(seconds: 30), synchronised: false, gps: nil)
        #expect(m.source == .none && !m.base.trusted)
        #expect(!ClockSource.unsure.isTrusted && ClockSource.gps.isTrusted)
    }

    @Test("a base converts both ways and measures a step")
    func baseArithmetic() {
        let a = TimeBase(anchor: Self.now, wall: Self.system, trusted: true)
        #expect(a.instant(at: a.wall(at: Self.now + .seconds(7))) == Self.now + .seconds(7))
        let later = TimeBase(anchor: Self.now + .seconds(5), wall: Self.system + .seconds(5 + 3600), trusted: true)
        #expect(later.offset(from: a) == .seconds(3600))
        #expect(AppState.spokenStep(.seconds(3 * 86_400 + 7200)) == "3 d 2 h")
        #expect(AppState.spokenStep(.seconds(-3600)) == "1 h 0 min")
    }
}

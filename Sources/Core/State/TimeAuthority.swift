import HAL

/// The one place the device decides what time it is (every civil time on the device comes from
/// the `Moment` this returns; every schedule stays on the monotonic clock).
///
/// In order of trust, as gpsd and chrony rank their sources:
/// 1. the kernel's clock when the kernel says it is synchronised (`adjtimex` without
///    `STA_UNSYNC`: NTP, chrony, or a GPS time daemon keeps it);
/// 2. GPS time the `ClockGate` vouched for (two consecutive trusted epochs agree with the
///    monotonic clock), carried forward on the monotonic clock;
/// 3. the unsynchronised system clock, when it reads a plausible time: marked unsure (a Pi has
///    no battery-backed clock; after a boot without network its clock is what fake-hwclock
///    saved at the last shutdown, days or months behind);
/// 4. none: the system clock reads a time before `earliestPlausible`.
public enum TimeAuthority {
    /// 2025-01-01T00:00:00Z: no clock that reads earlier is right (this software did not exist).
    /// A Pi without fake-hwclock boots at 1970.
    public static let earliestPlausible = WallTime(seconds: 1_735_689_600)

    /// The 10-bit GPS week number wraps every 1,024 weeks (IS-GPS-200, 20.3.3.3.1.1); the GPS
    /// decoder repairs such dates (`GPSTimeRules`) before they reach here.
    public static let gpsWeekRollover = Duration.seconds(1024 * 7 * 86_400)

    /// The time for an event read at the monotonic instant `now`.
    /// - Parameters:
    ///   - system: `CLOCK_REALTIME` read at `now`.
    ///   - synchronised: whether the kernel vouches for it.
    ///   - gps: the last GPS time vouched for and the monotonic instant it belongs to.
    public static func moment(now: Instant, system: WallTime, synchronised: Bool, gps: (time: WallTime, at: Instant)?) -> Moment {
        if synchronised { return Moment(now: now, wall: system, source: .system) }
        if let gps, gps.time >= earliestPlausible {
            return Moment(now: now, wall: gps.time + (now - gps.at), source: .gps)
        }
        return Moment(now: now, wall: system, source: system >= earliestPlausible ? .unsure : .none)
    }

    /// Two bases further apart than this are a step of the clock (or a new source), not the
    /// jitter of reading GPS time off a serial line (`ClockGate` allows 250 ms) nor the whole
    /// second the first vouched epoch can be late by (an epoch closes when the next begins
    /// until the receiver's cycle is learnt).
    public static let stepTolerance = Duration.seconds(2)
}

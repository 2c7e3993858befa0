/// A point on the monotonic clock, in nanoseconds since an arbitrary origin (boot, on Linux).
///
/// The monotonic clock never jumps: every timeout, retry, debounce and staleness check uses it.
/// On Linux it is `CLOCK_MONOTONIC`, the clock the kernel stamps GPIO line events with (uAPI v2's
/// default) and timerfd arms on.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = Instant(nanoseconds: 0)

    public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }

    // Durations can come from outside (a server's `Retry-After`, a cache file): the sums stop
    // at the ends of the 292-year range instead of wrapping, so a huge wait is "never soon",
    // not "already past" (a wrapped deadline made the device retry at once, forever).

    public static func + (a: Instant, d: Duration) -> Instant {
        Instant(nanoseconds: Int64(clamping: Int128(a.nanoseconds) + Int128(d.nanoseconds)))
    }

    public static func - (a: Instant, d: Duration) -> Instant {
        Instant(nanoseconds: Int64(clamping: Int128(a.nanoseconds) - Int128(d.nanoseconds)))
    }

    public static func - (a: Instant, b: Instant) -> Duration {
        .nanoseconds(Int128(a.nanoseconds) - Int128(b.nanoseconds))
    }

    public static func += (a: inout Instant, d: Duration) { a = a + d }

    /// The earlier of two optional deadlines (nil: none).
    public static func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
        guard let a else { return b }
        guard let b else { return a }
        return b < a ? b : a
    }

    public var description: String { "\(Duration.nanoseconds(nanoseconds))" }
}

/// Civil time: seconds and nanoseconds since 1970-01-01T00:00:00Z (`CLOCK_REALTIME`).
///
/// It can jump (NTP, a GPS time fix, a user), so it is only read to show the time of day and to
/// stamp things people read; it never measures an interval.
public struct WallTime: Comparable, Hashable, Sendable {
    public var seconds: Int64
    public var nanoseconds: Int32

    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    public static func < (a: WallTime, b: WallTime) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }

    /// The earliest and latest civil times there are; sums stop here rather than trap.
    public static let earliest = WallTime(seconds: .min, nanoseconds: 0)
    public static let latest = WallTime(seconds: .max, nanoseconds: 999_999_999)

    public static func + (a: WallTime, d: Duration) -> WallTime {
        let total = Int128(a.seconds) * 1_000_000_000 + Int128(a.nanoseconds) + d.attoseconds / 1_000_000_000
        var (s, n) = total.quotientAndRemainder(dividingBy: 1_000_000_000)
        if n < 0 { (s, n) = (s - 1, n + 1_000_000_000) }
        if s > Int128(Int64.max) { return latest }
        if s < Int128(Int64.min) { return earliest }
        return WallTime(seconds: Int64(s), nanoseconds: Int32(n))
    }

    public static func - (a: WallTime, d: Duration) -> WallTime { a + (Duration.zero - d) }

    /// How far apart two civil times are (negative when `b` is later); for ages of data that
    /// must survive a reboot, where the monotonic clock starts again.
    public static func - (a: WallTime, b: WallTime) -> Duration {
        .nanoseconds((Int128(a.seconds) - Int128(b.seconds)) * 1_000_000_000 + Int128(a.nanoseconds) - Int128(b.nanoseconds))
    }
}

/// Where the device gets its time from: the real clocks on Linux, a virtual clock that tests
/// advance by hand. Injected everywhere; nothing reads a global clock.
///
/// Two required methods because there are two clocks with different promises (see `Instant` and
/// `WallTime`); neither allocates or blocks.
public protocol DeviceClock {
    /// The monotonic time now.
    func now() -> Instant
    /// The civil time now.
    func wallTime() -> WallTime
}

extension Duration {
    /// The whole duration in nanoseconds, saturating at the bounds of `Int64` (about 292 years).
    public var nanoseconds: Int64 {
        // Not `components`: its seconds are an Int64 and trap for a longer duration.
        Int64(clamping: attoseconds / 1_000_000_000)
    }
}

/// How civil time maps onto the monotonic clock under one source of time: `wall` was the civil
/// time at `anchor`, and civil time moves on with the monotonic clock from there.
///
/// Anything stamped off the loop (a fetch's arrival) is stamped on the monotonic clock and
/// turned into civil time through the base the device's time authority chose, so a stamp
/// taken under one source and read under another is converted, never compared raw.
public struct TimeBase: Sendable, Equatable {
    public var anchor: Instant
    public var wall: WallTime
    /// Whether someone vouches for `wall` (a synchronised kernel clock, or GPS time two
    /// consistent epochs agreed on); false for an unsynchronised system clock.
    public var trusted: Bool

    public init(anchor: Instant, wall: WallTime, trusted: Bool) {
        self.anchor = anchor
        self.wall = wall
        self.trusted = trusted
    }

    /// The civil time of the monotonic instant `instant` under this base.
    public func wall(at instant: Instant) -> WallTime { wall + (instant - anchor) }

    /// The monotonic instant whose civil time is `time` under this base.
    public func instant(at time: WallTime) -> Instant { anchor + (time - wall) }

    /// How far this base's civil time is ahead of `other`'s for the same instant (a clock
    /// step when the two are the same clock read at different times).
    public func offset(from other: TimeBase) -> Duration { wall(at: other.anchor) - other.wall }
}

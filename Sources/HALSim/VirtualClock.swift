import HAL

/// A `DeviceClock` whose time moves only when a test says so.
///
/// The monotonic time starts at `start` and moves with `advance(by:)` / `advance(to:)`; the wall
/// time moves with it, and can also jump on its own (`setWallTime(_:)`: NTP stepping the clock,
/// a first GPS time fix) without touching the monotonic time, as `CLOCK_REALTIME` and
/// `CLOCK_MONOTONIC` behave on Linux. Nothing here sleeps or reads a real clock, so a test that
/// "waits" an hour runs in microseconds.
///
/// The other simulated devices (the scripted serial port, the buttons, the I²C log's
/// timestamps) hold a reference to the clock and read it when they are used: advancing the
/// clock is all it takes to make scheduled bytes readable or scheduled contact bounce happen.
///
/// A class, because every simulated device shares the one clock a test moves.
public final class VirtualClock: DeviceClock {
    private var monotonic: Instant
    private var wall: WallTime

    /// The wall time at which the default clock starts: 2026-01-01T00:00:00Z.
    public static let defaultWallTime = WallTime(seconds: 1_767_225_600)

    public init(start: Instant = .zero, wallTime: WallTime = VirtualClock.defaultWallTime) {
        monotonic = start
        wall = wallTime
    }

    public func now() -> Instant { monotonic }

    public func wallTime() -> WallTime { wall }

    /// Steps the civil clock to `time` (either way) without moving the monotonic clock.
    public func setWallTime(_ time: WallTime) { wall = time }

    /// Moves both clocks forward by `duration` (which must not be negative).
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "the monotonic clock never goes back")
        monotonic += duration
        wall = wall + duration
    }

    /// Moves both clocks forward to the monotonic instant `instant`. An instant in the past
    /// is a test bug (monotonic time never goes back) and traps.
    public func advance(to instant: Instant) {
        advance(by: instant - monotonic)
    }
}

/// One timer firing, as `VirtualClock.advance(to:timers:handle:)` reports it.
public struct TimerFiring<ID: Equatable & Sendable>: Sendable {
    public var id: ID
    /// The deadline the timer was due at; equals `clock.now()` unless a handler moved time.
    public var deadline: Instant
    /// Periods of a periodic timer skipped because time moved past them (see `TimerQueue`).
    public var missed: Int
}

extension VirtualClock {
    /// Moves time forward by `duration`, stopping at every due timer in deadline order (ties
    /// first-scheduled first): the clock reads the deadline while `fire(id, deadline)` runs.
    /// Ends at `now + duration`. Returns the number of timers fired.
    @discardableResult
    public func advance<ID, E: Error>(
        by duration: Duration, timers: inout TimerQueue<ID>, fire: (ID, Instant) throws(E) -> Void
    ) throws(E) -> Int {
        try advance(to: now() + duration, timers: &timers) { (firing, _) throws(E) in
            try fire(firing.id, firing.deadline)
        }
    }

    /// `advance(by:timers:fire:)` up to an instant.
    @discardableResult
    public func advance<ID, E: Error>(
        to end: Instant, timers: inout TimerQueue<ID>, fire: (ID, Instant) throws(E) -> Void
    ) throws(E) -> Int {
        try advance(to: end, timers: &timers) { (firing, _) throws(E) in
            try fire(firing.id, firing.deadline)
        }
    }

    /// The general form: the handler also gets the queue, to schedule or cancel timers (a
    /// retry with back-off, a one-shot that re-arms itself), and the `missed` count. A handler
    /// may itself advance the clock (work that takes time); timers that became due meanwhile
    /// then fire late, at the clock's time, with `missed` periods as `TimerQueue` counts them.
    ///
    /// Timers scheduled by a handler at or before `end` fire in this same call. A periodic
    /// timer fires once per period, so the number of firings is bounded by the time span.
    @discardableResult
    public func advance<ID, E: Error>(
        to end: Instant,
        timers: inout TimerQueue<ID>,
        handle: (TimerFiring<ID>, inout TimerQueue<ID>) throws(E) -> Void
    ) throws(E) -> Int {
        precondition(end >= monotonic, "the monotonic clock never goes back")
        var fired = 0
        while let next = timers.nextDeadline, next <= end {
            if next > monotonic { advance(to: next) }
            guard let due = timers.popDue(now: monotonic) else { break }
            fired += 1
            try handle(TimerFiring(id: due.id, deadline: due.deadline, missed: due.missed), &timers)
        }
        if end > monotonic { advance(to: end) }
        return fired
    }
}

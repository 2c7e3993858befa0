/// The device's timers: one-shot and periodic deadlines on the monotonic clock, fired in order.
///
/// Pure data: it never reads a clock and never sleeps. The Linux loop arms one timerfd at
/// `nextDeadline`; the virtual clock fires due timers as a test advances time. Storage is
/// reserved once, so scheduling up to `capacity` timers never allocates.
public struct TimerQueue<ID: Equatable>: Sendable where ID: Sendable {
    public struct Timer: Sendable {
        public var id: ID
        public var deadline: Instant
        /// For a periodic timer, the period; `nil` for a one-shot.
        public var period: Duration?
        /// Breaks ties between equal deadlines: first scheduled, first fired.
        var order: UInt64
    }

    /// Pending timers, sorted by (deadline, order); the next one to fire is first.
    public private(set) var pending: [Timer]
    private var nextOrder: UInt64 = 0
    public let capacity: Int

    public init(capacity: Int = 16) {
        self.capacity = capacity
        pending = []
        pending.reserveCapacity(capacity)
    }

    /// The earliest deadline, or `nil` when no timer is pending (sleep until input).
    public var nextDeadline: Instant? { pending.first?.deadline }

    public var isEmpty: Bool { pending.isEmpty }

    /// Schedules `id` at `deadline`, replacing a pending timer with the same id.
    /// Returns `false`, changing nothing, when `capacity` timers are already pending.
    @discardableResult
    public mutating func schedule(_ id: ID, at deadline: Instant, every period: Duration? = nil) -> Bool {
        cancel(id)
        guard pending.count < capacity else { return false }
        precondition(period.map { $0 > .zero } ?? true, "a periodic timer needs a positive period")
        insert(Timer(id: id, deadline: deadline, period: period, order: nextOrder))
        nextOrder &+= 1
        return true
    }

    /// Removes the pending timer `id`, if any.
    public mutating func cancel(_ id: ID) {
        if let index = pending.firstIndex(where: { $0.id == id }) { pending.remove(at: index) }
    }

    /// Takes the next timer due at `now`, if any, and reschedules it when periodic.
    ///
    /// A periodic timer that is late by several periods fires once, with `missed` counting the
    /// periods skipped, and its next deadline stays on its original grid (a minute tick stays
    /// on the minute).
    public mutating func popDue(now: Instant) -> (id: ID, deadline: Instant, missed: Int)? {
        guard let first = pending.first, first.deadline <= now else { return nil }
        pending.removeFirst()
        var missed = 0
        if let period = first.period {
            let late = (now - first.deadline).nanoseconds / period.nanoseconds
            missed = Int(late)
            var next = first
            next.deadline = first.deadline + .nanoseconds(period.nanoseconds &* (late + 1))
            next.order = nextOrder
            nextOrder &+= 1
            insert(next)
        }
        return (first.id, first.deadline, missed)
    }

    private mutating func insert(_ timer: Timer) {
        let index = pending.firstIndex {
            ($0.deadline, $0.order) > (timer.deadline, timer.order)
        } ?? pending.endIndex
        pending.insert(timer, at: index)
    }
}

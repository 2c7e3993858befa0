import HAL

/// Push buttons on input lines, as the kernel's GPIO character device reports them: every
/// change of the physical level is an edge stamped with the monotonic time it happened, queued
/// in a small kernel buffer until the program reads it.
///
/// A test schedules what the contact does (`press(_:at:holdFor:bounce:)`, `setContact`), and
/// the lines follow as the `VirtualClock` passes the scheduled times: nothing happens between
/// reads, and a read sees exactly the edges that happened by `clock.now()`, oldest first.
///
/// Real contacts bounce: a closing contact opens and closes again a few times before it rests
/// (Ganssle, "A Guide to Debouncing", 2004: most switches settle within 5 ms, the worst he
/// measured after 6.2 ms). `BounceProfile` draws those extra transitions from a seeded
/// generator, so a test gets the same bounce every run.
///
/// The event buffer is the kernel's kfifo (drivers/gpio/gpiolib-cdev.c). uAPI v1 gives every
/// line its own 16-event fifo and drops the *newest* event when it is full; uAPI v2, which the
/// Linux binding uses (asking for the default size), shares one fifo of 16 × lines per request
/// and drops the *oldest* (`kfifo_skip` in `linereq_put_event`). Either way the level still
/// changes, so a debouncer that trusts the edges alone ends up wrong: that is why
/// `DigitalInputs` also offers `levels()`. uAPI v2 also numbers every edge when it detects it,
/// per line and per request (`EdgeSequence`), and so does `.shared` here: a dropped edge leaves
/// a gap in the numbers read, as on the kernel.
public final class SimulatedButtons: DigitalInputs {
    /// How a button is wired to its line.
    public enum Wiring: Sendable, Equatable {
        /// Button to ground, pull-up: the line idles high and a press pulls it low (falling).
        case activeLow
        /// Button to the supply, pull-down: the line idles low and a press drives it high.
        case activeHigh
    }

    /// The kernel's event buffer (see the type's documentation).
    public enum EventBuffer: Sendable, Equatable {
        /// uAPI v1: one fifo per line; when full, the new event is dropped.
        case perLine(capacity: Int)
        /// uAPI v2: one fifo for the request; when full, the oldest event is dropped. Edges
        /// carry the kernel's sequence numbers.
        case shared(capacity: Int)

        /// uAPI v1's buffer, 16 events per line (what the daemon read through libgpiod 1.6 on
        /// Debian 12; the Linux binding now uses uAPI v2, which `.shared` models).
        public static let uAPIv1 = EventBuffer.perLine(capacity: 16)

        /// uAPI v2's buffer for a request of `lines` lines asking for the default size, as the
        /// Linux binding does: 16 events per line (gpio-v2-line-event-read.rst; linereq_create
        /// in gpiolib-cdev.c), rounded up to a power of two by `kfifo_alloc` (lib/kfifo.c,
        /// __kfifo_alloc): 16, 32, 64, 64 for one to four lines.
        public static func uAPIv2(lines: Int) -> EventBuffer {
            precondition(lines > 0, "a request has at least one line")
            var capacity = 1
            while capacity < 16 * lines { capacity <<= 1 }
            return .shared(capacity: capacity)
        }
    }

    private struct Transition {
        var time: Instant
        var order: Int
        var line: Int
        var high: Bool
    }

    private let clock: VirtualClock
    public let wiring: [Wiring]
    public let eventBuffer: EventBuffer
    private var high: [Bool]
    private var schedule: [Transition] = []
    private var nextOrder = 0
    private var fifos: [[Edge]]
    private var dropped: [Int]
    private var random: SplitMix64
    /// The kernel's numbers of the last edge detected, per line and for the request (`.shared`).
    private var lineNumbers: [UInt32]
    private var requestNumber: UInt32 = 0
    /// Per line: whether the kernel reports its edges (`setListening`).
    public private(set) var listening: [Bool]
    /// Per line: a contact that toggles on its own (`chatter`), generated as time passes.
    private var chatters: [Chatter?]
    /// What `describeLine` calls each line (the board file's button names); the index when empty.
    public var names: [String] = []

    private struct Chatter {
        var next: Instant
        var end: Instant
        var meanGap: Int64
    }

    /// `lines` wiring per line (at most 32, the width of `levels()`); `seed` drives the bounce.
    public init(clock: VirtualClock, lines: [Wiring], eventBuffer: EventBuffer = .uAPIv1, seed: UInt64 = 1) {
        precondition((1...32).contains(lines.count), "1 to 32 lines")
        self.clock = clock
        wiring = lines
        self.eventBuffer = eventBuffer
        high = lines.map { $0 == .activeLow }
        let capacity: Int
        switch eventBuffer {
        case .perLine(let c):
            capacity = c
            fifos = Array(repeating: [], count: lines.count)
        case .shared(let c):
            capacity = c
            fifos = [[]]
        }
        precondition(capacity > 0, "the event buffer holds at least one event")
        for i in fifos.indices { fifos[i].reserveCapacity(capacity) }
        dropped = Array(repeating: 0, count: lines.count)
        lineNumbers = Array(repeating: 0, count: lines.count)
        listening = Array(repeating: true, count: lines.count)
        chatters = Array(repeating: nil, count: lines.count)
        random = SplitMix64(seed: seed)
    }

    /// `count` buttons with the same wiring.
    public convenience init(
        clock: VirtualClock, count: Int, wiring: Wiring = .activeLow, eventBuffer: EventBuffer = .uAPIv1,
        seed: UInt64 = 1
    ) {
        self.init(clock: clock, lines: Array(repeating: wiring, count: count), eventBuffer: eventBuffer, seed: seed)
    }

    /// Presses button `line` at `at` (default: now) and releases it `holdFor` later, each
    /// contact movement bouncing per `bounce`.
    public func press(
        _ line: Int, at: Instant? = nil, holdFor: Duration = .milliseconds(100), bounce: BounceProfile = .none
    ) {
        let start = at ?? clock.now()
        setContact(line, closed: true, at: start, bounce: bounce)
        setContact(line, closed: false, at: start + holdFor, bounce: bounce)
    }

    /// Schedules the contact of `line` to close (press) or open (release) at `at` (default:
    /// now): the first transition at `at`, then the bounce, ending at the new rest level.
    public func setContact(_ line: Int, closed: Bool, at: Instant? = nil, bounce: BounceProfile = .none) {
        precondition(wiring.indices.contains(line), "no line \(line)")
        let start = at ?? clock.now()
        let rest = closed == (wiring[line] == .activeHigh)  // the level the contact settles at
        add(Transition(time: start, order: 0, line: line, high: rest))
        var previous = start
        var level = rest
        for offset in bounce.offsets(using: &random) {
            level.toggle()
            let time = max(start + offset, previous + .nanoseconds(1))
            add(Transition(time: time, order: 0, line: line, high: level))
            previous = time
        }
    }

    /// The contact of `line` is already closed when the lines are requested (a button held, or
    /// stuck, at power-on): the level reads pressed and no edge is queued, as the kernel
    /// reports edges only from the request on. Release it with `setContact(_:closed: false)`.
    public func heldSinceRequest(_ line: Int) {
        precondition(wiring.indices.contains(line), "no line \(line)")
        update()
        high[line] = wiring[line] == .activeHigh
    }

    /// Line `line` toggles on its own from `at` (default: now) for `duration`, about
    /// `edgesPerSecond` times a second at uneven intervals (half to one and a half times the
    /// mean): a floating input, or a broken wire picking up mains hum. It ends at rest
    /// (released). The toggles are drawn as time passes, not scheduled ahead, so hours of it
    /// cost nothing until read.
    public func chatter(_ line: Int, at: Instant? = nil, for duration: Duration, edgesPerSecond: Int) {
        precondition(wiring.indices.contains(line), "no line \(line)")
        precondition(edgesPerSecond > 0 && duration > .zero)
        update()
        let start = at ?? clock.now()
        chatters[line] = Chatter(next: start, end: start + duration, meanGap: 1_000_000_000 / Int64(edgesPerSecond))
        add(Transition(time: start + duration, order: 0, line: line, high: wiring[line] == .activeLow))
    }

    /// GPIO_V2_LINE_SET_CONFIG_IOCTL with the line's edge flags cleared (`false`) or set again
    /// (`true`), or the line released and requested again, as the daemon does: while not
    /// listened to, the line's level still follows its contact, but no edge is detected,
    /// numbered or queued (gpiolib-cdev.c, edge_detector_stop frees the interrupt), so it wakes
    /// no reader (`nextTransition`). Edges already queued stay queued.
    public func setListening(_ listening: Bool, line: Int) -> Bool {
        precondition(wiring.indices.contains(line), "no line \(line)")
        update()
        self.listening[line] = listening
        return true
    }

    public func describeLine(_ line: Int) -> (name: String, wire: String) {
        (names.indices.contains(line) ? names[line] : "\(line + 1)", "simulated line \(line)")
    }

    /// Edges dropped because the event buffer was full, per line.
    public func droppedEdges(line: Int) -> Int {
        update()
        return dropped[line]
    }

    /// Edges dropped because the event buffer was full, all lines.
    public var droppedEdgeCount: Int {
        update()
        return dropped.reduce(0, +)
    }

    /// Edges queued for the reader now.
    public var pendingEdgeCount: Int {
        update()
        return fifos.reduce(0) { $0 + $1.count }
    }

    /// Scheduled transitions not yet reached by the clock.
    public var scheduledTransitionCount: Int { schedule.count }

    /// When the next scheduled transition happens: where a simulated loop must wake, as a real
    /// one wakes when the line's event descriptor becomes readable.
    public var nextTransition: Instant? {
        var next: Instant?
        for t in schedule where listening[t.line] {
            next = t.time
            break
        }
        for line in chatters.indices where listening[line] {
            if let chatter = chatters[line] { next = Instant.earliest(next, chatter.next) }
        }
        return next
    }

    public func readEdges(into buffer: UnsafeMutableBufferPointer<Edge>) throws(GPIOError) -> Int {
        update()
        var written = 0
        while written < buffer.count {
            // The oldest head among the fifos; ties go to the lower line.
            var best: Int?
            for i in fifos.indices where !fifos[i].isEmpty {
                if let b = best, fifos[b][0].time <= fifos[i][0].time { continue }
                best = i
            }
            guard let b = best else { break }
            buffer[written] = fifos[b].removeFirst()
            written += 1
        }
        return written
    }

    public func levels() throws(GPIOError) -> UInt32 {
        update()
        var bits: UInt32 = 0
        for (i, isHigh) in high.enumerated() where isHigh { bits |= 1 << UInt32(i) }
        return bits
    }

    private func add(_ transition: Transition) {
        var t = transition
        t.order = nextOrder
        nextOrder += 1
        let index = schedule.firstIndex { ($0.time, $0.order) > (t.time, t.order) } ?? schedule.endIndex
        schedule.insert(t, at: index)
    }

    /// Applies every transition due by now, in time order, queueing an edge for each change
    /// of level.
    private func update() {
        let now = clock.now()
        var consumed = 0
        while true {
            // The earliest chattering line due by now, against the next scheduled transition.
            var toggling: Int?
            for line in chatters.indices {
                guard let c = chatters[line], c.next <= now else { continue }
                if let t = toggling, chatters[t]!.next <= c.next { continue }
                toggling = line
            }
            let scheduled = consumed < schedule.count && schedule[consumed].time <= now ? schedule[consumed] : nil
            if let line = toggling, let c = chatters[line], scheduled == nil || c.next < scheduled!.time {
                move(line, high: !high[line], at: c.next)
                let gap = c.meanGap / 2 + Int64(random.next(below: UInt64(c.meanGap))) + 1
                let next = c.next + .nanoseconds(gap)
                chatters[line] = next < c.end ? Chatter(next: next, end: c.end, meanGap: c.meanGap) : nil
            } else if let t = scheduled {
                consumed += 1
                move(t.line, high: t.high, at: t.time)
            } else {
                break
            }
        }
        schedule.removeFirst(consumed)
    }

    /// The line's level becomes `high` at `time`: an edge, if it changed and is listened to.
    private func move(_ line: Int, high isHigh: Bool, at time: Instant) {
        guard high[line] != isHigh else { return }
        high[line] = isHigh
        guard listening[line] else { return }
        queue(Edge(line: line, direction: isHigh ? .rising : .falling, time: time, sequence: number(line)))
    }

    /// uAPI v2 numbers an edge as it detects it, before it is queued or dropped: the line's
    /// count, and the request's, which a one-line request shares with its line
    /// (gpiolib-cdev.c, edge_irq_handler and edge_irq_thread). uAPI v1 has no numbers.
    private func number(_ line: Int) -> EdgeSequence? {
        guard case .shared = eventBuffer else { return nil }
        lineNumbers[line] &+= 1
        if wiring.count == 1 { return EdgeSequence(request: lineNumbers[line], line: lineNumbers[line]) }
        requestNumber &+= 1
        return EdgeSequence(request: requestNumber, line: lineNumbers[line])
    }

    private func queue(_ edge: Edge) {
        switch eventBuffer {
        case .perLine(let capacity):
            if fifos[edge.line].count >= capacity {
                dropped[edge.line] += 1
            } else {
                fifos[edge.line].append(edge)
            }
        case .shared(let capacity):
            if fifos[0].count >= capacity {
                let oldest = fifos[0].removeFirst()
                dropped[oldest.line] += 1
            }
            fifos[0].append(edge)
        }
    }
}

/// How much a contact bounces each time it closes or opens.
public struct BounceProfile: Sendable, Equatable {
    /// How many times the contact bounces back (each bounce is two extra transitions: away
    /// from the rest level and back); drawn uniformly from this range per movement.
    public var bounces: ClosedRange<Int>
    /// The extra transitions fall inside this window after the first one.
    public var window: Duration

    public init(bounces: ClosedRange<Int>, window: Duration) {
        precondition(bounces.lowerBound >= 0 && window > .zero || bounces == 0...0)
        self.bounces = bounces
        self.window = window
    }

    /// A perfect contact: one transition per movement.
    public static let none = BounceProfile(bounces: 0...0, window: .nanoseconds(1))
    /// A typical tact switch: 1 to 4 bounces within 5 ms.
    public static let typical = BounceProfile(bounces: 1...4, window: .milliseconds(5))

    /// Sorted offsets (in `1 ns ... window`) of the extra transitions of one movement.
    func offsets(using random: inout SplitMix64) -> [Duration] {
        let count = 2 * random.next(in: bounces)
        guard count > 0 else { return [] }
        let span = UInt64(max(window.nanoseconds, 1))
        var result: [Int64] = []
        result.reserveCapacity(count)
        for _ in 0..<count { result.append(Int64(random.next(below: span)) + 1) }
        return result.sorted().map { .nanoseconds($0) }
    }
}

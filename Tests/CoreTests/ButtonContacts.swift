import Core
import HAL

// Test support for the gesture tests: bouncing contacts and a poll loop in virtual time.
// CoreTests does not depend on HALSim, so this is a small twin of `SimulatedButtons`: the same
// bounce model (1–4 bounces within 5 ms for a typical tact switch, Ganssle 2004) and the same
// uAPI v1 event buffer (one fifo per line, the newest event dropped when full).

/// Milliseconds on the monotonic clock, for readable test times.
func ms(_ value: Int64) -> Instant { Instant(nanoseconds: value * 1_000_000) }

/// The bounce and the press scripts come from HAL's seeded SplitMix64, so a seed gives the same
/// bounce on every run.
typealias SeededRandom = SplitMix64

extension SplitMix64 {
    /// Uniform in `range`.
    mutating func next(in range: ClosedRange<Int64>) -> Int64 {
        Int64(next(in: Int(range.lowerBound)...Int(range.upperBound)))
    }
}

/// How a contact bounces each time it moves.
struct Bounce {
    var bounces: ClosedRange<Int64>
    var window: Duration

    static let none = Bounce(bounces: 0...0, window: .zero)
    /// `BounceProfile.typical` of HALSim: 1 to 4 bounces within 5 ms.
    static let typical = Bounce(bounces: 1...4, window: .milliseconds(5))
    /// A worn switch: up to 12 bounces within 15 ms, still inside a 20 ms debounce.
    static let heavy = Bounce(bounces: 4...12, window: .milliseconds(15))
}

/// The physical edges of scripted button presses, in time order.
struct ContactScript {
    let activeLow: [Bool]
    var random: SeededRandom
    private var transitions: [(time: Instant, order: Int, line: Int, high: Bool)] = []

    init(activeLow: [Bool], seed: UInt64 = 1) {
        self.activeLow = activeLow
        random = SeededRandom(seed: seed)
    }

    /// The contact of `line` closes (or opens) at `time`, then bounces per `bounce`.
    mutating func move(_ line: Int, closed: Bool, at time: Instant, bounce: Bounce = .none) {
        let rest = closed != activeLow[line]
        add(time, line, rest)
        let count = 2 * random.next(in: bounce.bounces)
        guard count > 0 else { return }
        var offsets = (0..<count).map { _ in random.next(in: 1...bounce.window.nanoseconds) }
        offsets.sort()
        var level = rest
        var previous = time
        for offset in offsets {
            level.toggle()
            previous = max(time + .nanoseconds(offset), previous + .nanoseconds(1))
            add(previous, line, level)
        }
    }

    mutating func press(_ line: Int, at time: Instant, holdFor hold: Duration, bounce: Bounce = .none) {
        move(line, closed: true, at: time, bounce: bounce)
        move(line, closed: false, at: time + hold, bounce: bounce)
    }

    private mutating func add(_ time: Instant, _ line: Int, _ high: Bool) {
        transitions.append((time, transitions.count, line, high))
    }

    /// One edge per change of level, oldest first, as the kernel sees the lines.
    var edges: [Edge] {
        var high = activeLow
        var result: [Edge] = []
        for t in transitions.sorted(by: { ($0.time, $0.order) < ($1.time, $1.order) }) where high[t.line] != t.high {
            high[t.line] = t.high
            result.append(Edge(line: t.line, direction: t.high ? .rising : .falling, time: t.time))
        }
        return result
    }
}

/// The device's poll loop in virtual time, reading through a uAPI v1 event buffer.
///
/// It wakes at the next edge or the gestures' deadline, or, when `period` is set, only every
/// `period` (a loop busy elsewhere). On each wake it drains the buffer, consumes the edges,
/// resynchronises if an edge was dropped since the last wake (unless told not to, to show what
/// goes wrong without it), and advances to now.
struct GestureLoop {
    var gestures: ButtonGestures
    var period: Duration?
    /// Events each line's fifo holds; nil for a buffer that never fills.
    var capacity: Int?
    var resynchronises = true
    private(set) var output: [ButtonGesture] = []
    private(set) var dropped = 0

    init(_ gestures: ButtonGestures, period: Duration? = nil, capacity: Int? = nil, resynchronises: Bool = true) {
        self.gestures = gestures
        self.period = period
        self.capacity = capacity
        self.resynchronises = resynchronises
    }

    /// Runs over `edges` (in time order) until `end`, with every line idle at the start.
    mutating func run(_ edges: [Edge], activeLow: [Bool], until end: Instant) {
        var fifos = Array(repeating: [Edge](), count: activeLow.count)
        var high = activeLow
        var next = 0
        var now = Instant.zero
        while now < end {
            var wake = end
            if let period { wake = min(wake, now + period) } else {
                if next < edges.count { wake = min(wake, edges[next].time) }
                if let deadline = gestures.nextDeadline { wake = min(wake, max(deadline, now)) }
            }
            now = max(wake, now + .nanoseconds(1))
            var overflowed = false
            while next < edges.count, edges[next].time <= now {
                let edge = edges[next]
                next += 1
                high[edge.line] = edge.direction == .rising
                if let capacity, fifos[edge.line].count >= capacity {
                    dropped += 1
                    overflowed = true
                } else {
                    fifos[edge.line].append(edge)
                }
            }
            let batch = fifos.joined().sorted { $0.time < $1.time }
            for i in fifos.indices { fifos[i].removeAll() }
            for edge in batch { gestures.consume(edge) { output.append($0) } }
            if overflowed, resynchronises {
                var levels: UInt32 = 0
                for (i, isHigh) in high.enumerated() where isHigh { levels |= 1 << UInt32(i) }
                gestures.resynchronise(levels: levels, at: now) { output.append($0) }
            }
            gestures.advance(to: now) { output.append($0) }
        }
    }
}

extension ButtonGestures {
    /// `count` lines with the same wiring and timing.
    init(count: Int, activeLow: Bool = true, timing: ButtonTiming = .standard) {
        self.init(activeLow: Array(repeating: activeLow, count: count), timing: Array(repeating: timing, count: count))
    }

    /// Consumes `edges`, then advances to `now`; returns what was recognised.
    mutating func feed(_ edges: [Edge], until now: Instant) -> [ButtonGesture] {
        var out: [ButtonGesture] = []
        for edge in edges { consume(edge) { out.append($0) } }
        advance(to: now) { out.append($0) }
        return out
    }
}

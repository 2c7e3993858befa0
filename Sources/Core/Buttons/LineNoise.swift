import HAL

/// Finds a button line that toggles faster than any finger can (a floating input with no
/// pull, a broken wire acting as an antenna) and runs its quiet periods (docs/design/parts.md#buttons).
///
/// The measure is *movements*, not raw edges: a bouncing contact gives a handful of toggles
/// within ~5 ms (Ganssle, "A Guide to Debouncing": most switches settle within 5 ms, the worst
/// measured 6.2 ms), so every edge within `movementSpan` of the edge that began a movement
/// belongs to it. A fast finger makes ~10 presses a second, 20 movements; a line is noisy when
/// it makes `threshold` (50, two and a half times that) movements within `window` (1 s). A
/// badly bouncing press (the 80–100 edges of a worn contact) is still four movements, and a
/// floating line (over a thousand edges a second) trips it in a quarter of a second.
///
/// A noisy line's edges make no gestures. The runtime stops the kernel from reporting it
/// (`DigitalInputs.setListening`) so its interrupts no longer wake the loop; after `backoff`
/// it listens again for a `window` on trial, still ignoring the gestures: quiet for the
/// whole window, the line is back; noisy again, it is ignored for twice as long (at most
/// `longestBackoff`). Storage is allocated in `init`; watching an edge allocates nothing.
public struct LineNoise: Sendable {
    /// Movements within `window` that no finger makes (see the type's documentation).
    public static let threshold = 50
    public static let window = Duration.seconds(1)
    /// Edges closer than this to the start of a movement are its bounce.
    public static let movementSpan = Duration.milliseconds(5)
    /// The first quiet period, then doubled while the line stays noisy, up to `longestBackoff`.
    public static let firstBackoff = Duration.seconds(60)
    public static let longestBackoff = Duration.seconds(960)

    public enum Phase: Sendable, Equatable {
        /// Edges are gestures.
        case heard
        /// Ignored, not listened to, until the instant.
        case quiet(until: Instant)
        /// Listened to again since the instant, gestures still ignored until a quiet window.
        case trial(since: Instant)
    }

    /// What the runtime must do now (`due(at:)`).
    public enum Action: Sendable, Equatable {
        /// The quiet period is over: listen to the line again (its trial begins).
        case listen(line: Int)
        /// A whole window of trial without noise: the line makes gestures again.
        case recovered(line: Int)
    }

    /// A line just found noisy: how many edges (the kernel's numbers count the ones it
    /// dropped) in how long, and for how long it is now ignored.
    public struct Finding: Sendable, Equatable {
        public var line: Int
        public var edges: Int
        public var span: Duration
        public var ignoredFor: Duration

        public init(line: Int, edges: Int, span: Duration, ignoredFor: Duration) {
            self.line = line
            self.edges = edges
            self.span = span
            self.ignoredFor = ignoredFor
        }
    }

    public private(set) var phases: [Phase]
    private var backoff: [Duration]
    /// Per line, a ring of the last `threshold` movements: when each began, and the line's
    /// edge count (cumulative) just before it.
    private var starts: [Instant]
    private var edgesBefore: [Int]
    private var head: [Int]
    private var filled: [Int]
    private var edges: [Int]
    private var lastNumber: [UInt32?]

    public init(lines: Int) {
        phases = Array(repeating: .heard, count: lines)
        backoff = Array(repeating: Self.firstBackoff, count: lines)
        starts = Array(repeating: .zero, count: lines * Self.threshold)
        edgesBefore = Array(repeating: 0, count: lines * Self.threshold)
        head = Array(repeating: 0, count: lines)
        filled = Array(repeating: 0, count: lines)
        edges = Array(repeating: 0, count: lines)
        lastNumber = Array(repeating: nil, count: lines)
    }

    /// Whether `line`'s edges make gestures now.
    public func heard(_ line: Int) -> Bool {
        if case .heard = phases[line] { return true }
        return false
    }

    /// Whether some line is quiet or on trial: the common case, none, costs one comparison.
    public var anyUnheard: Bool { unheard > 0 }
    private var unheard = 0

    /// Counts one edge of its line; returns a finding when it makes the line noisy.
    public mutating func watch(_ edge: Edge) -> Finding? {
        let line = edge.line
        if case .quiet = phases[line] { return nil }
        var count = 1
        if let number = edge.sequence?.line {
            if let last = lastNumber[line] { count += Int(EdgeSequence.skipped(from: last, to: number)) }
            lastNumber[line] = number
        }
        let base = line * Self.threshold
        let newest = (head[line] + Self.threshold - 1) % Self.threshold
        if filled[line] > 0, edge.time < starts[base + newest] + Self.movementSpan {
            edges[line] += count
            return nil
        }
        // A new movement: it replaces the oldest of the ring.
        let slot = head[line]
        starts[base + slot] = edge.time
        edgesBefore[base + slot] = edges[line]
        edges[line] += count
        head[line] = (slot + 1) % Self.threshold
        filled[line] = min(filled[line] + 1, Self.threshold)
        guard filled[line] == Self.threshold else { return nil }
        let oldest = head[line]  // the slot after the newest is the oldest
        let span = edge.time - starts[base + oldest]
        guard span < Self.window else { return nil }
        let counted = edges[line] - edgesBefore[base + oldest]
        quieten(line, at: edge.time)
        return Finding(line: line, edges: counted, span: span, ignoredFor: backoff[line])
    }

    /// What is due by `now`, one action at a time (call until nil).
    public mutating func due(at now: Instant) -> Action? {
        guard unheard > 0 else { return nil }
        for line in phases.indices {
            switch phases[line] {
            case .heard: continue
            case .quiet(let until) where until <= now:
                phases[line] = .trial(since: now)
                forget(line)
                return .listen(line: line)
            case .trial(let since) where since + Self.window <= now:
                phases[line] = .heard
                unheard -= 1
                backoff[line] = Self.firstBackoff
                forget(line)
                return .recovered(line: line)
            case .quiet, .trial: continue
            }
        }
        return nil
    }

    /// When `due` has something next; nil when every line is heard.
    public var nextDeadline: Instant? {
        guard unheard > 0 else { return nil }
        var next: Instant?
        for phase in phases {
            switch phase {
            case .heard: continue
            case .quiet(let until): next = Instant.earliest(next, until)
            case .trial(let since): next = Instant.earliest(next, since + Self.window)
            }
        }
        return next
    }

    private mutating func quieten(_ line: Int, at time: Instant) {
        let wasTrial = if case .trial = phases[line] { true } else { false }
        if wasTrial { backoff[line] = min(backoff[line] * 2, Self.longestBackoff) }
        if heard(line) { unheard += 1 }
        phases[line] = .quiet(until: time + backoff[line])
        forget(line)
    }

    /// Starts the count of `line` afresh: the movements before a quiet period say nothing of
    /// the line after it, and its numbers start again where the runtime listens again.
    private mutating func forget(_ line: Int) {
        head[line] = 0
        filled[line] = 0
        edges[line] = 0
        lastNumber[line] = nil
    }
}

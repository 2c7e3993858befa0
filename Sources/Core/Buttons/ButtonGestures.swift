import HAL

/// Raw GPIO edges in, short and long presses out (device-runtime notes §2).
///
/// Per line: a change counts once the line has rested at the new level for the line's
/// `debounce` (see `ButtonLine`); a counted press starts a hold; a counted release before
/// `longPress` has passed is a `.short` press, recognised at the moment the release counted;
/// a hold that reaches `longPress` is a `.long` press, recognised at that threshold while the
/// button is still down, and its release is silent. Short on release and long while held is
/// Zephyr's `zephyr,input-longpress` rule.
///
/// Every decision is made on the edges' own timestamps, never on when the loop got to them,
/// so a loop that was busy for seconds still sees each press exactly once, as the kind it
/// was, stamped with the time it happened. The loop's part of the contract:
///
/// 1. Drain the edges and `consume` them, oldest first.
/// 2. Then `advance(to: now)`: a press only counts, and a hold only turns long, as time
///    passes, with or without edges.
/// 3. Wake up again by `nextDeadline` at the latest (the poll timeout).
/// 4. When the kernel dropped edges (its event buffer overflowed), `resynchronise` with the
///    levels read after draining, so that a lost release cannot leave a button held.
///
/// Gestures come out in time order when edges are consumed in time order. The storage for
/// every line is allocated in `init`; consuming, advancing and resynchronising allocate
/// nothing, and the `emit` closures do not escape.
public struct ButtonGestures: Sendable {
    /// The lines `Edge.line` and the bits of `levels()` can name: the width of `UInt32`.
    public static let maximumLines = 32

    private var lines: [ButtonLine]

    /// How many resynchronisations happened: each one means the kernel dropped edges, which a
    /// status screen should show (a line that bounces badly, or a loop that reads too rarely).
    public private(set) var overflowResyncs = 0

    /// `activeLow[i]`: line `i` reads low while pressed (button to GND with pull-up);
    /// `timing[i]`: its debounce and long-press times. Both have one entry per line, 0 to 32.
    public init(activeLow: [Bool], timing: [ButtonTiming]) {
        precondition(activeLow.count == timing.count, "one timing per line")
        precondition(activeLow.count <= Self.maximumLines, "at most \(Self.maximumLines) lines")
        var lines: [ButtonLine] = []
        lines.reserveCapacity(activeLow.count)
        for (low, timing) in zip(activeLow, timing) { lines.append(ButtonLine(activeLow: low, timing: timing)) }
        self.lines = lines
    }

    /// Takes one edge into account. Edges must come in time order (as the kernel queues them);
    /// everything due on any line before the edge is settled first, at its own time.
    public mutating func consume(_ edge: Edge, emit: (ButtonGesture) -> Void) {
        precondition(lines.indices.contains(edge.line), "edge on line \(edge.line), but only \(lines.count) lines")
        advance(to: edge.time, emit: emit)
        let pressed = lines[edge.line].isPressed(high: edge.direction == .rising)
        lines[edge.line].observe(pressed: pressed, at: edge.time)
        // With no debounce the edge counts at once.
        advance(to: edge.time, emit: emit)
    }

    /// Corrects the lines after the kernel dropped edges. `levels` is the physical level of
    /// every line now (bit `i` = line `i` high), read after the edge buffer was drained.
    ///
    /// What the edges said is settled up to `now` first. A line whose level disagrees with the
    /// edges moved without them, at an unknown time; its debounce window starts at `now`, so a
    /// lost release still ends the hold (a short or nothing, if the long press already fired),
    /// and a lost press still starts one.
    public mutating func resynchronise(levels: UInt32, at now: Instant, emit: (ButtonGesture) -> Void) {
        overflowResyncs += 1
        advance(to: now, emit: emit)
        for i in lines.indices {
            let high = levels & (1 << UInt32(i)) != 0
            lines[i].resynchronise(pressed: lines[i].isPressed(high: high), at: now)
        }
        advance(to: now, emit: emit)
    }

    /// The kernel's buffer for `line` overflowed (a wake-up read as many of its edges as the
    /// buffer holds: uAPI v1 then drops the newest). The edges kept are the first of the
    /// movement; the rest, the release among them, are lost. `levels` is the lines' level now.
    ///
    /// A line that is pressed now is resynchronised (its hold starts at `now`). A line that is
    /// released now, was pressed since its last hold began and never held long enough to count,
    /// was a press whose rest the kernel dropped: it is recognised now as a short press, so a
    /// press is not lost while the loop is busy.
    public mutating func recoverOverflow(line: Int, levels: UInt32, at now: Instant, emit: (ButtonGesture) -> Void) {
        guard lines.indices.contains(line) else { return }
        overflowResyncs += 1
        advance(to: now, emit: emit)
        let pressed = lines[line].isPressed(high: levels & (1 << UInt32(line)) != 0)
        if !pressed, lines[line].pressSeen, !lines[line].stable {
            lines[line].rest(at: now)
            emit(ButtonGesture(button: line, kind: .short, time: now))
        } else {
            lines[line].resynchronise(pressed: pressed, at: now)
        }
        advance(to: now, emit: emit)
    }

    /// Settles every debounce and fires every long press due by `now`, in time order.
    public mutating func advance(to now: Instant, emit: (ButtonGesture) -> Void) {
        while let next = earliest(), next.time <= now {
            if let kind = lines[next.line].fire(next.due, at: next.time) {
                emit(ButtonGesture(button: next.line, kind: kind, time: next.time))
            }
        }
    }

    /// When `advance` must run next even if no edge arrives; nil when nothing is pending
    /// (no line bouncing, no button held short of its long press).
    public var nextDeadline: Instant? { earliest()?.time }

    /// The physical levels the edges consumed so far imply, bit `i` for line `i` (1 = high),
    /// in the form `DigitalInputs.levels()` reports. A reading that differs after the edges
    /// were drained means the kernel dropped some: call `resynchronise` then.
    public var expectedLevels: UInt32 {
        var bits: UInt32 = 0
        for i in 0..<lines.count where lines[i].level != lines[i].activeLow {
            bits |= 1 << UInt32(i)
        }
        return bits
    }

    /// The bits of `levels()` that belong to the lines.
    public var lineMask: UInt32 { lines.count >= 32 ? .max : (1 << UInt32(lines.count)) - 1 }

    /// Whether `button` is down, debounced; false for a line this instance does not have.
    public func isHeld(_ button: Int) -> Bool {
        lines.indices.contains(button) && lines[button].stable
    }

    /// The line with the earliest pending event; ties go to the lower line. A linear scan of
    /// at most 32 lines, cheaper than keeping a heap in order.
    private func earliest() -> (line: Int, time: Instant, due: ButtonLine.Due)? {
        var best: (line: Int, time: Instant, due: ButtonLine.Due)?
        for i in lines.indices {
            guard let next = lines[i].next else { continue }
            if let b = best, b.time <= next.time { continue }
            best = (i, next.time, next.due)
        }
        return best
    }
}

import HAL

/// Raw GPIO edges in, short and long presses out (docs/design/parts.md#buttons).
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
/// 4. After a wake-up that read edges, `reconcile` with the levels read after draining: it
///    counts the edges the kernel dropped (its event buffer overflowed) and corrects the lines,
///    so that a lost release cannot leave a button held.
///
/// Gestures come out in time order when edges are consumed in time order. The storage for
/// every line is allocated in `init`; consuming, advancing and resynchronising allocate
/// nothing, and the `emit` closures do not escape.
public struct ButtonGestures: Sendable {
    /// The lines `Edge.line` and the bits of `levels()` can name: the width of `UInt32`.
    public static let maximumLines = 32

    private var lines: [ButtonLine]

    /// How many times the lines were corrected from their levels (`resynchronise`, or a
    /// `reconcile` that found edges missing).
    public private(set) var overflowResyncs = 0

    /// Edges the kernel dropped, in all, as `reconcile` counted them: a status screen shows
    /// them (a line that bounces badly, or a loop that reads too rarely).
    public private(set) var droppedEdges = 0

    /// Lines that toggle faster than a finger: their edges make no gestures (`LineNoise`).
    public private(set) var noise: LineNoise

    /// `activeLow[i]`: line `i` reads low while pressed (button to GND with pull-up);
    /// `timing[i]`: its debounce and long-press times. Both have one entry per line, 0 to 32.
    public init(activeLow: [Bool], timing: [ButtonTiming]) {
        precondition(activeLow.count == timing.count, "one timing per line")
        precondition(activeLow.count <= Self.maximumLines, "at most \(Self.maximumLines) lines")
        var lines: [ButtonLine] = []
        lines.reserveCapacity(activeLow.count)
        for (low, timing) in zip(activeLow, timing) { lines.append(ButtonLine(activeLow: low, timing: timing)) }
        self.lines = lines
        noise = LineNoise(lines: activeLow.count)
    }

    /// Takes one edge into account. Edges must come in time order (as the kernel queues them);
    /// everything due on any line before the edge is settled first, at its own time.
    /// `noisy` hears of a line this edge made noisy (`LineNoise`); from then on the line is at
    /// rest and its edges are only counted, until `noiseDue` says it recovered.
    public mutating func consume(
        _ edge: Edge, noisy: (LineNoise.Finding) -> Void = { _ in }, emit: (ButtonGesture) -> Void
    ) {
        precondition(lines.indices.contains(edge.line), "edge on line \(edge.line), but only \(lines.count) lines")
        advance(to: edge.time, emit: emit)
        guard noise.heard(edge.line) else {
            // On trial (or an edge queued before the line was quietened): counted only.
            lines[edge.line].renumber()
            if let finding = noise.watch(edge) { noisy(finding) }
            return
        }
        if let finding = noise.watch(edge) {
            lines[edge.line].rest(at: edge.time)
            lines[edge.line].renumber()
            noisy(finding)
            return
        }
        let pressed = lines[edge.line].isPressed(high: edge.direction == .rising)
        if let sequence = edge.sequence, lines[edge.line].number(sequence.line, pressEdge: pressed) {
            emit(ButtonGesture(button: edge.line, kind: .short, time: edge.time))
        }
        lines[edge.line].observe(pressed: pressed, at: edge.time)
        lines[edge.line].edgesSinceCheck += 1
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
        correct(levels: levels, at: now, kernelBuffer: nil, emit: emit)
    }

    /// The check after every wake-up that read edges, with `levels` read after them: how many
    /// edges the kernel dropped since the last check (also added to `droppedEdges`), and the
    /// correction of the lines.
    ///
    /// For a line whose edges carry the kernel's numbers (uAPI v2), the gaps in the numbers are
    /// the dropped edges, exactly; they are known once an edge of the line that came after them
    /// is read. Without numbers (uAPI v1) the loss is inferred: a line's edges since the last
    /// check filled the kernel's buffer (`kernelBuffer` per line; v1 keeps the first 16 and
    /// drops the newest), or its level disagrees with its edges; each such line counts as one
    /// edge, a lower bound.
    ///
    /// A press whose edges were dropped still counts, once, as a short press, so a press is not
    /// lost while the loop is busy. With numbers that happens as the edges are consumed: a gap
    /// while the line was not held is a press, recognised when the line has rested released
    /// after it, unless a hold begins first (the gap was that press's first bounces; see
    /// `ButtonLine.number`). Without numbers it happens here: a line that filled the v1 buffer
    /// (which keeps the first edges of a movement), is released now, was pressed since its last
    /// hold began and never held long enough to count, is recognised now.
    ///
    /// Every line whose level disagrees with its edges is resynchronised: with numbers and no
    /// gap that is an edge the kernel has not queued yet (the level moves first), and taking
    /// the level a moment early changes nothing the edge would not; after a gap, or without
    /// numbers, a release whose edges were all dropped would otherwise leave the button held.
    public mutating func reconcile(
        levels: UInt32, kernelBuffer: Int, at now: Instant, emit: (ButtonGesture) -> Void
    ) -> Int {
        defer {
            for i in 0..<lines.count {
                lines[i].edgesSinceCheck = 0
                lines[i].droppedSinceCheck = 0
            }
        }
        var dropped = 0
        var lossOrDisagreement = false
        for i in 0..<lines.count where noise.heard(i) {
            let disagrees = lines[i].isPressed(high: levels & (1 << UInt32(i)) != 0) != lines[i].level
            let lost = lostEdges(line: i, kernelBuffer: kernelBuffer)
            if lines[i].lastNumber != nil {
                dropped += lines[i].droppedSinceCheck
            } else if lost || disagrees {
                dropped += 1
            }
            if lost || disagrees { lossOrDisagreement = true }
        }
        droppedEdges += dropped
        guard lossOrDisagreement else { return 0 }
        correct(levels: levels, at: now, kernelBuffer: kernelBuffer, emit: emit)
        return dropped
    }

    /// Whether `levels` differs from what the edges consumed so far said.
    public func disagrees(with levels: UInt32) -> Bool {
        for i in 0..<lines.count where noise.heard(i) && lines[i].isPressed(high: levels & (1 << UInt32(i)) != 0) != lines[i].level {
            return true
        }
        return false
    }

    /// Whether line `i` is known to have lost edges since the last check: a gap in its numbers,
    /// or, for edges without numbers, as many edges as the kernel's buffer holds.
    private func lostEdges(line i: Int, kernelBuffer: Int?) -> Bool {
        if lines[i].lastNumber != nil { return lines[i].droppedSinceCheck > 0 }
        guard let kernelBuffer else { return false }
        return lines[i].edgesSinceCheck >= kernelBuffer
    }

    private mutating func correct(levels: UInt32, at now: Instant, kernelBuffer: Int?, emit: (ButtonGesture) -> Void) {
        overflowResyncs += 1
        advance(to: now, emit: emit)
        for i in 0..<lines.count where noise.heard(i) {
            let pressed = lines[i].isPressed(high: levels & (1 << UInt32(i)) != 0)
            // With numbers, a press in the gap is recognised in time order (`ButtonLine.pressLost`).
            if kernelBuffer != nil, lines[i].lastNumber == nil, lostEdges(line: i, kernelBuffer: kernelBuffer), !pressed,
                lines[i].pressSeen, !lines[i].stable
            {
                lines[i].rest(at: now)
                emit(ButtonGesture(button: i, kind: .short, time: now))
            } else {
                lines[i].resynchronise(pressed: pressed, at: now)
            }
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
    public var nextDeadline: Instant? {
        noise.anyUnheard ? Instant.earliest(earliest()?.time, noise.nextDeadline) : earliest()?.time
    }

    /// What a noisy line needs by `now` (call until nil): `.listen`, the runtime listens to the
    /// line again; `.recovered`, the runtime passes the levels read then to `heed`.
    public mutating func noiseDue(at now: Instant) -> LineNoise.Action? { noise.anyUnheard ? noise.due(at: now) : nil }

    /// A line that was noisy makes gestures again, from its level now (bit `line` of `levels`).
    public mutating func heed(_ line: Int, levels: UInt32, at now: Instant) {
        lines[line].rest(at: now)
        lines[line].resynchronise(pressed: lines[line].isPressed(high: levels & (1 << UInt32(line)) != 0), at: now)
    }

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

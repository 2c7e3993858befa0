import Core
import HAL
import Testing

/// Edges with the kernel's sequence numbers (uAPI v2): the gaps are the edges it dropped, counted
/// exactly, and a press whose edges were dropped still counts once.
@Suite("Button gestures with the kernel's edge numbers")
struct ButtonNumberedEdgeTests {
    /// `edges` numbered as the kernel numbers them when it detects them: per line from 1, and
    /// per request from 1 (gpiolib-cdev.c, edge_irq_handler and edge_irq_thread).
    static func numbered(_ edges: [Edge], lines: Int) -> [Edge] {
        var perLine = Array(repeating: UInt32(0), count: lines)
        var request: UInt32 = 0
        return edges.map { edge in
            perLine[edge.line] += 1
            request += 1
            var numbered = edge
            numbered.sequence = EdgeSequence(request: request, line: perLine[edge.line])
            return numbered
        }
    }

    static func edge(_ line: Int, _ direction: Edge.Direction, _ at: Int64) -> Edge {
        Edge(line: line, direction: direction, time: ms(at))
    }

    /// Consumes `edges`, reconciles with `levels` at `now`, and advances to `until`.
    static func run(
        _ gestures: inout ButtonGestures, _ edges: [Edge], levels: UInt32, at now: Instant, until: Instant
    ) -> (dropped: Int, out: [ButtonGesture]) {
        var out: [ButtonGesture] = []
        for edge in edges { gestures.consume(edge) { out.append($0) } }
        let dropped = gestures.reconcile(levels: levels, kernelBuffer: 16, at: now) { out.append($0) }
        gestures.advance(to: until) { out.append($0) }
        return (dropped, out)
    }

    @Test("a gap in a line's numbers is exactly the edges dropped, also across the 32-bit wrap")
    func gapsAreTheCount() {
        var gestures = ButtonGestures(count: 2)
        let all = Self.numbered((0..<10).map { Self.edge(0, $0 % 2 == 0 ? .falling : .rising, 100 + Int64($0)) }, lines: 2)
        let kept = Array(all[0..<2] + all[6...])  // the kernel dropped numbers 3 to 6
        let (dropped, _) = Self.run(&gestures, kept, levels: 0b11, at: ms(200), until: ms(300))
        #expect(dropped == 4)
        #expect(gestures.droppedEdges == 4)
        // Numbers near the end of the 32-bit range: 0xFFFF_FFFE, then 1 after the wrap
        // (0xFFFF_FFFF and 0 dropped).
        var wrapped = ButtonGestures(count: 1, timing: ButtonTiming(debounce: .zero))
        var edges = [Self.edge(0, .falling, 100), Self.edge(0, .rising, 200), Self.edge(0, .falling, 300)]
        edges[0].sequence = EdgeSequence(request: 0xFFFF_FFFD, line: 0xFFFF_FFFD)
        edges[1].sequence = EdgeSequence(request: 0xFFFF_FFFE, line: 0xFFFF_FFFE)
        edges[2].sequence = EdgeSequence(request: 1, line: 1)
        for edge in edges { wrapped.consume(edge) { _ in } }
        _ = wrapped.reconcile(levels: 0b0, kernelBuffer: 16, at: ms(400)) { _ in }
        // A step of more than half the range is not forward (`EdgeSequence.skipped`), so the
        // first number is where the count stands; the step over the wrap skips two.
        #expect(wrapped.droppedEdges == 2)
    }

    @Test("a press whose edges were dropped, all but the tail of its release, counts once when the line rests")
    func lostPressFromTheReleaseTail() {
        var gestures = ButtonGestures(count: 1)
        // Press F R F at 100 ms, release R F R at 300 ms; the kernel kept only the last two.
        let all = Self.numbered([
            Self.edge(0, .falling, 100), Self.edge(0, .rising, 101), Self.edge(0, .falling, 102),
            Self.edge(0, .rising, 300), Self.edge(0, .falling, 301), Self.edge(0, .rising, 302),
        ], lines: 1)
        let (dropped, out) = Self.run(&gestures, Array(all[4...]), levels: 0b1, at: ms(303), until: ms(400))
        #expect(dropped == 4)
        #expect(out == [ButtonGesture(button: 0, kind: .short, time: ms(322))], "recognised when the line had rested 20 ms")
        #expect(!gestures.isHeld(0) && gestures.nextDeadline == nil)
    }

    @Test("the dropped edges were the first bounces of the press now starting: one press, not two")
    func droppedBouncesOfThisPress() {
        var gestures = ButtonGestures(count: 1)
        let all = Self.numbered([
            Self.edge(0, .falling, 100), Self.edge(0, .rising, 101), Self.edge(0, .falling, 102),
            Self.edge(0, .rising, 103), Self.edge(0, .falling, 104), Self.edge(0, .rising, 300),
        ], lines: 1)
        let (dropped, out) = Self.run(&gestures, Array(all[3...]), levels: 0b1, at: ms(301), until: ms(500))
        #expect(dropped == 3)
        #expect(out == [ButtonGesture(button: 0, kind: .short, time: ms(320))])
    }

    @Test("kernel-debounced edges alternate: a press edge after a gap at rest means a whole press was dropped")
    func kernelDebouncedGapIsAPress() {
        var gestures = ButtonGestures(count: 1, timing: ButtonTiming(debounce: .zero))
        let all = Self.numbered([
            Self.edge(0, .falling, 100), Self.edge(0, .rising, 200), Self.edge(0, .falling, 400), Self.edge(0, .rising, 500),
        ], lines: 1)
        let (dropped, out) = Self.run(&gestures, Array(all[2...]), levels: 0b1, at: ms(501), until: ms(600))
        #expect(dropped == 2)
        #expect(out == [ButtonGesture(button: 0, kind: .short, time: ms(400)), ButtonGesture(button: 0, kind: .short, time: ms(500))])
    }

    @Test("a level ahead of its edge (not queued yet) is no loss: nothing counted, and the edge changes nothing when it comes")
    func levelAheadOfItsEdge() {
        var gestures = ButtonGestures(count: 1)
        let edges = Self.numbered([Self.edge(0, .falling, 100), Self.edge(0, .rising, 300)], lines: 1)
        var out: [ButtonGesture] = []
        gestures.consume(edges[0]) { out.append($0) }
        // The level read says released while the release's edge is still on its way.
        #expect(gestures.reconcile(levels: 0b1, kernelBuffer: 16, at: ms(301)) { out.append($0) } == 0)
        gestures.consume(edges[1]) { out.append($0) }
        #expect(gestures.reconcile(levels: 0b1, kernelBuffer: 16, at: ms(302)) { out.append($0) } == 0)
        gestures.advance(to: ms(400)) { out.append($0) }
        #expect(gestures.droppedEdges == 0)
        #expect(out == [ButtonGesture(button: 0, kind: .short, time: ms(321))])
    }

    @Test("a release dropped with the line's last edges: the level ends the hold, the gap is counted at the line's next edge, and no press is made up")
    func lostLastEdge() {
        var gestures = ButtonGestures(count: 2)
        let edges = Self.numbered([
            Self.edge(0, .falling, 100), Self.edge(0, .rising, 300),  // the release is dropped
            Self.edge(0, .falling, 5_000), Self.edge(0, .rising, 5_200),
        ], lines: 2)
        var out: [ButtonGesture] = []
        gestures.consume(edges[0]) { out.append($0) }
        #expect(gestures.reconcile(levels: 0b11, kernelBuffer: 16, at: ms(400)) { out.append($0) } == 0, "not visible yet")
        gestures.advance(to: ms(1000)) { out.append($0) }
        #expect(!gestures.isHeld(0))
        let (dropped, later) = Self.run(&gestures, Array(edges[2...]), levels: 0b11, at: ms(5_201), until: ms(6_000))
        #expect(dropped == 1)
        #expect(gestures.droppedEdges == 1)
        #expect(out + later == [ButtonGesture(button: 0, kind: .short, time: ms(420)), ButtonGesture(button: 0, kind: .short, time: ms(5_220))])
    }

    /// Heavy bounce on two buttons into one 8-event request buffer that drops its oldest event,
    /// read every 50 ms: most edges are lost.
    @Test("heavy bounce into a small uAPI v2 buffer: the count is the kernel's, every press counts once, nothing stays held", arguments: UInt64(1)...20)
    func smallSharedBuffer(seed: UInt64) {
        var script = ContactScript(activeLow: [true, true], seed: seed)
        var time = ms(100)
        var presses = 0
        for _ in 0..<10 {
            let button = Int(script.random.next(in: 0...1))
            let hold = Duration.milliseconds(script.random.next(in: 150...500))
            script.press(button, at: time, holdFor: hold, bounce: .heavy)
            presses += 1
            time = time + hold + .milliseconds(script.random.next(in: 150...400))
        }
        var loop = NumberedLoop(ButtonGestures(count: 2), capacity: 8, period: .milliseconds(50))
        loop.run(Self.numbered(script.edges, lines: 2), activeLow: script.activeLow, until: time + .seconds(2))
        #expect(loop.dropped > 0)
        #expect(loop.gestures.droppedEdges == loop.dropped)
        #expect(loop.reported == loop.dropped)
        #expect(loop.output.count == presses)
        #expect(loop.output.allSatisfy { $0.kind == .short })
        #expect(!loop.gestures.isHeld(0) && !loop.gestures.isHeld(1) && loop.gestures.nextDeadline == nil)
    }
}

/// The device's loop over one uAPI v2 request: one fifo for all lines that drops its oldest
/// event when full, read every `period`, then `reconcile` with the levels, as `Device` does.
struct NumberedLoop {
    var gestures: ButtonGestures
    let capacity: Int
    let period: Duration
    private(set) var output: [ButtonGesture] = []
    /// Edges the fifo dropped, and the sum of what `reconcile` reported.
    private(set) var dropped = 0
    private(set) var reported = 0

    init(_ gestures: ButtonGestures, capacity: Int, period: Duration) {
        self.gestures = gestures
        self.capacity = capacity
        self.period = period
    }

    mutating func run(_ edges: [Edge], activeLow: [Bool], until end: Instant) {
        var fifo: [Edge] = []
        var high = activeLow
        var next = 0
        var now = Instant.zero
        while now < end {
            now = now + period
            while next < edges.count, edges[next].time <= now {
                let edge = edges[next]
                next += 1
                high[edge.line] = edge.direction == .rising
                if fifo.count == capacity {
                    fifo.removeFirst()
                    dropped += 1
                }
                fifo.append(edge)
            }
            let batch = fifo
            fifo.removeAll()
            for edge in batch { gestures.consume(edge) { output.append($0) } }
            if !batch.isEmpty {
                var levels: UInt32 = 0
                for (i, isHigh) in high.enumerated() where isHigh { levels |= 1 << UInt32(i) }
                reported += gestures.reconcile(levels: levels, kernelBuffer: 16, at: now) { output.append($0) }
            }
            gestures.advance(to: now) { output.append($0) }
        }
    }
}

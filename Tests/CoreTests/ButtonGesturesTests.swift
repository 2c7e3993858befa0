import Core
import HAL
import Testing

/// Edges in, gestures out: the debounce rule, short and long presses, late edges and lost
/// edges (docs/design/parts.md#buttons).
@Suite("Button gestures")
struct ButtonGesturesTests {
    static func short(_ button: Int, _ time: Instant) -> ButtonGesture { ButtonGesture(button: button, kind: .short, time: time) }
    static func long(_ button: Int, _ time: Instant) -> ButtonGesture { ButtonGesture(button: button, kind: .long, time: time) }

    @Test("a clean press is held once debounced and is one short press at the debounced release")
    func testGestures_CleanPress_IsOneShort() {
        var gestures = ButtonGestures(count: 1)
        #expect(gestures.feed([Edge(line: 0, direction: .falling, time: ms(100))], until: ms(119)) == [])
        #expect(!gestures.isHeld(0))
        #expect(gestures.nextDeadline == ms(120))
        #expect(gestures.feed([], until: ms(120)) == [])
        #expect(gestures.isHeld(0))
        #expect(gestures.feed([Edge(line: 0, direction: .rising, time: ms(250))], until: ms(269)) == [])
        #expect(gestures.isHeld(0))
        #expect(gestures.feed([], until: ms(270)) == [Self.short(0, ms(270))])
        #expect(!gestures.isHeld(0))
        #expect(gestures.nextDeadline == nil)
        #expect(gestures.overflowResyncs == 0)
    }

    @Test("typical bounce on 250 presses over 50 seeds gives exactly one gesture per press")
    func testGestures_TypicalBounce_OneGesturePerPress() {
        var presses = 0
        for seed in UInt64(1)...50 {
            var script = ContactScript(activeLow: [true, true], seed: seed)
            var expected: [Int] = []
            var time = ms(100)
            for _ in 0..<5 {
                let button = Int(script.random.next(in: 0...1))
                let hold = Duration.milliseconds(script.random.next(in: 40...700))
                script.press(button, at: time, holdFor: hold, bounce: .typical)
                expected.append(button)
                time = time + hold + .milliseconds(script.random.next(in: 60...400))
            }
            presses += expected.count
            var loop = GestureLoop(ButtonGestures(count: 2))
            loop.run(script.edges, activeLow: script.activeLow, until: time + .seconds(1))
            #expect(loop.output.map(\.button) == expected, "seed \(seed)")
            #expect(loop.output.allSatisfy { $0.kind == .short }, "seed \(seed)")
            #expect(loop.gestures.nextDeadline == nil)
        }
        #expect(presses == 250)
    }

    @Test("a long press fires at the threshold while held, and its release is silent")
    func testGestures_LongPress_FiresAtThreshold() {
        var gestures = ButtonGestures(count: 1)
        _ = gestures.feed([Edge(line: 0, direction: .falling, time: ms(100))], until: ms(120))
        #expect(gestures.nextDeadline == ms(920))
        #expect(gestures.feed([], until: ms(919)) == [])
        #expect(gestures.feed([], until: ms(5000)) == [Self.long(0, ms(920))])
        #expect(gestures.isHeld(0))
        #expect(gestures.nextDeadline == nil)
        #expect(gestures.feed([Edge(line: 0, direction: .rising, time: ms(6000))], until: ms(9000)) == [])
        #expect(!gestures.isHeld(0))
        #expect(gestures.nextDeadline == nil)
    }

    @Test("799 ms is short, 800 and 801 ms are long", arguments: [(799, false), (800, true), (801, true)])
    func testGestures_ShortLongBoundary(heldMilliseconds: Int64, isLong: Bool) {
        var gestures = ButtonGestures(count: 1)
        let edges = [
            Edge(line: 0, direction: .falling, time: ms(1000)),
            Edge(line: 0, direction: .rising, time: ms(1000 + heldMilliseconds)),
        ]
        let expected = isLong ? Self.long(0, ms(1820)) : Self.short(0, ms(1000 + heldMilliseconds + 20))
        var out: [ButtonGesture] = []
        for edge in edges {
            gestures.advance(to: edge.time) { out.append($0) }
            gestures.consume(edge) { out.append($0) }
        }
        gestures.advance(to: ms(3000)) { out.append($0) }
        #expect(out == [expected])
    }

    @Test("two buttons pressed across each other keep their own gestures, in time order")
    func testGestures_TwoButtonsInterleaved() {
        var script = ContactScript(activeLow: [true, true], seed: 7)
        script.press(0, at: ms(100), holdFor: .milliseconds(200), bounce: .typical)
        script.move(1, closed: true, at: ms(150))
        script.move(1, closed: false, at: ms(1200))
        script.press(0, at: ms(1250), holdFor: .milliseconds(150))
        var loop = GestureLoop(ButtonGestures(count: 2))
        loop.run(script.edges, activeLow: script.activeLow, until: ms(3000))
        #expect(loop.output.map(\.button) == [0, 1, 0])
        #expect(loop.output.map(\.kind) == [.short, .long, .short])
        #expect(loop.output[1].time == ms(970))
        #expect(loop.output[2].time == ms(1420))
        #expect(loop.output.map(\.time) == loop.output.map(\.time).sorted())
    }

    @Test("edges read 2 s late give the gestures they would have given on time, at their own times")
    func testGestures_LateEdges_SameGestures() {
        var script = ContactScript(activeLow: [true, true], seed: 3)
        script.press(0, at: ms(100), holdFor: .milliseconds(100), bounce: .typical)
        script.press(1, at: ms(300), holdFor: .milliseconds(1200), bounce: .typical)
        let edges = script.edges

        var onTime = GestureLoop(ButtonGestures(count: 2))
        onTime.run(edges, activeLow: script.activeLow, until: ms(4000))
        var busy = ButtonGestures(count: 2)
        let late = busy.feed(edges, until: ms(2000))

        #expect(late.map(\.kind) == [.short, .long])
        #expect(late == onTime.output)
        let lastOf0 = edges.last { $0.line == 0 }!.time
        #expect(late[0].time == lastOf0 + .milliseconds(20))
        let pressOf1 = edges.last { $0.line == 1 && $0.time < ms(1500) }!.time
        #expect(late[1].time == pressOf1 + .milliseconds(820))
        #expect(busy.feed([], until: ms(4000)) == [])
        #expect(busy.nextDeadline == nil)
    }

    @Test("active-high lines: a rising edge is the press, and both wirings mix in one instance")
    func testGestures_ActiveHigh() {
        var gestures = ButtonGestures(activeLow: [false, true], timing: [.standard, .standard])
        let edges = [
            Edge(line: 0, direction: .rising, time: ms(100)),
            Edge(line: 1, direction: .falling, time: ms(110)),
            Edge(line: 0, direction: .falling, time: ms(300)),
        ]
        #expect(gestures.feed(edges, until: ms(320)) == [Self.short(0, ms(320))])
        #expect(gestures.isHeld(1) && !gestures.isHeld(0))
    }

    @Test("bounce inside the window is ignored, a change that outlasts it is real")
    func testGestures_Window_DecidesWhatCounts() {
        var gestures = ButtonGestures(count: 1)
        let blip = [
            Edge(line: 0, direction: .falling, time: ms(100)),
            Edge(line: 0, direction: .rising, time: ms(300)),
            Edge(line: 0, direction: .falling, time: ms(319)),
            Edge(line: 0, direction: .rising, time: ms(500)),
        ]
        #expect(gestures.feed(blip, until: ms(1000)) == [Self.short(0, ms(520))])
        let reclosed = [
            Edge(line: 0, direction: .falling, time: ms(1100)),
            Edge(line: 0, direction: .rising, time: ms(1300)),
            Edge(line: 0, direction: .falling, time: ms(1320)),
            Edge(line: 0, direction: .rising, time: ms(1500)),
        ]
        #expect(gestures.feed(reclosed, until: ms(2000)) == [Self.short(0, ms(1320)), Self.short(0, ms(1520))])
    }

    @Test("debounce 0 takes edges as they come (the kernel debounced them)")
    func testGestures_ZeroDebounce_ImmediateEdges() {
        var gestures = ButtonGestures(count: 1, timing: ButtonTiming(debounce: .zero))
        var out: [ButtonGesture] = []
        gestures.consume(Edge(line: 0, direction: .falling, time: ms(100))) { out.append($0) }
        #expect(gestures.isHeld(0))
        #expect(gestures.nextDeadline == ms(900))
        gestures.consume(Edge(line: 0, direction: .rising, time: ms(150))) { out.append($0) }
        #expect(out == [Self.short(0, ms(150))])
        #expect(gestures.nextDeadline == nil)
    }

    @Test("each line keeps its own timing")
    func testGestures_PerLineTiming() {
        let quick = ButtonTiming(debounce: .milliseconds(5), longPress: .milliseconds(300))
        var gestures = ButtonGestures(activeLow: [true, true], timing: [quick, .standard])
        let edges = [
            Edge(line: 0, direction: .falling, time: ms(100)),
            Edge(line: 1, direction: .falling, time: ms(100)),
            Edge(line: 0, direction: .rising, time: ms(600)),
            Edge(line: 1, direction: .rising, time: ms(600)),
        ]
        #expect(gestures.feed(edges, until: ms(1000)) == [Self.long(0, ms(405)), Self.short(1, ms(620))])
    }

    @Test("nothing is pending when idle")
    func testGestures_Idle_NoDeadline() {
        var gestures = ButtonGestures(count: 4)
        #expect(gestures.nextDeadline == nil)
        #expect(gestures.feed([], until: ms(10_000)) == [])
        #expect(gestures.nextDeadline == nil)
        #expect(!(0..<4).contains { gestures.isHeld($0) } && !gestures.isHeld(4) && !gestures.isHeld(-1))
        var empty = ButtonGestures(activeLow: [], timing: [])
        #expect(empty.nextDeadline == nil && empty.feed([], until: ms(1)) == [])
    }
}

import Core
import HAL
import Testing

/// When the kernel's event buffer overflows, edges are lost and only the levels tell the truth
/// (SimulatedButtons' documentation: uAPI v1 drops the newest event of a full 16-event fifo).
@Suite("Button gestures after lost edges")
struct ButtonResyncTests {
    /// Bit `i` set for every line that reads high: released, for active-low buttons.
    static let allHigh: UInt32 = 0b11

    @Test("a lost release ends the hold at the resynchronisation, as a short press")
    func testResync_LostRelease_EndsHold() {
        var gestures = ButtonGestures(count: 2)
        #expect(gestures.feed([Edge(line: 0, direction: .falling, time: ms(100))], until: ms(120)) == [])
        var out: [ButtonGesture] = []
        gestures.resynchronise(levels: Self.allHigh, at: ms(500)) { out.append($0) }
        #expect(out == [])
        #expect(gestures.nextDeadline == ms(520))
        gestures.advance(to: ms(520)) { out.append($0) }
        #expect(out == [ButtonGesture(button: 0, kind: .short, time: ms(520))])
        #expect(!gestures.isHeld(0))
        #expect(gestures.overflowResyncs == 1)
    }

    @Test("a lost press starts a hold, which turns long; levels that agree change nothing")
    func testResync_LostPress_StartsHold() {
        var gestures = ButtonGestures(count: 2)
        var out: [ButtonGesture] = []
        gestures.resynchronise(levels: Self.allHigh, at: ms(100)) { out.append($0) }
        #expect(gestures.nextDeadline == nil)
        gestures.resynchronise(levels: 0b01, at: ms(1000)) { out.append($0) }
        gestures.advance(to: ms(1020)) { out.append($0) }
        #expect(gestures.isHeld(1) && !gestures.isHeld(0))
        gestures.advance(to: ms(5000)) { out.append($0) }
        #expect(out == [ButtonGesture(button: 1, kind: .long, time: ms(1820))])
        #expect(gestures.overflowResyncs == 2)
    }

    @Test("a long press that already fired stays the only gesture when its release was lost")
    func testResync_AfterLong_Silent() {
        var gestures = ButtonGestures(count: 1, timing: ButtonTiming(debounce: .zero))
        var out: [ButtonGesture] = []
        gestures.consume(Edge(line: 0, direction: .falling, time: ms(100))) { out.append($0) }
        gestures.resynchronise(levels: 0b1, at: ms(3000)) { out.append($0) }
        #expect(out == [ButtonGesture(button: 0, kind: .long, time: ms(900))])
        #expect(!gestures.isHeld(0) && gestures.nextDeadline == nil)
    }

    /// Heavy bounce into a 2-event fifo, read every 50 ms: most edges are lost.
    static func heavyBounceRun(seed: UInt64, resynchronises: Bool) -> (loop: GestureLoop, presses: Int) {
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
        var loop = GestureLoop(
            ButtonGestures(count: 2), period: .milliseconds(50), capacity: 2, resynchronises: resynchronises)
        loop.run(script.edges, activeLow: script.activeLow, until: time + .seconds(2))
        return (loop, presses)
    }

    @Test("heavy bounce into a tiny event buffer never leaves a button held", arguments: UInt64(1)...20)
    func testResync_TinyBuffer_NeverStuck(seed: UInt64) {
        let (loop, presses) = Self.heavyBounceRun(seed: seed, resynchronises: true)
        #expect(loop.dropped > 0)
        #expect(loop.gestures.overflowResyncs > 0)
        #expect(!loop.gestures.isHeld(0) && !loop.gestures.isHeld(1))
        #expect(loop.gestures.nextDeadline == nil)
        #expect(loop.output.count == presses)
        #expect(loop.output.allSatisfy { $0.kind == .short })
    }

    @Test("without resynchronising, the same runs do leave buttons held (the test can fail)")
    func testResync_TinyBufferWithoutResync_Sticks() {
        let stuck = (UInt64(1)...20).filter { seed in
            let gestures = Self.heavyBounceRun(seed: seed, resynchronises: false).loop.gestures
            return gestures.isHeld(0) || gestures.isHeld(1)
        }
        #expect(!stuck.isEmpty)
    }
}

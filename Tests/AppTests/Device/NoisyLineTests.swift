import App
import Core
import HAL
import HALSim
import Screens
import Testing

/// A line that toggles faster than any finger (a floating input, a broken wire)
/// is shown as a fault, makes no gestures and stops waking the loop; once quiet it works again.
@Suite("Device: a noisy button line")
struct NoisyLineTests {
    static func lines(_ board: SimulatedBoard, containing text: String) -> [String] {
        board.timeline.map(\.text).filter { $0.contains(text) }
    }

    @Test("a floating line B: noisy within a second, no gestures, few wake-ups, A still works, B back once quiet")
    func floatingLine() throws {
        let board = DeviceRig.make { $0.rotateEvery = .some(nil) }
        board.advance(by: .seconds(10))
        let start = board.clock.now()
        let units = board.device.state.store.settings.units
        // 1,240 edges a second on B for 100 s, then it rests.
        board.buttons.chatter(1, for: .seconds(100), edgesPerSecond: 1240)
        board.advance(by: .seconds(1))
        #expect(board.device.state.noisyButtons == ["B"])
        #expect(DeviceRig.line(board, "Btn") == StatusLine("Btn", "B noisy line", isProblem: true))
        let said = Self.lines(board, containing: "a floating line or a broken wire")
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.hasPrefix("button B on simulated line 1: ") == true, "\(said)")
        #expect(said.first?.hasSuffix("ignored for 60 s") == true, "\(said)")
        #expect(board.buttons.listening == [true, false, true], "B is no longer listened to")

        // While it is ignored the loop wakes for the GPS and the minute, not for B's interrupts.
        let wakeups = board.device.counters.wakeups
        board.advance(by: .seconds(40))
        let quietWakeups = board.device.counters.wakeups - wakeups
        #expect(quietWakeups < 3 * 40, "\(quietWakeups) wake-ups in 40 s of a 1,240/s line")
        // A works meanwhile.
        ButtonScenarioTests.press(board, 0)
        #expect(board.device.state.store.settings.temperature == .fahrenheit)
        #expect(board.device.counters.gestures == 1, "only A's press: \(board.device.counters.gestures)")
        #expect(board.device.state.store.settings.units == units, "B's noise made no press")

        // Still noisy when listened to again at 60 s: ignored twice as long, said once more.
        board.advance(to: start + .seconds(62))
        let again = Self.lines(board, containing: "a floating line or a broken wire")
        #expect(again.count == 2, "\(again)")
        #expect(again.last?.hasSuffix("ignored for 120 s") == true, "\(again)")
        #expect(DeviceRig.line(board, "Btn")?.text == "B noisy line")

        // The noise stops at 100 s; at the next look (about 181 s) B is quiet for a second and back.
        board.advance(to: start + .seconds(179))
        #expect(board.device.state.noisyButtons == ["B"], "still inside its 120 s")
        board.advance(to: start + .seconds(185))
        #expect(board.device.state.noisyButtons.isEmpty)
        #expect(DeviceRig.line(board, "Btn") == nil)
        #expect(Self.lines(board, containing: "it works again") == ["button B on simulated line 1: quiet for 1 s; it works again"])
        #expect(board.buttons.listening == [true, true, true])
        #expect(board.device.counters.gestures == 1, "no gesture from the noise, ever")
        ButtonScenarioTests.press(board, 1)
        #expect(board.device.state.store.settings.units != units, "B works again")
        #expect(board.device.counters.gestures == 2)
        #expect(board.device.state.droppedEdges == 0, "the quiet periods are not edges the kernel dropped")
    }

    @Test("a fast finger, 10 bouncing presses a second for 3 s, is never noisy", arguments: [1, 2, 3] as [UInt64])
    func fastFinger(seed: UInt64) {
        let board = DeviceRig.make { $0.seed = seed; $0.rotateEvery = .some(nil) }
        board.advance(by: .seconds(10))
        let start = board.clock.now()
        for i in 0..<30 {
            board.buttons.press(0, at: start + .milliseconds(100 * i), holdFor: .milliseconds(50), bounce: .typical)
        }
        board.advance(by: .seconds(4))
        #expect(board.device.state.noisyButtons.isEmpty)
        #expect(Self.lines(board, containing: "a floating line").isEmpty)
        #expect(board.device.counters.gestures == 30, "gestures: \(board.device.counters.gestures)")
        #expect(board.buttons.listening == [true, true, true])
    }
}

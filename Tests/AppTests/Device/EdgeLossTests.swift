import App
import Core
import HAL
import HALSim
import Screens
import Testing

/// Edges the kernel drops are counted from its own sequence numbers (uAPI v2, as
/// the daemon reads them; the twin numbers and drops its events as `gpiolib-cdev.c` does), and
/// "Btn N edges lost" goes once a minute passes without another loss.
@Suite("Device: edges the kernel dropped")
struct EdgeLossTests {
    /// A contact so bad that one press (82–102 edges) overflows the request's 64-event buffer
    /// (3 lines × 16, a power of two already: 64), while one movement (41–51) does not.
    static let chatter = BounceProfile(bounces: 20...25, window: .milliseconds(8))

    /// The reference board (uAPI v2's buffer by default), busy while button A is pressed six
    /// times, 1.2 s apart: only the GPS epoch wakes it, once a second.
    static func busyPresses() -> SimulatedBoard {
        let board = DeviceRig.make { $0.rotateEvery = .some(nil) }
        #expect(board.buttons.eventBuffer == .shared(capacity: 64))
        board.advance(by: .seconds(10))
        board.wakesOnEdges = false
        for _ in 0..<6 {
            board.buttons.press(0, holdFor: .milliseconds(150), bounce: chatter)
            board.advance(by: .milliseconds(1200))
        }
        board.wakesOnEdges = true
        board.advance(by: .seconds(2))
        return board
    }

    static func lines(_ board: SimulatedBoard, containing text: String) -> [String] {
        board.timeline.map(\.text).filter { $0.contains(text) }
    }

    @Test("a busy loop: every press counts once, and the status shows exactly the edges the kernel dropped")
    func exactCount() throws {
        let board = Self.busyPresses()
        let dropped = board.buttons.droppedEdgeCount
        #expect(dropped >= 6 * 18, "every press must overflow the buffer: \(dropped)")
        #expect(board.device.gestures.droppedEdges == dropped)
        #expect(DeviceRig.line(board, "Btn") == StatusLine("Btn", "\(dropped) edges lost", isProblem: true))
        #expect(board.device.counters.gestures == 6, "gestures: \(board.device.counters.gestures)")
        #expect(board.device.state.store.settings.temperature == .celsius, "six presses: back to °C")
        #expect(!board.device.gestures.isHeld(0))
        // Said once, with the first count, not at every wake-up that found more.
        let said = Self.lines(board, containing: "the kernel dropped")
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.hasPrefix("buttons: the kernel dropped ") == true, "\(said)")
    }

    @Test("the status line goes after a quiet minute on the device's clock, not before, and the log says how many")
    func clearsAfterAQuietMinute() throws {
        let board = Self.busyPresses()
        let dropped = board.buttons.droppedEdgeCount
        let lostAt = try #require(board.device.state.edgesLostAt)
        board.advance(to: lostAt + .seconds(60) - .milliseconds(1))
        #expect(DeviceRig.line(board, "Btn")?.text == "\(dropped) edges lost", "still inside the minute")
        #expect(Self.lines(board, containing: "no edges dropped").isEmpty)
        board.advance(to: lostAt + .seconds(60))
        #expect(DeviceRig.line(board, "Btn") == nil, "a quiet minute ends the line")
        #expect(board.device.state.droppedEdges == 0 && board.device.state.edgesLostAt == nil)
        #expect(Self.lines(board, containing: "no edges dropped") == ["buttons: no edges dropped for 60 s (\(dropped) in all)"])
        // A later loss starts a new count.
        board.wakesOnEdges = false
        board.buttons.press(1, holdFor: .milliseconds(150), bounce: Self.chatter)
        board.advance(by: .milliseconds(1500))
        board.wakesOnEdges = true
        board.advance(by: .milliseconds(500))
        let again = board.buttons.droppedEdgeCount - dropped
        #expect(again > 0)
        #expect(DeviceRig.line(board, "Btn")?.text == "\(again) edges lost")
        #expect(Self.lines(board, containing: "the kernel dropped").count == 2)
        #expect(board.device.state.store.settings.units == .imperial, "B's press counted")
    }

    @Test("a loss inside the minute starts the minute again")
    func aNewLossRestartsTheMinute() throws {
        let board = Self.busyPresses()
        let first = try #require(board.device.state.edgesLostAt)
        board.advance(to: first + .seconds(30))
        board.wakesOnEdges = false
        board.buttons.press(0, holdFor: .milliseconds(150), bounce: Self.chatter)
        board.advance(by: .milliseconds(1500))
        board.wakesOnEdges = true
        board.advance(by: .milliseconds(500))
        let second = try #require(board.device.state.edgesLostAt)
        #expect(second > first + .seconds(30))
        board.advance(to: first + .seconds(61))
        #expect(DeviceRig.line(board, "Btn")?.text == "\(board.buttons.droppedEdgeCount) edges lost")
        board.advance(to: second + .seconds(60))
        #expect(DeviceRig.line(board, "Btn") == nil)
        #expect(Self.lines(board, containing: "the kernel dropped").count == 1, "one loss, logged once")
    }

    @Test("a bouncing press read at once loses nothing and says nothing")
    func noLossNoLine() {
        let board = DeviceRig.make { $0.rotateEvery = .some(nil) }
        board.advance(by: .seconds(5))
        for _ in 0..<3 { ButtonScenarioTests.press(board, 2) }
        #expect(board.buttons.droppedEdgeCount == 0)
        #expect(board.device.gestures.droppedEdges == 0)
        #expect(DeviceRig.line(board, "Btn") == nil)
        #expect(board.device.counters.gestures == 3)
    }
}

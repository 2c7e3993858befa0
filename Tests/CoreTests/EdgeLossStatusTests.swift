import Core
import HAL
import Screens
import Testing

/// "Btn N edges lost" counts the edges the kernel dropped, goes after a minute
/// without another loss (on the device's monotonic clock), and the log says so once each way.
@Suite("Core: edges lost on the status screen")
struct EdgeLossStatusTests {
    static func btn(_ state: AppState) -> StatusLine? { state.statusLines.first { $0.label == "Btn" } }

    static func logs(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .log(let line) = $0 { line.words } else { nil } }
    }

    @Test("losses add up, are logged once, and the line goes 60 s after the last one, not before")
    func quietMinute() {
        var (state, _) = ReducerTests.started()
        var effects: [Effect] = []
        state.reduce(.droppedEdges(1), at: ReducerTests.moment(10), into: &effects)
        #expect(Self.btn(state) == StatusLine("Btn", "1 edge lost", isProblem: true))
        #expect(Self.logs(effects) == ["buttons: the kernel dropped 1 edge (its event buffer was full: a bouncing line, or the loop busy)"])
        effects.removeAll()
        state.reduce(.droppedEdges(40), at: ReducerTests.moment(40), into: &effects)
        #expect(Self.btn(state)?.text == "41 edges lost")
        #expect(Self.logs(effects).isEmpty, "one line per loss, not per report")
        #expect(state.nextDeadline.map { $0 <= ReducerTests.moment(100).now } == true, "a tick is asked for by the end of the minute")
        state.reduce(.tick, at: Moment(now: ReducerTests.moment(100).now - .nanoseconds(1), wall: ReducerTests.noon + .seconds(99), source: .system), into: &effects)
        #expect(Self.btn(state)?.text == "41 edges lost", "59.999999999 s after the last loss")
        state.reduce(.tick, at: ReducerTests.moment(100), into: &effects)
        #expect(Self.btn(state) == nil)
        #expect(state.droppedEdges == 0 && state.edgesLostAt == nil)
        #expect(Self.logs(effects) == ["buttons: no edges dropped for 60 s (41 in all)"])
        // And nothing waits for it any more.
        effects.removeAll()
        state.reduce(.tick, at: ReducerTests.moment(200), into: &effects)
        #expect(Self.logs(effects).filter { $0.contains("edges") }.isEmpty)
    }
}

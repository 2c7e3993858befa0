import App
import Core
import HAL
import HALSim
import Screens
import Testing
import Weather

/// The device keeps running through faults and recovers by itself.
@Suite("Device: faults")
struct FaultTests {
    @Test("an I²C NACK mid-frame: the display is marked failing, retried, and the panel recovers")
    func nackMidFrame() {
        let board = DeviceRig.make()
        board.advance(by: .seconds(10))
        board.bus.injectFault(.noAcknowledge(.address), at: 0x3C, count: 3)
        ButtonScenarioTests.press(board, 0)
        #expect(board.device.counters.flushFailures >= 1)
        board.advance(by: .seconds(10))
        #expect(board.device.state.display == .ok)
        #expect(DeviceRig.line(board, "Disp")?.isProblem == false)
        DeviceRig.expectGlassAgrees(board)
    }

    @Test("network down for 2 hours: the last weather stays, marked stale, and comes back by itself")
    func networkDown() {
        let board = DeviceRig.make()
        board.advance(by: .seconds(60))
        let fetched = board.device.state.weather.state.value?.fetchedAt
        #expect(fetched != nil)
        board.apply(.network(up: false))
        board.advance(by: .seconds(2 * 3600))
        let state = board.device.state
        guard case .failure(_, let last) = state.weather.state else {
            Issue.record("expected a failure, got \(state.weather.state)")
            return
        }
        #expect(last?.fetchedAt == fetched, "the last good weather is kept")
        guard case .stale(let minutes) = state.model.weather.freshness else {
            Issue.record("not marked stale: \(state.model.weather.freshness)")
            return
        }
        #expect(minutes >= 119)
        #expect(state.model.weather.problem == "no network")
        #expect(DeviceRig.line(board, "Net")?.isProblem == true)
        DeviceRig.expectGlassAgrees(board)
        board.apply(.network(up: true))
        board.advance(by: .seconds(40 * 60))  // the backoff is capped at 30 min ±20 %
        guard case .success(let report) = board.device.state.weather.state else {
            Issue.record("not recovered: \(board.device.state.weather.state)")
            return
        }
        #expect(report.fetchedAt > fetched!)
        #expect(board.device.state.model.weather.freshness == .fresh)
        DeviceRig.expectGlassAgrees(board)
    }

    @Test("GPS unplugged: no receiver, the last position stays the place; replugged: a fix again")
    func gpsUnplugged() {
        let board = DeviceRig.make()
        board.advance(by: .seconds(20))
        let place = board.device.state.model.place
        #expect(place.source == .gps)
        board.apply(.gps(plugged: false))
        board.advance(by: .seconds(10))
        #expect(board.device.state.gps.kind == .noDevice)
        #expect(board.device.state.model.gps == .noReceiver)
        #expect(board.device.state.model.place.source == .gps, "the last known position, not the default")
        DeviceRig.expectGlassAgrees(board)
        board.apply(.gps(plugged: true))
        board.advance(by: .seconds(40))  // the reconnect backoff grows to 8 s by then
        #expect(board.device.state.gps.kind == .fix)
        #expect(board.device.state.model.gps == .fix)
        DeviceRig.expectGlassAgrees(board)
    }

    @Test("a fix that goes stale marks the screen, and the status says so")
    func staleFix() {
        let board = DeviceRig.make()
        board.advance(by: .seconds(20))
        board.drive = nil  // the receiver stops sending
        board.advance(by: .seconds(4))
        #expect([.stale, .noData].contains(board.device.state.gps.kind))
        #expect(board.device.state.model.gps != .fix)
        DeviceRig.expectGlassAgrees(board)
    }
}

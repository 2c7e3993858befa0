import App
import Core
import HAL
import HALSim
import Screens
import Testing
import Weather

/// The device from power-on, with and without a receiver.
@Suite("Device: boot and first fix")
struct BootAndFixTests {
    @Test("with no GPS the default place and its weather are shown, and the status screen says why")
    func bootWithoutGPS() {
        let board = DeviceRig.make { $0.gps = .none }
        board.advance(by: .seconds(30))
        let state = board.device.state
        #expect(state.gps.kind == .noDevice)
        #expect(state.model.place == Place(name: "Berlin", source: .boardDefault))
        #expect(state.model.gps == .noReceiver)
        guard case .success(let report) = state.weather.state else {
            Issue.record("weather not loaded: \(state.weather.state)")
            return
        }
        #expect(abs(report.latitude - 52.52) < 0.01 && abs(report.longitude - 13.41) < 0.01)
        #expect(state.model.weather.forecast != nil)
        #expect(DeviceRig.line(board, "GPS")?.isProblem == true)
        #expect(board.device.counters.fetches == 1)
        DeviceRig.expectGlassAgrees(board)
    }

    @Test("the first fix names the place after the nearest populated place, fetches once, and the now screen shows it")
    func firstFix() {
        let board = DeviceRig.make()
        board.advance(by: .seconds(2))
        #expect(board.device.state.gps.kind != .fix, "the built-in drive starts without a fix")
        #expect(board.device.state.model.place.source == .boardDefault)
        board.advance(by: .seconds(8))
        let state = board.device.state
        #expect(state.gps.kind == .fix)
        #expect(state.model.place.source == .gps)
        #expect(state.model.place.name == "Mitte", "the nearest populated place to the drive's start in Berlin")
        #expect(state.screen == .now)
        #expect(state.weather.state.value != nil)
        DeviceRig.expectGlassAgrees(board)
        // A fix every second is no reason to fetch: over ten minutes of driving 7 km, the
        // repository fetches again only once the rounded position moved more than 0.05°.
        board.advance(by: .seconds(600))
        #expect((1...3).contains(board.device.counters.fetches), "fetches: \(board.device.counters.fetches)")
        DeviceRig.expectGlassAgrees(board)
    }

    @Test("every minute tick at every orbit position changes the clock on the glass for at most 64 bytes")
    func minuteTicks() {
        // Start half a minute off the minute, so the orbit's steps (every 3 min from start) and
        // the ticks (on the minute) are separate frames.
        let start = DeviceRig.summer + .seconds(30)
        let board = DeviceRig.make(start: start) { $0.rotateEvery = .some(nil) }
        board.advance(by: .seconds(30))
        var worst = 0
        for minute in 1...(3 * (Orbit.reach.x + 1) * (Orbit.reach.y + 1) * 3) {
            let frames = board.device.counters.frames
            let clock = board.device.state.model.clock
            board.advance(to: board.startInstant + .seconds(30 + 60 * minute) + .milliseconds(1))
            #expect(board.device.counters.frames > frames, "minute \(minute): the tick drew a frame")
            #expect(board.device.state.model.clock != clock)
            worst = max(worst, board.device.counters.lastFlushPayloadBytes)
            DeviceRig.expectGlassAgrees(board)
            board.advance(by: .seconds(58))
        }
        #expect(worst > 0 && worst <= 64, "the worst minute tick cost \(worst) bytes")
    }

    @Test("the sensor is read every minute and shown on the indoor screen; a failing one is a status line")
    func indoorSensor() {
        let board = DeviceRig.make()
        board.advance(by: .seconds(5))
        guard case .reading(let t, let h, let p)? = board.device.state.indoor else {
            Issue.record("no indoor reading: \(String(describing: board.device.state.indoor))")
            return
        }
        #expect(abs(t - 25.08) < 0.01 && abs((h ?? 0) - 68.69) < 0.05 && abs(p - 1006.53) < 0.05)
        board.bus.injectFault(.noAcknowledge(.address), at: 0x76)
        board.advance(by: .seconds(61))
        #expect(board.device.state.indoor == .failed("no answer"))
        #expect(DeviceRig.line(board, "Sens")?.isProblem == true)
        board.bus.clearFault(at: 0x76)
        board.advance(by: .seconds(61))
        #expect(DeviceRig.line(board, "Sens")?.isProblem == false)
    }
}

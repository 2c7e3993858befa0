import App
import Core
import HAL
import HALSim
import Testing
import Weather

/// The barograph on the running device: the simulated BME280's pressure follows a day with a
/// deepening low, the device samples it every 10 minutes, reduces it with the GPS height, and
/// raises the storm alarm once; the first press only acknowledges it.
///
/// The day is synthetic (no recorded barograph trace is in the test data): steady at
/// 1000 hPa, then falling 1.5 hPa an hour for five hours (4.5 hPa in three hours, "falling
/// quickly" in the Met Office's words), then steady at the bottom.
@Suite("Device: the barograph and the storm alarm")
struct BarographScenarioTests {
    /// The sensor's raw pressure for a station pressure, by the device's own readings: the
    /// compensation is close to linear over a few hPa, so two readings fix the line.
    struct RawScale {
        var raw0: Int32
        var hPa0: Double
        var perRaw: Double

        func raw(for hectopascals: Double) -> Int32 { raw0 + Int32(((hectopascals - hPa0) / perRaw).rounded()) }
    }

    static func pressure(_ board: SimulatedBoard) -> Double? {
        if case .reading(_, _, let p)? = board.device.state.indoor { return p }
        return nil
    }

    static func calibrate(_ board: SimulatedBoard, _ model: BME280Model) throws -> RawScale {
        let raw0 = model.environment.pressure
        board.advance(by: .seconds(61))
        let p0 = try #require(pressure(board))
        model.environment.pressure = raw0 + 2_000
        board.advance(by: .seconds(61))
        let p1 = try #require(pressure(board))
        return RawScale(raw0: raw0, hPa0: p0, perRaw: (p1 - p0) / 2_000)
    }

    static func stormLines(_ board: SimulatedBoard) -> [String] { board.timeline.map(\.text).filter { $0.contains("storm alarm") } }

    @Test func aFallingDayRaisesTheAlarmOnceAndAPressOnlyAcknowledgesIt() throws {
        let board = DeviceRig.make()
        let model = try #require(board.sensorModel)
        var scale = try Self.calibrate(board, model)
        // Check the line near 1000 hPa too (the compensation's slope drifts with pressure).
        model.environment.pressure = scale.raw(for: 1000)
        board.advance(by: .seconds(61))
        let near = try #require(Self.pressure(board))
        scale.raw0 = model.environment.pressure
        scale.hPa0 = near
        func station(atHour hour: Double) -> Double { hour < 4 ? 1000 : hour < 9 ? 1000 - 1.5 * (hour - 4) : 992.5 }
        var raisedAt: Double?
        var sawStormLine = false
        for minute in stride(from: 0, to: 14 * 60, by: 5) {
            model.environment.pressure = scale.raw(for: station(atHour: Double(minute) / 60))
            board.advance(by: .seconds(300))
            if raisedAt == nil, board.device.state.stormAlarm.isShown { raisedAt = Double(minute) / 60 }
            if board.device.state.model.statusLines.contains(where: { $0.label == "Storm" }) { sawStormLine = true }
            if let raisedAt, Double(minute) / 60 >= raisedAt + 1, board.device.state.stormAlarm.isShown {
                // An hour after it was raised, a press of A: the alarm goes, the unit stays.
                let unit = board.device.state.store.settings.temperature
                board.buttons.press(0, holdFor: .milliseconds(120))
                board.advance(by: .seconds(2))
                #expect(!board.device.state.stormAlarm.isShown)
                #expect(board.device.state.store.settings.temperature == unit, "the acknowledging press also changed the unit")
            }
        }
        let raised = try #require(raisedAt, "no alarm; tendency \(board.device.state.pressureTendency)")
        // The three-hour fall reaches 3.6 hPa 2.4 h into the fall (6.4 h), sampled every 10 min.
        #expect(raised >= 6.3 && raised <= 6.8, "raised at \(raised) h")
        #expect(sawStormLine, "the status screen never showed the storm")
        let lines = Self.stormLines(board)
        #expect(lines.filter { $0.contains("storm alarm:") }.count == 1, "\(lines)")
        #expect(lines.contains { $0.contains("acknowledged") }, "\(lines)")
        #expect(lines.contains { $0.contains("over") }, "the episode did not end after the fall: \(lines)")
        // 14 hours at one sample per 10 minutes (the first interval starts at the first reading).
        #expect(board.device.state.barograph.count >= 80)
        #expect(board.device.state.barograph.latest?.quality == .good)
    }

    @Test func steadyWeatherRaisesNothing() throws {
        let board = DeviceRig.make()
        board.advance(by: .seconds(6 * 3600))
        #expect(board.device.state.barograph.count >= 35)
        guard case .sure(let tendency) = board.device.state.pressureTendency else {
            Issue.record("no sure tendency after 6 h: \(board.device.state.pressureTendency)")
            return
        }
        #expect(tendency.characteristic == .steady)
        #expect(Self.stormLines(board).isEmpty)
    }
}

import App
import Board
import Core
import HAL
import HALSim
import Testing
import Weather

/// The barograph against the simulated weather: the default simulation's storm raises the
/// alarm within 10 simulated hours (a minute at `--speed 600`), a board with `"alarm": false`
/// raises nothing from the same storm, and a drive up 600 m in steady weather raises nothing
/// and marks the climb's samples.
@Suite("Device: the barograph in the simulated weather")
struct BarographWeatherTests {
    /// As `simulate` sets it up (SimulationOptions): the BME280 twin follows the weather and
    /// the standard storm comes through; the built-in GPS route.
    static func simulation(board: BoardConfig = DeviceRig.board) -> SimulatedBoard {
        DeviceRig.make {
            $0.board = board
            $0.sensorFollowsWeather = true
            $0.storm = .standard(after: $0.start)
        }
    }

    static func stormLines(_ board: SimulatedBoard) -> [(seconds: Double, text: String)] {
        board.timeline.filter { $0.text.contains("storm alarm:") }
    }

    @Test("the default simulation raises the storm alarm within 10 simulated hours")
    func defaultSimulationRaisesTheAlarm() throws {
        let board = Self.simulation()
        var raisedAt: Double?
        for minute in stride(from: 1, through: 600, by: 1) {
            board.advance(to: board.startInstant + .seconds(Int64(minute) * 60))
            if board.device.state.stormAlarm.isShown {
                raisedAt = Double(minute) / 60
                break
            }
        }
        let hours = try #require(raisedAt, "no alarm in 10 h; tendency \(board.device.state.pressureTendency)")
        #expect(hours < 10)
        #expect(Self.stormLines(board).count == 1)
        #expect(board.statusLine.hasPrefix("STORM ALARM \u{2212}"), "simulate's line under the panel: \(board.statusLine)")
        // The station pressure moved: the trace is the weather's, not a constant.
        let history = board.device.state.barograph
        let values = (0..<history.count).map { history[$0].hectopascals }
        #expect((values.max() ?? 0) - (values.min() ?? 0) > 3.6)
        #expect(history.latest?.quality == .good)
    }

    @Test("\"alarm\": false in the board file: the same storm raises nothing, the tendency still falls")
    func alarmOffRaisesNothing() throws {
        let text = ReferenceBoard.json.replacing(#"  "defaultLocation": {"#, with: "  \"barograph\": { \"alarm\": false },\n  \"defaultLocation\": {")
        guard case .success(let quiet) = BoardFile.check(Array(text.utf8)) else {
            Issue.record("the edited board does not validate")
            return
        }
        #expect(!quiet.barograph.alarm)
        let board = Self.simulation(board: quiet)
        // Five hours in, the storm's fall is at its fastest (`SimulatedStorm.standard`).
        board.advance(by: .seconds(5 * 3_600))
        let tendency = try #require(board.device.state.pressureTendency.tendency)
        #expect(tendency.change < -3.6, "the storm did not reach the barograph: \(tendency)")
        board.advance(by: .seconds(5 * 3_600))
        #expect(!board.device.state.stormAlarm.isShown)
        #expect(Self.stormLines(board).isEmpty)
    }

    @Test("a drive up 600 m in steady weather raises nothing and marks the climb's samples moving")
    func driveUpRaisesNothing() throws {
        let board = DeviceRig.make()
        let model = try #require(board.sensorModel)
        let scale = try BarographScenarioTests.calibrate(board, model)
        let seaLevel = 1013.0
        var climbStart: WallTime?
        var climbEnd: WallTime?
        // 3½ h parked at the route's 50 m, 30 min up a mountain road to 650 m, 4 h at the top.
        for minute in stride(from: 0, to: 8 * 60, by: 1) {
            let altitude = minute < 210 ? 50.0 : minute < 240 ? 50 + 20 * Double(minute - 210) : 650
            if minute == 210 { climbStart = board.device.moment.wall }
            if minute == 240 { climbEnd = board.device.moment.wall }
            board.drive?.altitude = altitude
            // Steady weather: the station pressure is the sea-level one at the true height, with
            // the outdoor temperature the device reduces with.
            let outdoor = board.device.state.weather.state.value?.current?.temperature
            let factor = SeaLevelPressure.reduce(stationHectopascals: 1, altitude: altitude, outdoorCelsius: outdoor)
            model.environment.pressure = scale.raw(for: seaLevel / factor)
            board.advance(by: .seconds(60))
            #expect(!board.device.state.stormAlarm.isShown, "an alarm at minute \(minute)")
        }
        #expect(BarographScenarioTests.stormLines(board).isEmpty)
        let start = try #require(climbStart), end = try #require(climbEnd)
        let history = board.device.state.barograph
        let climb = (0..<history.count).map { history[$0] }.filter { $0.time > start && $0.time <= end }
        #expect(climb.count >= 3)
        #expect(climb.allSatisfy { $0.quality == .moving }, "\(climb.map(\.quality))")
        // At the top, once the climb has left the 3-hour window, the weather reads steady.
        guard case .sure(let tendency) = board.device.state.pressureTendency else {
            Issue.record("no sure tendency 4 h after the climb: \(board.device.state.pressureTendency)")
            return
        }
        #expect(abs(tendency.change) < 1.0, "\(tendency)")
    }

    @Test("without a GPS height the board file's \"altitude\" reduces the pressure, before the forecast's elevation")
    func boardAltitudeReducesWithoutAFix() throws {
        let text = ReferenceBoard.json.replacing(#"  "defaultLocation": {"#, with: "  \"barograph\": { \"altitude\": 1500 },\n  \"defaultLocation\": {")
        guard case .success(let high) = BoardFile.check(Array(text.utf8)),
            case .success(let reference) = BoardFile.check(Array(ReferenceBoard.json.utf8))
        else {
            Issue.record("the edited board does not validate")
            return
        }
        func run(_ config: BoardConfig) -> SimulatedBoard {
            let board = DeviceRig.make {
                $0.board = config
                $0.gps = .none
                $0.sensorFollowsWeather = true
            }
            board.advance(by: .seconds(45 * 60))
            return board
        }
        let flat = run(reference)
        let tall = run(high)
        let ground = try #require(flat.device.state.barograph.latest, "no sample from the forecast's elevation")
        let told = try #require(tall.device.state.barograph.latest, "no sample with the board's altitude")
        #expect(ground.time == told.time && told.quality == .good && ground.quality == .good)
        // The same station pressure reduced from 1,500 m instead of the forecast's elevation:
        // 0.10 to 0.13 hPa per metre between these heights (hypsometric, ISO 2533).
        let elevation = try #require(flat.device.state.weather.state.value?.elevation)
        let difference = told.hectopascals - ground.hectopascals
        let metres = 1_500 - elevation
        #expect(metres > 500, "the forecast's elevation \(elevation) m is too close to the board's")
        #expect(difference > 0.10 * metres && difference < 0.13 * metres, "\(difference) hPa for \(metres) m")
    }
}

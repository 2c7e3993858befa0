import App
import Core
import HAL
import HALSim
import Screens
import Testing

/// The storm banner on the running device: once the falling day of `BarographScenarioTests`
/// raises the alarm, every screen of the rotation shows the banner in the top row (lit and dark
/// by turns), the glass agreeing with the state; one press takes it off every screen.
@Suite("Device: the storm banner on every screen")
struct BarographBannerTests {
    /// Lit pixels of the canvas's top row on the glass (the banner lights it edge to edge).
    static func topRowLit(_ board: SimulatedBoard) -> Int {
        let state = board.device.state
        let glass = board.glass
        let offset = state.orbitOffset
        var lit = 0
        for x in 0..<glass.width where glass[x, offset.y] { lit += 1 }
        return lit
    }

    /// Steady for 4 hours, then 1.5 hPa an hour until the alarm.
    static func raiseTheAlarm(_ board: SimulatedBoard) throws {
        let model = try #require(board.sensorModel)
        var scale = try BarographScenarioTests.calibrate(board, model)
        model.environment.pressure = scale.raw(for: 1000)
        board.advance(by: .seconds(61))
        scale.raw0 = model.environment.pressure
        scale.hPa0 = try #require(BarographScenarioTests.pressure(board))
        var minute = 0
        while !board.device.state.stormAlarm.isShown && minute < 12 * 60 {
            let hour = Double(minute) / 60
            model.environment.pressure = scale.raw(for: hour < 4 ? 1000 : 1000 - 1.5 * (hour - 4))
            board.advance(by: .seconds(300))
            minute += 5
        }
        try #require(board.device.state.stormAlarm.isShown, "no alarm: \(board.device.state.pressureTendency)")
    }

    @Test func theBannerIsOnEveryScreenUntilAPress() throws {
        let board = DeviceRig.make()
        try Self.raiseTheAlarm(board)
        #expect(board.device.state.model.barograph.alarm != nil)
        let line = board.device.state.model.statusLines.first { $0.label == "Storm" }?.text ?? "none"
        #expect(line.hasPrefix("\u{2212}") && line.hasSuffix(" hPa/3h"), "\(line)")
        // The 60-s rotation (the status screen is in it: the storm is a problem line) shows
        // every screen within seven minutes; each has the banner.
        var seen: Set<Screen> = []
        for _ in 0..<8 {
            board.advance(by: .seconds(60))
            try #require(board.device.state.stormAlarm.isShown)
            seen.insert(board.device.state.screen)
            DeviceRig.expectGlassAgrees(board)
            // Lit edge to edge on even minutes, dark with lit text on odd ones (burn-in).
            if board.device.state.model.clock.map({ $0.minute % 2 == 0 }) ?? true {
                #expect(Self.topRowLit(board) >= 100, "no banner on \(board.device.state.screen)")
            } else {
                #expect(Self.topRowLit(board) < 28, "a lit bar on an odd minute on \(board.device.state.screen)")
            }
        }
        #expect(seen == Set(Screen.allCases), "screens with the banner: \(seen)")
        board.buttons.press(2, holdFor: .milliseconds(120))
        board.advance(by: .seconds(2))
        #expect(board.device.state.model.barograph.alarm == nil)
        for _ in 0..<6 {
            DeviceRig.expectGlassAgrees(board)
            #expect(Self.topRowLit(board) < 100, "a banner after the press on \(board.device.state.screen)")
            board.advance(by: .seconds(60))
        }
    }

    /// In imperial units the status screen's storm line is in inHg, as the banner.
    @Test func theStatusLineFollowsTheUnits() throws {
        let board = DeviceRig.make()
        board.advance(by: .seconds(5))
        board.buttons.press(1, holdFor: .milliseconds(120))  // B: units
        board.advance(by: .seconds(2))
        try #require(board.device.state.store.settings.units == .imperial)
        try Self.raiseTheAlarm(board)
        let line = board.device.state.model.statusLines.first { $0.label == "Storm" }?.text ?? "none"
        #expect(line.hasPrefix("\u{2212}0.") && line.hasSuffix(" inHg/3h"), "\(line)")
    }

    @Test func theBarographScreenIsInTheRotationWithTheProviderPressure() throws {
        let board = DeviceRig.make()
        board.advance(by: .seconds(120))
        let panel = board.device.state.model.barograph
        #expect(panel.hasPressure, "the simulated forecast has pressure_msl")
        #expect(panel.providerTrend != nil)
        var seen: Set<Screen> = []
        for _ in 0..<6 {
            board.advance(by: .seconds(60))
            seen.insert(board.device.state.screen)
        }
        #expect(seen.contains(.barograph))
        DeviceRig.expectGlassAgrees(board)
    }
}

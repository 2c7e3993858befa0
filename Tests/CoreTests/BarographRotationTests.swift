import Core
import HAL
import Screens
import Store
import Testing
import Weather

/// The barograph screen joins the button's cycle when there is a pressure (a device without a
/// sensor has the provider's), and is left out when there is none.
@Suite("Core: the barograph in the rotation")
struct BarographRotationTests {
    /// The screens the next-screen button (C long) shows from "now" until it is back.
    static func cycle(_ state: inout AppState) -> [Screen] {
        var screens: [Screen] = []
        var effects: [Effect] = []
        for second in 1...8 {
            state.reduce(ReducerTests.press(2, .long, at: Int64(second)), at: ReducerTests.moment(Int64(second)), into: &effects)
            screens.append(state.screen)
            if state.screen == .now { break }
        }
        return screens
    }

    /// Open-Meteo's 48 past and 48 coming hours of `pressure_msl`, falling 1 hPa an hour to noon.
    static func report(pressures: Bool) -> WeatherReport {
        let noon = ReducerTests.noon
        var points: [PressurePoint] = []
        if pressures {
            for hour in -48...48 {
                points.append(PressurePoint(time: noon + .seconds(3600 * Int64(hour)), hectopascals: 1010 - Double(min(hour, 0)) * 1.0))
            }
        }
        return WeatherReport(
            provider: .openMeteo, latitude: 52.52, longitude: 13.41, fetchedAt: noon,
            current: CurrentConditions(time: noon, temperature: 20), pressures: points)
    }

    static func started(with report: WeatherReport) -> AppState {
        var state = AppState(options: ReducerTests.options, store: .initial, storeHealth: .healthy, seed: 1)
        var effects: [Effect] = []
        state.reduce(.weatherRestored(report, CacheValidators()), at: ReducerTests.moment(0), into: &effects)
        state.reduce(.start, at: ReducerTests.moment(0), into: &effects)
        return state
    }

    @Test func noPressureAtAllLeavesTheScreenOut() {
        var state = Self.started(with: Self.report(pressures: false))
        #expect(!state.model.barograph.hasPressure)
        let screens = Self.cycle(&state)
        #expect(!screens.contains(.barograph), "\(screens)")
        #expect(screens.last == .now)
    }

    @Test func theProvidersPressureBringsItInWithItsOwnTendency() throws {
        var state = Self.started(with: Self.report(pressures: true))
        let panel = state.model.barograph
        #expect(panel.hasPressure)
        #expect(panel.sensorTrend == nil && panel.sensorCount == 0, "no sensor on this device")
        let trend = try #require(panel.trend, "a device without a sensor has the provider's trend")
        #expect(abs(trend.change - -3.0) < 1e-9)
        #expect(trend.characteristic == .decreasing)
        #expect(panel.current == 1010)
        let screens = Self.cycle(&state)
        #expect(screens == [.hours, .days, .barograph, .status, .now], "\(screens)")
    }
}

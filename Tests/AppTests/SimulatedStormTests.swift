@testable import App
import HAL
import Testing

/// The scripted storm of `simulate` is there for a newcomer to see the storm alarm within a
/// minute at `--speed 600`, whatever day the simulation starts on. Added to the generated
/// weather, a day whose own pressure rose cancelled its fall: 4 of 60 default simulations spread
/// over a year raised no alarm (`thunderstorm simulate --headless --duration 36000` from
/// 2026-04-09, 2026-07-27, 2026-09-13 and 2026-10-01).
@Suite("The simulated storm falls the same on every day")
struct SimulatedStormTests {
    /// The largest fall over any 3 hours in the first 10 hours after `start`, 10-minute steps
    /// as the barograph samples.
    static func steepestFall(_ climate: SimulatedClimate, from start: Double) -> Double {
        var steepest = 0.0
        for step in 18...60 {
            let t = start + Double(step) * 600
            steepest = max(steepest, climate.pressure(at: t - 10_800) - climate.pressure(at: t))
        }
        return steepest
    }

    @Test func everyStartOfTheYearFallsQuickly() {
        var days: [String] = []
        for day in 0..<365 {
            // Every day of 2026 (from 2026-01-01, 1,767,225,600 s), at a different hour each day.
            let start = 1_767_225_600 + Double(day) * 86_400 + Double(day * 7 % 24) * 3_600
            let storm = SimulatedStorm.standard(after: WallTime(seconds: Int64(start)))
            for (latitude, longitude) in [(47.37, 8.54), (-33.87, 151.21), (64.15, -21.94)] {
                let climate = SimulatedClimate(latitude: latitude, longitude: longitude, seed: 1, storm: storm)
                let fall = Self.steepestFall(climate, from: start)
                // The Met Office's "falling quickly" starts at 3.6 hPa in 3 h, the alarm's default.
                if fall < 3.9 { days.append("day \(day) at \(latitude): \(fall)") }
            }
        }
        #expect(days.isEmpty, "\(days.count) starts without a quick fall: \(days.prefix(5))")
    }

    @Test func theStormJoinsTheWeatherAtItsEnds() {
        let start = 1_767_225_600.0
        let storm = SimulatedStorm.standard(after: WallTime(seconds: Int64(start)))
        let plain = SimulatedClimate(latitude: 47.37, longitude: 8.54, seed: 1)
        let stormy = SimulatedClimate(latitude: 47.37, longitude: 8.54, seed: 1, storm: storm)
        // Outside its 16 hours the storm changes nothing; inside, no step of 10 minutes jumps.
        for t in [start - 3_600, start + 16 * 3_600, start + 30 * 3_600] {
            #expect(stormy.pressure(at: t) == plain.pressure(at: t))
        }
        var t = start - 1_800
        while t < start + 17 * 3_600 {
            #expect(abs(stormy.pressure(at: t + 600) - stormy.pressure(at: t)) < 0.5, "at \(t - start) s")
            t += 600
        }
    }
}

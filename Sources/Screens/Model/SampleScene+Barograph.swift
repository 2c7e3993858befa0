import HAL
import Weather

/// The barograph of the sample scenes: a front coming in on Friday 22 May 2026 at 12:00 UTC
/// (14:00 in Zürich). Two steady days at 1016 hPa, then a fall that reaches 3.2 hPa in the last
/// three hours; the device was off for four hours the day before (a gap) and driven for an
/// hour in the morning (samples marked moving, an unsure stretch). The provider's pressure sits
/// 0.6 hPa above the sensor's now and falls a little slower; it says the low passes tonight;
/// one of its past hours is `null` (a gap).
extension SampleScene {
    static let barographNow = WallTime(seconds: 1_779_451_200)

    /// The sea-level pressure `hours` before the sample's now (negative: after).
    static func frontPressure(hoursBefore hours: Double) -> Double {
        switch hours {
        case ..<0: return 1_009 + 0.8 * hours + 0.06 * hours * hours  // down to 1006.3 in 7 h, then up
        case ..<6: return 1_009 + 3.2 / 3 * hours
        case ..<20: return 1_015.4 + 0.04 * (hours - 6)
        default: return 1_016 + 0.3 * ((hours - 20) / 28)
        }
    }

    public static let frontPanel: BarographPanel = {
        var history = PressureHistory()
        for step in stride(from: 288, through: 0, by: -1) {
            let hours = Double(step) / 6
            if hours > 26 && hours < 30 { continue }  // switched off
            let quality: PressureSample.Quality = hours >= 11 && hours <= 12 ? .moving : .good
            history.record(PressureSample(
                time: barographNow - .seconds(Int64(step) * 600), hectopascals: frontPressure(hoursBefore: hours),
                quality: quality))
        }
        var points: [PressurePoint] = []
        for hour in -48...48 {
            // 0.6 hPa above the sensor now, its fall a little slower than the sensor's.
            let value = hour == -40 ? nil : frontPressure(hoursBefore: Double(-hour)) + 0.6 + 0.05 * Double(hour)
            points.append(PressurePoint(time: barographNow + .seconds(Int64(hour) * 3_600), hectopascals: value))
        }
        var panel = BarographPanel()
        panel.update(history: history, reading: history.tendency(at: barographNow), pressures: points, now: barographNow)
        return panel
    }()

    /// The same with the storm alarm up: the fall reached 4.2 hPa in three hours.
    public static let stormPanel: BarographPanel = {
        var panel = frontPanel
        panel.alarm = -4.2
        return panel
    }()
}

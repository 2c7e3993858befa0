import JSON

/// The optional `"barograph"` section: the storm alarm on the pressure's three-hour fall.
extension BoardValidator {
    static let barographKeys = ["alarm", "alarmFall"]

    mutating func barograph(_ value: JSONValue, at path: String) -> BarographConfig? {
        guard let members = members(of: value, at: path, allowed: Self.barographKeys) else { return nil }
        let standard = BarographConfig.standard
        let alarm = field(members, "alarm", at: path, default: standard.alarm) { $0.bool($1, at: $2) }
        let fall = field(members, "alarmFall", at: path, default: standard.alarmFall) {
            $0.number($1, at: $2, in: BarographConfig.alarmFallRange, what: "the storm alarm's fall over 3 hours (hPa)")
        }
        guard let alarm, let fall else { return nil }
        return BarographConfig(alarm: alarm, alarmFall: fall)
    }
}

/// The barograph's storm alarm, as the board file says it.
public struct BarographConfig: Sendable, Equatable {
    /// Whether a fast fall raises the alarm (`"alarm"`, default true).
    public let alarm: Bool
    /// The fall over 3 hours, hPa, that raises it (`"alarmFall"`, default 3.6: the Met Office's
    /// "falling quickly" in its station reports, as `StormAlarm` cites).
    public let alarmFall: Double

    /// Below 1 hPa in 3 h the alarm would ring on noise (a GPS height's ±10 m is ±1.2 hPa once
    /// reduced to sea level); 20 hPa in 3 h is beyond the deepest explosive lows on record, so
    /// a larger threshold is an alarm that never rings: `"alarm": false` says that plainly.
    public static let alarmFallRange: ClosedRange<Double> = 1...20

    public init(alarm: Bool = true, alarmFall: Double = 3.6) {
        self.alarm = alarm
        self.alarmFall = alarmFall
    }

    public static let standard = BarographConfig()
}

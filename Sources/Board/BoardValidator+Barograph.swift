import JSON

/// The optional `"barograph"` section: the storm alarm on the pressure's three-hour fall.
extension BoardValidator {
    static let barographKeys = ["alarm", "alarmFall", "altitude"]

    mutating func barograph(_ value: JSONValue, at path: String) -> BarographConfig? {
        guard let members = members(of: value, at: path, allowed: Self.barographKeys) else { return nil }
        let standard = BarographConfig.standard
        let alarm = field(members, "alarm", at: path, default: standard.alarm) { $0.bool($1, at: $2) }
        let fall = field(members, "alarmFall", at: path, default: standard.alarmFall) {
            $0.number($1, at: $2, in: BarographConfig.alarmFallRange, what: "the storm alarm's fall over 3 hours (hPa)")
        }
        // Absent: nil (no altitude of its own); present, a number in range.
        let altitude = field(members, "altitude", at: path, default: Double?.none) { validator, value, at in
            validator.number(value, at: at, in: BarographConfig.altitudeRange, what: "the sensor's height above sea level (m)").map { Optional($0) }
        }
        guard let alarm, let fall, let altitude else { return nil }
        return BarographConfig(alarm: alarm, alarmFall: fall, altitude: altitude)
    }
}

/// The barograph's storm alarm, as the board file says it.
public struct BarographConfig: Sendable, Equatable {
    /// Whether a fast fall raises the alarm (`"alarm"`, default true).
    public let alarm: Bool
    /// The fall over 3 hours, hPa, that raises it (`"alarmFall"`, default 3.6: the Met Office's
    /// "falling quickly" in its station reports, as `StormAlarm` cites).
    public let alarmFall: Double
    /// The sensor's height above sea level, m (`"altitude"`, none by default): the barograph
    /// reduces the station pressure with it when no GPS fix gives a height (a receiver indoors
    /// may never get a 3D fix), in preference to the forecast's terrain elevation, which is the
    /// ground's and not a flat on the tenth floor (30 m is 3.6 hPa, the alarm's whole threshold,
    /// though only as a constant offset).
    public let altitude: Double?

    /// Below 1 hPa in 3 h the alarm would ring on noise (a GPS height's ±10 m is ±1.2 hPa once
    /// reduced to sea level); 20 hPa in 3 h is beyond the deepest explosive lows on record, so
    /// a larger threshold is an alarm that never rings: `"alarm": false` says that plainly.
    public static let alarmFallRange: ClosedRange<Double> = 1...20

    /// From the shore of the Dead Sea (−430 m) to 9,000 m, where the air is at the BME280's
    /// lowest pressure, 300 hPa (data sheet §1).
    public static let altitudeRange: ClosedRange<Double> = -430...9_000

    public init(alarm: Bool = true, alarmFall: Double = 3.6, altitude: Double? = nil) {
        self.alarm = alarm
        self.alarmFall = alarmFall
        self.altitude = altitude
    }

    public static let standard = BarographConfig()
}

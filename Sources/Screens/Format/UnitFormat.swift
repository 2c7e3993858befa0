import Store

/// The numbers of the screens in the notation the settings ask for (docs/design/architecture.md#the-model: time,
/// units and temperature notation). Every function returns a small `String` built without the
/// heap (`ShortText`), so a frame formats its values allocation-free.
///
/// Negative values use the true minus sign U+2212 (the fonts have it): a hyphen is easy to
/// miss on a 1-bit display from across the room.
public enum UnitFormat {
    /// "23°C", "−4°F"; `unit: false` gives "23°" (the hours and days screens).
    public static func temperature(
        _ celsius: Double, _ notation: TemperatureNotation, unit: Bool = true, decimals: Int = 0
    ) -> String {
        var text = ShortText()
        let value = notation == .celsius ? celsius : celsius * 9 / 5 + 32
        appendSigned(value, decimals: decimals, to: &text)
        text.append("°")
        if unit { text.append(notation == .celsius ? "C" : "F") }
        return text.string
    }

    /// Only the number, for the big digits ("23", "−4", "21.6").
    public static func temperatureNumber(_ celsius: Double, _ notation: TemperatureNotation, decimals: Int = 0) -> String {
        var text = ShortText()
        appendSigned(notation == .celsius ? celsius : celsius * 9 / 5 + 32, decimals: decimals, to: &text)
        return text.string
    }

    /// "°C" or "°F".
    public static func temperatureUnit(_ notation: TemperatureNotation) -> String {
        notation == .celsius ? "°C" : "°F"
    }

    /// "14:05", or "2:05 PM" in 12-hour notation.
    public static func clock(_ time: ClockTime, _ notation: TimeNotation) -> String {
        var text = ShortText()
        text.appendClock(time, notation)
        if time.unsure { text.append("?") }
        return text.string
    }

    /// The hour of a forecast column: "15:00", or "3 PM".
    public static func hour(_ time: ClockTime, _ notation: TimeNotation) -> String {
        var text = ShortText()
        switch notation {
        case .twentyFourHour:
            text.append(time.hour, minimumDigits: 2)
            text.append(":00")
        case .twelveHour:
            text.append(twelveHour(time.hour))
            text.append(time.hour < 12 ? " AM" : " PM")
        }
        return text.string
    }

    /// The hour alone, for tight columns: "15", or "3p".
    public static func hourNumber(_ time: ClockTime, _ notation: TimeNotation) -> String {
        var text = ShortText()
        switch notation {
        case .twentyFourHour: text.append(time.hour, minimumDigits: 2)
        case .twelveHour:
            text.append(twelveHour(time.hour))
            text.append(time.hour < 12 ? "a" : "p")
        }
        return text.string
    }

    /// Wind speed from m/s: "12 km/h" or "7 mph"; `compact` drops the space ("12km/h").
    public static func wind(_ metresPerSecond: Double, _ units: UnitsNotation, compact: Bool = false) -> String {
        var text = ShortText()
        switch units {
        case .metric:
            text.append(metresPerSecond * 3.6, decimals: 0)
            text.append(compact ? "km/h" : " km/h")
        case .imperial:
            text.append(metresPerSecond * 2.236_936_292, decimals: 0)
            text.append(compact ? "mph" : " mph")
        }
        return text.string
    }

    /// Precipitation from mm: "1.2 mm" or "0.05 in"; `compact` drops the space ("1.2mm").
    /// `coarse` drops one decimal ("25mm", "0.9in") where a column is too narrow for the full
    /// figure.
    public static func precipitation(
        _ millimetres: Double, _ units: UnitsNotation, compact: Bool = false, coarse: Bool = false
    ) -> String {
        var text = ShortText()
        switch units {
        case .metric:
            text.append(millimetres, decimals: coarse ? 0 : 1)
            text.append(compact ? "mm" : " mm")
        case .imperial:
            text.append(millimetres / 25.4, decimals: coarse ? 1 : 2)
            text.append(compact ? "in" : " in")
        }
        return text.string
    }

    /// Pressure from hPa: "1013 hPa" or "29.92 inHg".
    public static func pressure(_ hectopascals: Double, _ units: UnitsNotation) -> String {
        var text = ShortText()
        switch units {
        case .metric:
            text.append(hectopascals, decimals: 0)
            text.append(" hPa")
        case .imperial:
            text.append(hectopascals * 0.029_529_983, decimals: 2)
            text.append(" inHg")
        }
        return text.string
    }

    /// "64%".
    public static func percent(_ value: Int) -> String {
        var text = ShortText()
        text.append(value)
        text.append("%")
        return text.string
    }

    // MARK: Missing values
    //
    // A value the service did not send is drawn as dashes in the same shape, so the layout
    // does not jump: "--°C", "--%", "-- km/h".

    public static func temperature(
        _ celsius: Double?, _ notation: TemperatureNotation, unit: Bool = true, decimals: Int = 0
    ) -> String {
        if let celsius { return temperature(celsius, notation, unit: unit, decimals: decimals) }
        return unit ? "--" + temperatureUnit(notation) : "--°"
    }

    public static func temperatureNumber(_ celsius: Double?, _ notation: TemperatureNotation, decimals: Int = 0) -> String {
        celsius.map { temperatureNumber($0, notation, decimals: decimals) } ?? "--"
    }

    public static func wind(_ metresPerSecond: Double?, _ units: UnitsNotation, compact: Bool = false) -> String {
        if let metresPerSecond { return wind(metresPerSecond, units, compact: compact) }
        return (compact ? "--" : "-- ") + (units == .metric ? "km/h" : "mph")
    }

    public static func precipitation(
        _ millimetres: Double?, _ units: UnitsNotation, compact: Bool = false, coarse: Bool = false
    ) -> String {
        if let millimetres { return precipitation(millimetres, units, compact: compact, coarse: coarse) }
        return (compact ? "--" : "-- ") + (units == .metric ? "mm" : "in")
    }

    public static func percent(_ value: Int?) -> String { value.map { percent($0) } ?? "--%" }

    /// The 8-point compass direction the wind comes from: "N", "NE", … "NW".
    public static func compass(_ degrees: Int) -> String {
        switch ((degrees % 360 + 360) % 360 * 2 + 45) / 90 % 8 {
        case 0: "N"
        case 1: "NE"
        case 2: "E"
        case 3: "SE"
        case 4: "S"
        case 5: "SW"
        case 6: "W"
        default: "NW"
        }
    }

    /// The 12-hour clock's hour, 1–12, for an hour 0–23 (0 and 12 are 12).
    static func twelveHour(_ hour: Int) -> Int {
        hour % 12 == 0 ? 12 : hour % 12
    }

    /// Rounds first, so −0.4 shows as "0", never "−0".
    private static func appendSigned(_ value: Double, decimals: Int, to text: inout ShortText) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded(.toNearestOrAwayFromZero) / scale
        if rounded < 0 { text.append("\u{2212}") }
        text.append(rounded.magnitude, decimals: decimals)
    }
}

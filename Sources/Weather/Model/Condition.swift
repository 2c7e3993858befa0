import HAL

/// A condition: its group, whether it is night (moon variants), and the service's own code,
/// kept for the log and the JSON output.
public struct Condition: Sendable, Equatable {
    public var group: ConditionGroup
    public var isNight: Bool
    /// `"73"` (WMO) or `"lightsnow"` (MET, without the `_day`/`_night` suffix).
    public var code: String

    public init(group: ConditionGroup, isNight: Bool, code: String) {
        self.group = group
        self.isNight = isNight
        self.code = code
    }

    /// WMO 4677 present-weather code as Open-Meteo sends it. The codes Open-Meteo documents map
    /// exactly (docs/design/parts.md#weather-codes); any other 0–99 code falls back by its decade; outside 0–99 there is no
    /// condition to show (nil), rather than a guess.
    public init?(wmo code: Int, isNight: Bool) {
        let group: ConditionGroup
        switch code {
        case 0: group = .clear
        case 1, 2: group = .partlyCloudy
        case 3: group = .cloudy
        case 45, 48: group = .fog
        case 51, 53, 55, 56, 57: group = .drizzle
        case 61, 63, 65, 66, 67: group = .rain
        case 71, 73, 75, 77, 85, 86: group = .snow
        case 80, 81, 82: group = .showers
        case 95, 96, 99: group = .thunderstorm
        // WMO 4677 decades: 40–49 fog, 50–59 drizzle, 60–69 rain, 70–79 solid precipitation,
        // 80–90 showers, 91–99 thunderstorm (at the time or during the preceding hour).
        case 40...49: group = .fog
        case 50...59: group = .drizzle
        case 60...69: group = .rain
        case 70...79: group = .snow
        case 80...90: group = .showers
        case 91...99: group = .thunderstorm
        case 4...39: group = .cloudy
        default: return nil
        }
        self.init(group: group, isNight: isNight, code: String(code))
    }

    /// A MET Norway `symbol_code` (`lightsnow`, `fair_night`, `rainshowersandthunder_day`). The
    /// 41 base names of the Locationforecast 2.0 schema map through a table; the suffix gives
    /// night (`_night`; `_polartwilight` is drawn as day, the sun being just below the horizon).
    /// An unknown future name falls back by its words, `thunder` first (docs/design/parts.md#weather-codes), or gives nil.
    public init?(metSymbol symbol: String) {
        var base = Substring(symbol)
        var night = false
        for suffix in ["_day", "_night", "_polartwilight"] where base.hasSuffix(suffix) {
            night = suffix == "_night"
            base = base.dropLast(suffix.count)
            break
        }
        guard let group = Condition.metGroups[String(base)] ?? Condition.metFallback(base) else { return nil }
        self.init(group: group, isNight: night, code: String(base))
    }

    private static func metFallback(_ base: Substring) -> ConditionGroup? {
        if base.contains("thunder") { return .thunderstorm }
        if base.contains("snowshowers") || base.hasSuffix("snow") { return .snow }
        if base.contains("showers") { return .showers }
        if base.hasSuffix("rain") || base.hasSuffix("sleet") { return .rain }
        return nil
    }

    /// MET's base symbol names (weatherapi-docs `METJSONForecast.json`), including the two the
    /// schema misspells (`lightssleetshowersandthunder`, `lightssnowshowersandthunder`).
    static let metGroups: [String: ConditionGroup] = {
        var table: [String: ConditionGroup] = [
            "clearsky": .clear, "fair": .partlyCloudy, "partlycloudy": .partlyCloudy, "cloudy": .cloudy, "fog": .fog,
        ]
        for intensity in ["light", "", "heavy"] {
            table[intensity + "rain"] = .rain
            table[intensity + "sleet"] = .rain
            table[intensity + "snow"] = .snow
            table[intensity + "rainshowers"] = .showers
            table[intensity + "sleetshowers"] = .showers
            table[intensity + "snowshowers"] = .snow
            for kind in ["rain", "sleet", "snow", "rainshowers", "sleetshowers", "snowshowers"] {
                table[intensity + kind + "andthunder"] = .thunderstorm
            }
        }
        table["lightssleetshowersandthunder"] = .thunderstorm
        table["lightssnowshowersandthunder"] = .thunderstorm
        return table
    }()
}

/// The nine weather condition groups of the device (WMO code table 4677; docs/design/parts.md#weather-codes): what the
/// weather model reads out of a WMO code (Open-Meteo) or a MET Norway symbol, and what the
/// screens draw one icon for.
///
/// One enumeration for both sides. It lives here, in the base layer, because the two sides sit
/// beside each other one layer up (docs/design/architecture.md#layers): `Weather` maps the services' codes onto it
/// (`Condition`), `Graphics` knows how each group looks (its icons), and neither depends on the
/// other. The raw value is the group's name in the JSON output (`weather fetch`).
public enum ConditionGroup: String, Sendable, Hashable, CaseIterable {
    case clear
    case partlyCloudy = "partly-cloudy"
    case cloudy
    case fog
    case drizzle
    case rain
    case snow
    case showers
    case thunderstorm
}

/// The unit system a request asks the service for. Open-Meteo then rounds in the units the
/// user reads (88.7 °F rather than 31.5 °C shown as 88.7 °F); the decoders read the unit
/// strings of the answer and convert to SI, so a report never depends on what was asked.
public enum RequestUnits: String, Sendable, CaseIterable {
    case metric
    case imperial
}

/// The unit strings services write, and their factors to SI.
enum UnitConversion {
    /// `°C` or `°F` → °C.
    static func temperature(_ unit: String) -> ((Double) -> Double)? {
        switch unit {
        case "°C", "celsius": { $0 }
        case "°F", "fahrenheit": { ($0 - 32) * 5 / 9 }
        default: nil
        }
    }

    /// → m/s. Open-Meteo writes `mp/h`, not `mph` (its sdk `Unit.swift`).
    static func speed(_ unit: String) -> Double? {
        switch unit {
        case "m/s": 1
        case "km/h": 1 / 3.6
        case "mp/h", "mph": 0.447_04
        case "kn": 1852.0 / 3600
        default: nil
        }
    }

    /// → mm.
    static func precipitation(_ unit: String) -> Double? {
        switch unit {
        case "mm": 1
        case "inch": 25.4
        case "cm": 10
        default: nil
        }
    }

    /// → hPa.
    static func pressure(_ unit: String) -> Double? {
        switch unit {
        case "hPa": 1
        case "kPa": 10
        case "inHg": 33.863_886_666
        default: nil
        }
    }
}

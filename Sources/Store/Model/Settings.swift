/// The clock notation of the original settings screen.
public enum TimeNotation: UInt32, Sendable, CaseIterable {
    case twentyFourHour = 0
    case twelveHour = 1
}

/// Wind, precipitation and pressure units.
public enum UnitsNotation: UInt32, Sendable, CaseIterable {
    case metric = 0
    case imperial = 1
}

public enum TemperatureNotation: UInt32, Sendable, CaseIterable {
    case celsius = 0
    case fahrenheit = 1
}

/// How bright the display is (docs/design/architecture.md#the-model: "plus display brightness policy").
public enum BrightnessPolicy: UInt32, Sendable, CaseIterable {
    /// Full contrast by day, dimmed between sunset and sunrise.
    case automatic = 0
    case alwaysBright = 1
    case alwaysDim = 2
}

/// The settings, each stored under its own key so that a commit writes only what changed and a
/// later build can add keys without a new schema (a reader of schema 2 refuses keys it does not
/// know, so a store written with more keys opens read-only rather than dropping them).
public struct Settings: Equatable, Hashable, Sendable {
    public var time: TimeNotation
    public var units: UnitsNotation
    public var temperature: TemperatureNotation
    public var brightness: BrightnessPolicy

    public init(
        time: TimeNotation = .twentyFourHour, units: UnitsNotation = .metric,
        temperature: TemperatureNotation = .celsius, brightness: BrightnessPolicy = .automatic
    ) {
        self.time = time
        self.units = units
        self.temperature = temperature
        self.brightness = brightness
    }

    public static let defaults = Settings()
}

/// The on-disk key of each setting. Raw values are the file format: never renumber.
public enum SettingKey: UInt16, Sendable, CaseIterable {
    case time = 1
    case units = 2
    case temperature = 3
    case brightness = 4
}

// The settings' names in the command line's words: what `store set` takes and `store show`,
// the log and `simulate`'s report print.
extension TimeNotation {
    public var name: String { self == .twelveHour ? "12h" : "24h" }
}

extension UnitsNotation {
    public var name: String { self == .metric ? "metric" : "imperial" }
}

extension TemperatureNotation {
    public var name: String { self == .celsius ? "celsius" : "fahrenheit" }
}

extension BrightnessPolicy {
    public var name: String {
        switch self {
        case .automatic: "automatic"
        case .alwaysBright: "bright"
        case .alwaysDim: "dim"
        }
    }
}

extension Settings {
    /// "fahrenheit, imperial, 12h, brightness automatic", for the log.
    public var summary: String { "\(temperature.name), \(units.name), \(time.name), brightness \(brightness.name)" }
}

extension SettingKey {
    /// Every key, built once (`allCases` makes a new array at each call).
    public static let all = SettingKey.allCases
}

extension Settings {
    /// The stored value of `key`.
    public subscript(key: SettingKey) -> UInt32 {
        switch key {
        case .time: time.rawValue
        case .units: units.rawValue
        case .temperature: temperature.rawValue
        case .brightness: brightness.rawValue
        }
    }

    /// Sets `key` from its stored value; false (and no change) if the value is not one this
    /// build knows.
    public mutating func set(_ key: SettingKey, to value: UInt32) -> Bool {
        switch key {
        case .time:
            guard let v = TimeNotation(rawValue: value) else { return false }
            time = v
        case .units:
            guard let v = UnitsNotation(rawValue: value) else { return false }
            units = v
        case .temperature:
            guard let v = TemperatureNotation(rawValue: value) else { return false }
            temperature = v
        case .brightness:
            guard let v = BrightnessPolicy(rawValue: value) else { return false }
            brightness = v
        }
        return true
    }
}

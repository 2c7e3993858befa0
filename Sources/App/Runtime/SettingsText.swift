import Glibc
import Store

/// The settings as words, for the log, the report and `simulate`'s status line.
public enum SettingsText {
    public static func describe(_ s: Settings) -> String {
        "\(temperature(s.temperature)), \(units(s.units)), \(time(s.time)), brightness \(brightness(s.brightness))"
    }

    public static func temperature(_ t: TemperatureNotation) -> StaticString {
        t == .celsius ? "°C" : "°F"
    }

    public static func units(_ u: UnitsNotation) -> StaticString {
        u == .metric ? "metric" : "imperial"
    }

    public static func time(_ t: TimeNotation) -> StaticString {
        t == .twentyFourHour ? "24-hour" : "12-hour"
    }

    public static func brightness(_ b: BrightnessPolicy) -> StaticString {
        switch b {
        case .automatic: "automatic"
        case .alwaysBright: "bright"
        case .alwaysDim: "dim"
        }
    }
}

/// One line on standard error.
public func printError(_ line: String) {
    var text = line
    text.append("\n")
    text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
}

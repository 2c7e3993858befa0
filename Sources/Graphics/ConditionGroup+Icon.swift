import HAL

/// How each weather condition group looks: the icons of the WMO weather-code groups that the
/// weather model reads (WMO code table 4677; docs/design/parts.md#weather-codes). `ConditionGroup` itself is HAL's, so
/// the weather model and the pictures name the same groups without depending on each other.
///
/// The pictures are drawn by hand for a 1-bit OLED (Tools/graphics/icons/<size>/<name>.txt, `#`
/// lit) and compiled into `Generated/ConditionGroup+Sheets.swift` by
/// `scripts/generate-graphics.sh`. Groups in which the sky shows — clear, partly cloudy and
/// showers — have a day picture with the sun and a night picture with the moon; the others
/// look the same day and night.
extension ConditionGroup {
    /// Whether the night picture differs from the day picture (a moon instead of the sun).
    public var hasNightVariant: Bool {
        switch self {
        case .clear, .partlyCloudy, .showers: true
        case .cloudy, .fog, .drizzle, .rain, .snow, .thunderstorm: false
        }
    }

    /// The picture of this icon at `size`, a view into the generated sheet (no allocation).
    public func bitmap(night: Bool, size: IconSize) -> Bitmap {
        let side = size.pixels
        let bytes = side * side / 8
        let sheet = size == .small ? WeatherIconSheets.small : WeatherIconSheets.large
        return Bitmap(storage: sheet, base: ConditionGroup.slot(self, night: night) * bytes, stride: side,
                      width: side, height: side)
    }
}

/// The two sizes of weather icons: a row of hourly forecasts uses `small`, the main "now"
/// screen `large`.
public enum IconSize: Sendable, Hashable, CaseIterable {
    /// 16 × 16 pixels, one-pixel lines.
    case small
    /// 32 × 32 pixels, two-pixel lines.
    case large

    /// Width and height in pixels.
    public var pixels: Int {
        switch self {
        case .small: 16
        case .large: 32
        }
    }
}

extension DrawTarget {
    /// Draws `icon` with its top-left corner at `x`, `y`: the night picture when `night` and the
    /// icon has one. Lit pixels only by default, so an icon may sit on anything.
    public mutating func drawIcon(
        _ icon: ConditionGroup, night: Bool, size: IconSize, x: Int, y: Int, mode: BitmapMode = .overlay
    ) {
        draw(icon.bitmap(night: night, size: size), x: x, y: y, mode: mode)
    }
}

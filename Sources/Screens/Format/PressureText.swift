import Store

/// The barograph's short texts in the settings' units, built on `ShortText` so a frame
/// allocates nothing. Metric is hectopascals; imperial is inches of mercury, the unit US
/// barometers and forecasts use (1 hPa = 0.029 529 983 inHg at 0 °C, the conversion
/// `UnitFormat.pressure` uses, so the indoor screen and the barograph agree to the digit).
public enum PressureText {
    /// Inches of mercury in one hectopascal.
    public static let inchesPerHectopascal = 0.029_529_983

    /// Which way the pressure went in three hours, as the arrow beside a pressure shows it: the
    /// sign of the change, "steady" under 0.1 hPa (the Met Office's band, `PressureTendency.Rate`).
    /// Decided in hectopascals whatever the units: a fall of 0.1 hPa is "0.00" in inHg but
    /// still a fall by the Met Office's bands.
    public enum Arrow: Sendable, Equatable {
        case rising, steady, falling

        public init(change: Double) {
            let tenths = Int((change * 10).rounded())
            self = tenths > 0 ? .rising : tenths < 0 ? .falling : .steady
        }

        /// U+2197, U+2192, U+2198.
        public var scalar: Unicode.Scalar {
            switch self {
            case .rising: "\u{2197}"
            case .steady: "\u{2192}"
            case .falling: "\u{2198}"
            }
        }
    }

    /// What follows the number of a change.
    public enum Form: Sendable, Equatable {
        /// "−3.2/3h", "−0.09/3h".
        case bare
        /// "−3.2 hPa/3h", "−0.09 inHg/3h".
        case spacedUnit
        /// "−3.2hPa/3h", "−0.09inHg/3h": a narrow panel.
        case tightUnit
        /// "−0.12inHg": the unit without "/3h" (the storm alarm is a three-hour fall by
        /// definition; an inHg figure without its unit reads as a tiny hPa change).
        case unitOnly
        /// "−4.2": the figure alone, for the storm banner beside the clock on a narrow panel
        /// (metric only, for the reason above).
        case number
    }

    /// The storm banner's forms, longest first: each panel draws the first that fits beside
    /// the clock. Metric drops to the bare figure and then the number (four-digit hPa changes
    /// are plain); imperial keeps the unit, or shows none.
    public static func bannerForms(_ units: UnitsNotation) -> [Form] {
        units == .metric ? metricBannerForms : imperialBannerForms
    }

    private static let metricBannerForms: [Form] = [.spacedUnit, .tightUnit, .bare, .number]
    private static let imperialBannerForms: [Form] = [.spacedUnit, .tightUnit, .unitOnly, .bare]

    /// "hPa" or "inHg".
    public static func unit(_ units: UnitsNotation) -> String {
        units == .metric ? "hPa" : "inHg"
    }

    /// "1009" (whole hectopascals) or "29.80" (hundredths of inHg, as `UnitFormat.pressure`).
    public static func value(_ hectopascals: Double, _ units: UnitsNotation) -> String {
        var text = ShortText()
        switch units {
        case .metric: text.append(Int(hectopascals.rounded()))
        case .imperial: text.append(hectopascals * inchesPerHectopascal, decimals: 2)
        }
        return text.string
    }

    /// "−3.2/3h", "+0.4/3h", "0.0/3h" (tenths of hPa) or "−0.09/3h", "0.00/3h" (hundredths of
    /// inHg); `form` says what follows the number; `unsure` ends it with "?" (a sample in the
    /// window was taken moving or without a trusted altitude). At most 15 bytes
    /// ("−0.12 inHg/3h" is 15), so the text stays a small string.
    public static func change(
        _ change: Double, _ units: UnitsNotation, form: Form = .bare, unsure: Bool = false
    ) -> String {
        var text = ShortText()
        // Tenths of hPa or hundredths of inHg: 0.1 hPa and 0.01 inHg (0.34 hPa) are the
        // finest steps a home barometer's display shows in each unit.
        let metric = units == .metric
        let steps = Int((abs(change) * (metric ? 10 : 100 * inchesPerHectopascal)).rounded())
        let perUnit = metric ? 10 : 100
        if steps > 0 { text.append(scalar: change < 0 ? "\u{2212}" : "+") }
        text.append(steps / perUnit)
        text.append(".")
        text.append(steps % perUnit, minimumDigits: metric ? 1 : 2)
        switch (form, metric) {
        case (.bare, _): text.append("/3h")
        case (.spacedUnit, true): text.append(" hPa/3h")
        case (.spacedUnit, false): text.append(" inHg/3h")
        case (.tightUnit, true): text.append("hPa/3h")
        case (.tightUnit, false): text.append("inHg/3h")
        case (.unitOnly, true): text.append("hPa")
        case (.unitOnly, false): text.append("inHg")
        case (.number, _): break
        }
        if unsure { text.append("?") }
        return text.string
    }
}

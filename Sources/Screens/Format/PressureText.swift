/// The barograph's short texts, built on `ShortText` so a frame allocates nothing.
public enum PressureText {
    /// Which way the pressure went in three hours, as the arrow beside a pressure shows it: the
    /// sign of the change, "steady" under 0.1 hPa (the Met Office's band, `PressureTendency.Rate`).
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

    /// "1009": whole hectopascals.
    public static func value(_ hectopascals: Double) -> String {
        var text = ShortText()
        text.append(Int(hectopascals.rounded()))
        return text.string
    }

    /// "−3.2/3h", "+0.4/3h", "0.0/3h"; `per` is what follows the number (" hPa/3h" for
    /// "−3.2 hPa/3h"); `unsure` ends it with "?" (a sample in the window was taken moving or
    /// without a trusted altitude).
    public static func change(_ change: Double, per: StaticString = "/3h", unsure: Bool = false) -> String {
        var text = ShortText()
        let tenths = Int((abs(change) * 10).rounded())
        if tenths > 0 { text.append(scalar: change < 0 ? "\u{2212}" : "+") }
        text.append(tenths / 10)
        text.append(".")
        text.append(tenths % 10)
        text.append(per)
        if unsure { text.append("?") }
        return text.string
    }
}

/// Decimal numbers as text without Foundation's formatters (URLs, JSON output).
public enum DecimalText {
    /// `value` rounded to `places` decimals; with `trimmingZeros` (the default) trailing zeros
    /// and a bare point are dropped: 52.52, -104.98, 10.7522, 3.
    public static func text(_ value: Double, places: Int, trimmingZeros: Bool = true) -> String {
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((abs(value) * Double(scale)).rounded())
        let whole = scaled / scale
        var fraction = scaled % scale
        var digits = places
        while trimmingZeros, digits > 0, fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let fractionText = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }
}

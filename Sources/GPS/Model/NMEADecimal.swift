/// A decimal number exactly as the receiver sent it: `mantissa × 10^-scale`.
///
/// NMEA numbers are decimal text ("1147.20", "0.117"); keeping them as a scaled integer means
/// nothing is rounded while parsing, two values compare exactly, and `Double` appears only where
/// a caller asks for it (the JSON edge, the display). minmea keeps the same `{value, scale}` pair.
public struct NMEADecimal: Sendable, Hashable, CustomStringConvertible {
    public var mantissa: Int64
    /// Digits after the decimal point, 0…18.
    public var scale: UInt8

    public init(mantissa: Int64, scale: UInt8) {
        self.mantissa = mantissa
        self.scale = scale
    }

    public init(_ integer: Int) {
        self.init(mantissa: Int64(integer), scale: 0)
    }

    /// The value as a `Double`: the integer mantissa converts exactly (it is below 2^53 for every
    /// field a receiver sends) and one division by an exact power of ten rounds once.
    public var doubleValue: Double {
        Double(mantissa) / powersOfTen[Int(scale)]
    }

    /// The value rescaled to `digits` decimals (0…18), truncating extra digits (toward zero)
    /// and saturating at the ends of `Int64` when more digits are asked for than fit.
    public func scaled(to digits: UInt8) -> Int64 {
        Int64(clamping: exactlyScaled(to: digits))
    }

    /// The value rescaled to `digits` decimals with room for all of them: 18 digits of mantissa
    /// times 10^18 is 36 digits, inside `Int128`'s 38.
    private func exactlyScaled(to digits: UInt8) -> Int128 {
        if digits >= scale {
            return Int128(mantissa) * Int128(powersOfTenInteger[Int(digits - scale)])
        }
        return Int128(mantissa) / Int128(powersOfTenInteger[Int(scale - digits)])
    }

    public var description: String {
        guard scale > 0 else { return String(mantissa) }
        let divisor = Int64(powersOfTenInteger[Int(scale)])
        let sign = mantissa < 0 ? "-" : ""
        let magnitude = mantissa.magnitude
        let fraction = String(magnitude % UInt64(divisor))
        let padding = String(repeating: "0", count: Int(scale) - fraction.count)
        return "\(sign)\(magnitude / UInt64(divisor)).\(padding)\(fraction)"
    }

    public static func == (a: NMEADecimal, b: NMEADecimal) -> Bool {
        let scale = max(a.scale, b.scale)
        return a.exactlyScaled(to: scale) == b.exactlyScaled(to: scale)
    }

    public func hash(into hasher: inout Hasher) {
        var m = mantissa, s = scale
        while s > 0, m % 10 == 0 { m /= 10; s -= 1 }
        hasher.combine(m)
        hasher.combine(s)
    }
}

let powersOfTen: [Double] = (0...18).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
}

let powersOfTenInteger: [UInt64] = (0...18).map { exponent in
    var value: UInt64 = 1
    for _ in 0..<exponent { value *= 10 }
    return value
}

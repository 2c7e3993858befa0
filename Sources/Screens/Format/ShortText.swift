/// Builds the short texts of the screens ("23°C", "14:05", "12 km/h") without touching the heap.
///
/// The bytes collect in a fixed inline buffer; `string` then makes a `String` of at most 15
/// UTF-8 bytes, which Swift stores inline (the small-string form), so formatting a frame
/// allocates nothing — `Benchmarks/` counts it. Longer text is cut at a scalar boundary rather
/// than spilling to the heap.
public struct ShortText: Sendable {
    /// The longest text that stays a small string on 64-bit platforms.
    public static let capacity = 15

    private var storage: (UInt64, UInt64) = (0, 0)
    public private(set) var count = 0

    public init() {}

    public init(_ text: StaticString) {
        append(text)
    }

    /// Appends `scalar` if it fits whole.
    public mutating func append(scalar: Unicode.Scalar) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            appendByte(UInt8(value))
        case 0x80..<0x800:
            guard count + 2 <= Self.capacity else { return }
            appendByte(UInt8(0xC0 | value >> 6))
            appendByte(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            guard count + 3 <= Self.capacity else { return }
            appendByte(UInt8(0xE0 | value >> 12))
            appendByte(UInt8(0x80 | value >> 6 & 0x3F))
            appendByte(UInt8(0x80 | value & 0x3F))
        default:
            guard count + 4 <= Self.capacity else { return }
            appendByte(UInt8(0xF0 | value >> 18))
            appendByte(UInt8(0x80 | value >> 12 & 0x3F))
            appendByte(UInt8(0x80 | value >> 6 & 0x3F))
            appendByte(UInt8(0x80 | value & 0x3F))
        }
    }

    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes in
            for byte in bytes where count < Self.capacity { appendByte(byte) }
        }
    }

    /// Appends `value` in decimal, with at least `minimumDigits` digits (zero-padded).
    public mutating func append(_ value: Int, minimumDigits: Int = 1) {
        if value < 0 { append("-") }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64) = (0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[n] = UInt8(truncatingIfNeeded: 0x30 + magnitude % 10)
                magnitude /= 10
                n += 1
            } while magnitude > 0 && n < 16
        }
        for _ in n..<max(n, minimumDigits) { appendByte(0x30) }
        withUnsafeBytes(of: &digits) { raw in
            for index in stride(from: n - 1, through: 0, by: -1) { appendByte(raw[index]) }
        }
    }

    /// Appends `value` rounded to `decimals` places (half away from zero), e.g. `-0.4` with 0
    /// decimals is "0" and never "-0".
    public mutating func append(_ value: Double, decimals: Int) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded(.toNearestOrAwayFromZero))
        if scaled < 0 { append("-") }
        let magnitude = scaled.magnitude
        let unit = Int(scale)
        append(Int(magnitude / UInt(unit)))
        guard decimals > 0 else { return }
        append(".")
        append(Int(magnitude % UInt(unit)), minimumDigits: decimals)
    }

    /// The text. Small (≤ 15 bytes), so it lives inline in the `String` value.
    public var string: String {
        var copy = storage
        return withUnsafeBytes(of: &copy) { raw in
            String(unsafeUninitializedCapacity: count) { buffer in
                for index in 0..<count { buffer[index] = raw[index] }
                return count
            }
        }
    }

    private mutating func appendByte(_ byte: UInt8) {
        guard count < Self.capacity else { return }
        let index = count
        withUnsafeMutableBytes(of: &storage) { raw in raw[index] = byte }
        count += 1
    }
}

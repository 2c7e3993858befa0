import HAL

/// A field that is present but cannot be what the sentence says it is (a letter in a number,
/// minute 61, the 31st of April). The whole sentence is then dropped as malformed: a garbled
/// sentence can carry a valid checksum after a buffer overrun (docs/design/parts.md#the-gps-receiver), and half
/// of it is not worth trusting.
public struct MalformedField: Error, Equatable, Sendable {
    public var index: Int
    public init(index: Int) { self.index = index }
}

/// The comma-separated fields of one framed sentence, as offsets into its bytes; nothing copied.
///
/// Field 0 is the address (`GPRMC`), field 1 the first data field. Asking for a field past the
/// end gives an empty field, so a sentence with missing trailing fields reads as "absent", and
/// extra trailing fields are never looked at. At most `capacity` fields are kept.
struct NMEAFields {
    static let capacity = 64

    let bytes: UnsafeRawBufferPointer
    /// Index of the first byte of each field.
    private var starts = InlineArray<64, UInt8>(repeating: 0)
    /// Index one past the last data byte (the `*`).
    let end: Int
    private(set) var count = 0

    /// `sentence` spans `$` to the last checksum digit.
    init(sentence: UnsafeRawBufferPointer) {
        bytes = sentence
        end = sentence.count - 3
        starts[0] = 1
        count = 1
        var i = 1
        while i < end {
            if sentence[i] == 0x2C {
                if count == NMEAFields.capacity { break }
                starts[count] = UInt8(truncatingIfNeeded: i + 1)
                count &+= 1
            }
            i &+= 1
        }
    }

    @inline(__always)
    func range(_ index: Int) -> Range<Int> {
        guard index < count else { return end..<end }
        let start = Int(starts[index])
        let stop = index + 1 < count ? Int(starts[index + 1]) - 1 : end
        return start..<stop
    }

    func isEmpty(_ index: Int) -> Bool { range(index).isEmpty }

    /// The single character of a one-letter field (status, hemisphere, mode), nil when empty.
    @inline(__always)
    func character(_ index: Int) throws(MalformedField) -> UInt8? {
        let r = range(index)
        if r.isEmpty { return nil }
        guard r.count == 1 else { throw MalformedField(index: index) }
        return bytes[r.lowerBound]
    }

    /// An unsigned integer of at most `maximumDigits` digits (leading zeros allowed).
    @inline(__always)
    func unsigned(_ index: Int, maximumDigits: Int = 9) throws(MalformedField) -> Int? {
        let r = range(index)
        if r.isEmpty { return nil }
        guard r.count <= maximumDigits else { throw MalformedField(index: index) }
        var value = 0
        for i in r {
            let digit = bytes[i] &- 0x30
            guard digit < 10 else { throw MalformedField(index: index) }
            value = value &* 10 &+ Int(digit)
        }
        return value
    }

    /// A single hexadecimal digit, either case (the NMEA 4.11 signal ID).
    func hexDigit(_ index: Int) throws(MalformedField) -> Int? {
        guard let c = try character(index) else { return nil }
        guard let value = hexValue(c) else { throw MalformedField(index: index) }
        return Int(value)
    }

    func unsigned(_ index: Int, in allowed: ClosedRange<Int>) throws(MalformedField) -> Int? {
        guard let value = try unsigned(index) else { return nil }
        guard allowed.contains(value) else { throw MalformedField(index: index) }
        return value
    }

    /// A decimal number: optional sign, digits, optional point and digits (at most 18 digits).
    func decimal(_ index: Int) throws(MalformedField) -> NMEADecimal? {
        let r = range(index)
        if r.isEmpty { return nil }
        var i = r.lowerBound
        var negative = false
        if bytes[i] == 0x2D || bytes[i] == 0x2B {
            negative = bytes[i] == 0x2D
            i &+= 1
        }
        var mantissa: Int64 = 0
        var digits = 0
        var scale = 0
        var seenPoint = false
        while i < r.upperBound {
            let c = bytes[i]
            if c == 0x2E, !seenPoint {
                seenPoint = true
            } else {
                let digit = c &- 0x30
                guard digit < 10 else { throw MalformedField(index: index) }
                digits &+= 1
                guard digits <= 18 else { throw MalformedField(index: index) }
                mantissa = mantissa &* 10 &+ Int64(digit)
                if seenPoint { scale &+= 1 }
            }
            i &+= 1
        }
        guard digits > 0 else { throw MalformedField(index: index) }
        return NMEADecimal(mantissa: negative ? -mantissa : mantissa, scale: UInt8(scale))
    }

    /// A non-negative decimal no greater than `maximum` (speeds, courses, DOPs).
    func decimal(_ index: Int, nonNegativeUpTo maximum: Int64) throws(MalformedField) -> NMEADecimal? {
        guard let value = try decimal(index) else { return nil }
        // maximum × 10^scale can exceed Int64 (99 999 with 15 decimals); then no mantissa
        // reaches it.
        let (bound, overflow) = maximum.multipliedReportingOverflow(by: Int64(powersOfTenInteger[Int(value.scale)]))
        guard value.mantissa >= 0, overflow || value.mantissa <= bound else { throw MalformedField(index: index) }
        return value
    }

    /// A decimal of at most `maximum` either side of zero (altitude, geoid separation).
    func decimal(_ index: Int, magnitudeUpTo maximum: Int64) throws(MalformedField) -> NMEADecimal? {
        guard let value = try decimal(index) else { return nil }
        let (bound, overflow) = maximum.multipliedReportingOverflow(by: Int64(powersOfTenInteger[Int(value.scale)]))
        guard overflow || value.mantissa.magnitude <= bound.magnitude else { throw MalformedField(index: index) }
        return value
    }

    /// `hhmmss` with an optional fraction of a second (any number of digits; milliseconds kept,
    /// further digits truncated). Hour ≤ 23, minute ≤ 59, second ≤ 60 (a leap second).
    func timeOfDay(_ index: Int) throws(MalformedField) -> TimeOfDay? {
        let r = range(index)
        if r.isEmpty { return nil }
        guard r.count >= 6 else { throw MalformedField(index: index) }
        var parts = (0, 0, 0)
        for k in 0..<3 {
            let a = bytes[r.lowerBound + 2 * k] &- 0x30, b = bytes[r.lowerBound + 2 * k + 1] &- 0x30
            guard a < 10, b < 10 else { throw MalformedField(index: index) }
            let v = Int(a) * 10 + Int(b)
            switch k {
            case 0: parts.0 = v
            case 1: parts.1 = v
            default: parts.2 = v
            }
        }
        var millisecond = 0
        if r.count > 6 {
            guard bytes[r.lowerBound + 6] == 0x2E else { throw MalformedField(index: index) }
            var weight = 100
            for i in (r.lowerBound + 7)..<r.upperBound {
                let digit = bytes[i] &- 0x30
                guard digit < 10 else { throw MalformedField(index: index) }
                millisecond += Int(digit) * weight
                weight /= 10
            }
        }
        guard let time = TimeOfDay(hour: parts.0, minute: parts.1, second: parts.2, millisecond: millisecond)
        else { throw MalformedField(index: index) }
        return time
    }

    /// `ddmmyy` (RMC): a real date in a two-digit year, whose century `GPSTimeRules` decides.
    /// Feb 29 needs a year divisible by four (every such two-digit year is a leap year in
    /// 1901…2099).
    func twoDigitYearDate(_ index: Int) throws(MalformedField) -> TwoDigitYearDate? {
        guard let value = try unsigned(index, maximumDigits: 6) else { return nil }
        guard range(index).count == 6 else { throw MalformedField(index: index) }
        let day = value / 10000, month = value / 100 % 100, year = value % 100
        guard CalendarDate(year: 2000 + (year == 0 ? 4 : year), month: month, day: day) != nil
        else { throw MalformedField(index: index) }
        return TwoDigitYearDate(day: UInt8(day), month: UInt8(month), yearOfCentury: UInt8(year))
    }

    /// Latitude (`ddmm.mmmm`, N/S) or longitude (`dddmm.mmmm`, E/W) in fields `index` and
    /// `index + 1`. Minutes must be below 60, |latitude| ≤ 90°, |longitude| ≤ 180°. Both fields
    /// empty means absent; one without the other is malformed.
    func angle(_ index: Int, isLatitude: Bool) throws(MalformedField) -> GeoAngle? {
        let r = range(index)
        let hemisphere = try character(index + 1)
        if r.isEmpty {
            guard hemisphere == nil else { throw MalformedField(index: index + 1) }
            return nil
        }
        let negative: Bool
        switch hemisphere {
        case 0x4E where isLatitude, 0x45 where !isLatitude: negative = false  // N, E
        case 0x53 where isLatitude, 0x57 where !isLatitude: negative = true  // S, W
        default: throw MalformedField(index: index + 1)
        }
        var whole = 0
        var integerDigits = 0
        var i = r.lowerBound
        while i < r.upperBound, bytes[i] != 0x2E {
            let digit = bytes[i] &- 0x30
            guard digit < 10 else { throw MalformedField(index: index) }
            whole = whole * 10 + Int(digit)
            integerDigits += 1
            guard integerDigits <= (isLatitude ? 4 : 5) else { throw MalformedField(index: index) }
            i += 1
        }
        guard integerDigits >= 3 else { throw MalformedField(index: index) }
        var fraction: Int64 = 0
        var weight: Int64 = 100_000_000
        if i < r.upperBound {
            i += 1  // the point
            while i < r.upperBound {
                let digit = bytes[i] &- 0x30
                guard digit < 10 else { throw MalformedField(index: index) }
                fraction += Int64(digit) * weight  // digits past the ninth add 0
                weight /= 10
                i += 1
            }
        }
        let degrees = whole / 100, minutes = whole % 100
        guard minutes < 60 else { throw MalformedField(index: index) }
        let angle = GeoAngle(degrees: degrees, minutes: minutes, nanominutesFraction: fraction, negative: negative)
        let limit = (isLatitude ? 90 : 180) * GeoAngle.nanominutesPerDegree
        guard angle.nanominutes.magnitude <= limit else { throw MalformedField(index: index) }
        return angle
    }

    /// Whether field `index` holds exactly `text` (an ASCII literal such as "T" or "M").
    func equals(_ index: Int, _ character: UInt8) -> Bool {
        let r = range(index)
        return r.count == 1 && bytes[r.lowerBound] == character
    }
}

/// An RMC date before its century is known.
public struct TwoDigitYearDate: Sendable, Hashable {
    public var day: UInt8
    public var month: UInt8
    public var yearOfCentury: UInt8
}

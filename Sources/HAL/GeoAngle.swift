/// A latitude or longitude held exactly, in units of 10⁻⁹ arc-minute: the angle of a
/// `Coordinate`.
///
/// NMEA writes angles as degrees and decimal minutes (`4404.14063,N` is 44° 04.14063′ N, RTK
/// receivers send up to 8 decimals of a minute). Converting minutes to degrees divides by 60,
/// which no decimal fixed point holds exactly, so the parser keeps minutes: 180° is
/// 1.08 × 10¹³ nano-minutes, well inside `Int64`, and the one conversion to degrees happens in
/// `degrees` at the edge, as a single correctly rounded division (error ≤ 1e-15°; minmea's
/// `float` gives 7.6e-6° at |lon| ≥ 64°, docs/design/parts.md#the-gps-receiver).
public struct GeoAngle: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Signed: north and east are positive.
    public var nanominutes: Int64

    public init(nanominutes: Int64) { self.nanominutes = nanominutes }

    public init(degrees: Int, minutes: Int, nanominutesFraction: Int64 = 0, negative: Bool = false) {
        let magnitude = (Int64(degrees) * 60 + Int64(minutes)) * 1_000_000_000 + nanominutesFraction
        self.nanominutes = negative ? -magnitude : magnitude
    }

    public static let nanominutesPerDegree: Int64 = 60_000_000_000

    public var degrees: Double { Double(nanominutes) / 60e9 }

    public static func < (a: GeoAngle, b: GeoAngle) -> Bool { a.nanominutes < b.nanominutes }

    public var description: String { String(degrees) }
}

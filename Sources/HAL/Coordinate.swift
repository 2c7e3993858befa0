/// A position on the WGS 84 ellipsoid, held exactly and always in range: latitude −90°…90°,
/// longitude −180°…180°, north and east positive.
///
/// The one coordinate of the device: the GPS's fixes, the store's saved locations, the weather
/// requests, answers and cache, and the logic between them all use it. Both angles are
/// `GeoAngle`s (10⁻⁹ arc-minute in an `Int64`), the finest of the forms those parts need, so
/// none of them loses anything:
/// - a GPS angle (degrees and decimal minutes, up to 8 decimals of a minute) is kept bit for bit;
/// - the store's 10⁻⁷ degree (about 1 cm, two `Int32`s on flash) is exactly 6,000 nano-minutes,
///   so its integers convert both ways without rounding (`init(latitudeE7:longitudeE7:)`,
///   `latitudeE7`);
/// - degrees as a `Double` are rounded once, to the nearest nano-minute (about 2 µm on the
///   ground), and `latitude` gives the same `Double` back for every value of up to 10 decimals,
///   which covers every decimal a person, a board file or a weather service writes.
///
/// Every initializer checks the range and fails with the angle that is out of it (NaN and
/// infinity never get in), so a `Coordinate` needs no `isValid`. Equality and hashing are the
/// integers': no −0.0 or NaN to trip over.
public struct Coordinate: Sendable, Hashable {
    public let latitudeAngle: GeoAngle
    public let longitudeAngle: GeoAngle

    /// Fails when an angle is out of range.
    public init(latitude: GeoAngle, longitude: GeoAngle) throws(CoordinateError) {
        guard latitude.nanominutes.magnitude <= 90 * GeoAngle.nanominutesPerDegree.magnitude else {
            throw .latitudeOutOfRange(latitude.degrees)
        }
        guard longitude.nanominutes.magnitude <= 180 * GeoAngle.nanominutesPerDegree.magnitude else {
            throw .longitudeOutOfRange(longitude.degrees)
        }
        self.init(checkedLatitude: latitude, longitude: longitude)
    }

    /// Degrees, rounded to the nearest nano-minute; fails on NaN, infinity or a value out of range.
    public init(latitude: Double, longitude: Double) throws(CoordinateError) {
        guard latitude.isFinite, abs(latitude) <= 90 else { throw .latitudeOutOfRange(latitude) }
        guard longitude.isFinite, abs(longitude) <= 180 else { throw .longitudeOutOfRange(longitude) }
        let perDegree = Double(GeoAngle.nanominutesPerDegree)
        self.init(
            checkedLatitude: GeoAngle(nanominutes: Int64((latitude * perDegree).rounded())),
            longitude: GeoAngle(nanominutes: Int64((longitude * perDegree).rounded())))
    }

    /// 10⁻⁷ degree, the store's unit, exactly; fails when a value is out of range.
    public init(latitudeE7: Int32, longitudeE7: Int32) throws(CoordinateError) {
        try self.init(
            latitude: GeoAngle(nanominutes: Int64(latitudeE7) * Self.nanominutesPerE7),
            longitude: GeoAngle(nanominutes: Int64(longitudeE7) * Self.nanominutesPerE7))
    }

    private init(checkedLatitude latitude: GeoAngle, longitude: GeoAngle) {
        self.latitudeAngle = latitude
        self.longitudeAngle = longitude
    }

    /// Degrees north (south negative), the nearest `Double`.
    public var latitude: Double { latitudeAngle.degrees }
    /// Degrees east (west negative), the nearest `Double`.
    public var longitude: Double { longitudeAngle.degrees }

    /// Nano-minutes in 10⁻⁷ degree.
    public static let nanominutesPerE7: Int64 = GeoAngle.nanominutesPerDegree / 10_000_000

    /// The latitude in 10⁻⁷ degree, to the nearest (half away from zero): exact for a value
    /// made from the store's integers or rounded to 7 places.
    public var latitudeE7: Int32 { Int32(Self.quotient(latitudeAngle.nanominutes, Self.nanominutesPerE7)) }
    /// The longitude in 10⁻⁷ degree, like `latitudeE7`.
    public var longitudeE7: Int32 { Int32(Self.quotient(longitudeAngle.nanominutes, Self.nanominutesPerE7)) }

    /// Rounded to `places` decimals of a degree, exactly and half away from zero (as
    /// `Double.rounded()`): 2 places is ~1 km, the resolution of the weather models, kind to
    /// the services' caches and to the owner's privacy (docs/design/parts.md#the-weather-service); 4 is the
    /// most MET Norway accepts; 7 is the store's unit. A rounded value stays in range (90° and
    /// 180° are whole); more than 10 places (finer than a nano-minute's grid) leave it as is.
    public func rounded(places: Int = 2) -> Coordinate {
        guard places <= 10 else { return self }
        var unit = GeoAngle.nanominutesPerDegree
        for _ in 0..<max(places, 0) { unit /= 10 }
        // Written out, not through a local function: one that captures `unit` boxes it on the
        // heap in a debug build, and the loop rounds every GPS epoch (0 allocations, docs/design/architecture.md#the-loop).
        return Coordinate(
            checkedLatitude: GeoAngle(nanominutes: Self.quotient(latitudeAngle.nanominutes, unit) * unit),
            longitude: GeoAngle(nanominutes: Self.quotient(longitudeAngle.nanominutes, unit) * unit))
    }

    /// `value / divisor` rounded half away from zero (`divisor` > 0; |value| ≤ 1.08 × 10¹³, so
    /// nothing overflows).
    private static func quotient(_ value: Int64, _ divisor: Int64) -> Int64 {
        let half = divisor / 2
        return value >= 0 ? (value + half) / divisor : -((-value + half) / divisor)
    }
}

/// Which angle of a coordinate is out of range, and its value in degrees.
public enum CoordinateError: Error, Sendable, Equatable, CustomStringConvertible {
    case latitudeOutOfRange(Double)
    case longitudeOutOfRange(Double)

    public var description: String {
        switch self {
        case .latitudeOutOfRange(let v): "latitude \(v) is outside −90…90"
        case .longitudeOutOfRange(let v): "longitude \(v) is outside −180…180"
        }
    }
}

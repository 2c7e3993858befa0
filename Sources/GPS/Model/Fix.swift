import HAL

/// What the receiver's fix says about the position (gpsd's TPV `mode`).
public enum FixMode: Int, Sendable, Comparable, CustomStringConvertible {
    /// No sentence of the epoch said anything about the fix.
    case unknown = 0
    case noFix = 1
    case twoD = 2
    case threeD = 3

    public static func < (a: FixMode, b: FixMode) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .noFix: "no fix"
        case .twoD: "2D"
        case .threeD: "3D"
        }
    }
}

/// How the fix was obtained: the GGA quality indicator (NMEA 0183 4.11 §GGA; 0 is "invalid").
public enum FixQuality: UInt8, Sendable, CustomStringConvertible {
    case invalid = 0
    case gps = 1
    case differential = 2
    case pps = 3
    case rtkFixed = 4
    case rtkFloat = 5
    case deadReckoning = 6
    case manual = 7
    case simulated = 8

    public var description: String {
        switch self {
        case .invalid: "invalid"
        case .gps: "GPS"
        case .differential: "DGPS"
        case .pps: "PPS"
        case .rtkFixed: "RTK fixed"
        case .rtkFloat: "RTK float"
        case .deadReckoning: "dead reckoning"
        case .manual: "manual"
        case .simulated: "simulated"
        }
    }
}

/// One receiver epoch merged from all the sentences that carried its time of day.
///
/// A value type with no references, so a fix can be kept, copied and compared without touching
/// the heap. Absent fields are `nil`, never 0: an empty NMEA field means "not known".
public struct Fix: Sendable, Equatable {
    /// The UTC time of day that keys the epoch.
    public var timeOfDay: TimeOfDay?
    /// The full UTC time, when a date is known (carried from the last RMC or ZDA) and the
    /// receiver's time is believable (see `GPSTimeRules`).
    public var time: UTCTime?
    /// Whether `time` came from a valid RMC or a ZDA in an epoch with a fix: only then may it
    /// set a clock (and only after two consistent epochs, see `ClockGate`).
    public var timeIsTrusted = false
    public var mode: FixMode = .unknown
    public var quality: FixQuality?
    public var latitude: GeoAngle?
    public var longitude: GeoAngle?
    /// Altitude above mean sea level, metres (GGA, GNS).
    public var altitudeMSL: NMEADecimal?
    /// Geoid separation (WGS 84 ellipsoid minus mean sea level), metres.
    public var geoidSeparation: NMEADecimal?
    /// Speed over ground, knots as sent (RMC, VTG). See `speedMetresPerSecond`.
    public var speedKnots: NMEADecimal?
    /// Course over ground, degrees true.
    public var track: NMEADecimal?
    public var satellitesUsed: Int?
    public var hdop: NMEADecimal?
    public var pdop: NMEADecimal?
    public var vdop: NMEADecimal?

    public init() {}

    /// A position the receiver vouches for: mode 2D or 3D (which the epoch rules grant only
    /// when no indicator of the epoch says invalid and the position is present and in range).
    public var isValid: Bool { mode >= .twoD }

    /// The position, when both angles are present and in range.
    public var coordinate: Coordinate? {
        guard let latitude, let longitude else { return nil }
        return try? Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Speed over ground in m/s, as gpsd reports it (1 knot = 1852 m / 3600 s).
    public var speedMetresPerSecond: Double? {
        speedKnots.map { $0.doubleValue * 1852.0 / 3600.0 }
    }
}

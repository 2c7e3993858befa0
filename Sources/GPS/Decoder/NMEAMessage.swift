import HAL

/// A decoded NMEA 0183 sentence. Every field that was empty is `nil`.
///
/// Plain values with inline storage, so decoding a sentence never touches the heap; TXT keeps
/// only the position of its text in the sentence bytes.
public enum NMEAMessage: Sendable, Equatable {
    case rmc(RMC)
    case gga(GGA)
    case gns(GNS)
    case gll(GLL)
    case gsa(GSA)
    case gsv(GSV)
    case vtg(VTG)
    case zda(ZDA)
    case txt(TXT)
}

/// The FAA mode indicator (NMEA 2.3+) of RMC, GLL, VTG and each GNS system.
public enum FAAMode: UInt8, Sendable {
    case autonomous = 0x41  // A
    case differential = 0x44  // D
    case estimated = 0x45  // E (dead reckoning)
    case floatRTK = 0x46  // F
    case manual = 0x4D  // M
    case notValid = 0x4E  // N
    case precise = 0x50  // P
    case rtk = 0x52  // R
    case simulator = 0x53  // S

    /// Whether this mode says there is no usable position. Garmin's `S` (simulator) counts as
    /// not valid for a real device, as do `M` (a position typed in by hand) and `E`.
    public var saysInvalid: Bool {
        switch self {
        case .notValid, .simulator, .manual, .estimated: true
        default: false
        }
    }
}

/// Recommended minimum data: time, date, status, position, speed, course.
public struct RMC: Sendable, Equatable {
    public var time: TimeOfDay?
    /// `A` (true) or `V` (false).
    public var statusValid: Bool?
    public var latitude: GeoAngle?
    public var longitude: GeoAngle?
    public var speedKnots: NMEADecimal?
    public var course: NMEADecimal?
    public var date: TwoDigitYearDate?
    public var magneticVariation: NMEADecimal?
    public var mode: FAAMode?
    /// NMEA 4.10 navigational status (`S` safe, `C` caution, `U` unsafe, `V` not provided).
    /// Informational only: u-blox sends `V` with every fix, and pynmea2 1.19 called u-blox fixes
    /// invalid by reading it as a validity flag (#162).
    public var navigationalStatus: UInt8?
}

/// Fix data: time, position, quality, satellites, HDOP, altitude.
public struct GGA: Sendable, Equatable {
    public var time: TimeOfDay?
    public var latitude: GeoAngle?
    public var longitude: GeoAngle?
    public var quality: FixQuality?
    public var satellitesUsed: Int?
    public var hdop: NMEADecimal?
    public var altitudeMSL: NMEADecimal?
    public var geoidSeparation: NMEADecimal?
}

/// GNSS fix data (NMEA 3.0+): GGA's fields with one mode character per constellation.
public struct GNS: Sendable, Equatable {
    public var time: TimeOfDay?
    public var latitude: GeoAngle?
    public var longitude: GeoAngle?
    /// Mode characters, one per system (GPS, GLONASS, Galileo, BeiDou, QZSS, NavIC).
    public var modes = InlineArray<6, UInt8>(repeating: 0)
    public var modeCount = 0
    public var satellitesUsed: Int?
    public var hdop: NMEADecimal?
    public var altitudeMSL: NMEADecimal?
    public var geoidSeparation: NMEADecimal?

    /// True when every system says `N`, nil when the field is empty.
    public var saysNoFix: Bool? {
        guard modeCount > 0 else { return nil }
        for i in 0..<modeCount where modes[i] != FAAMode.notValid.rawValue { return false }
        return true
    }

    public static func == (a: GNS, b: GNS) -> Bool {
        guard a.modeCount == b.modeCount else { return false }
        for i in 0..<a.modeCount where a.modes[i] != b.modes[i] { return false }
        return (a.time, a.latitude, a.longitude, a.satellitesUsed) == (b.time, b.latitude, b.longitude, b.satellitesUsed)
            && (a.hdop, a.altitudeMSL, a.geoidSeparation) == (b.hdop, b.altitudeMSL, b.geoidSeparation)
    }
}

/// Geographic position: latitude, longitude, time, status.
public struct GLL: Sendable, Equatable {
    public var latitude: GeoAngle?
    public var longitude: GeoAngle?
    public var time: TimeOfDay?
    public var statusValid: Bool?
    public var mode: FAAMode?
}

/// DOP and active satellites. Multi-GNSS receivers send one GSA per constellation per epoch,
/// each with the NMEA 4.11 system ID when they follow 4.11.
public struct GSA: Sendable, Equatable {
    /// 1 = no fix, 2 = 2D, 3 = 3D.
    public var fixType: Int?
    public var satellites = InlineArray<12, UInt16>(repeating: 0)
    public var satelliteCount = 0
    public var pdop: NMEADecimal?
    public var hdop: NMEADecimal?
    public var vdop: NMEADecimal?
    public var system: GNSSSystem?

    public static func == (a: GSA, b: GSA) -> Bool {
        guard a.satelliteCount == b.satelliteCount else { return false }
        for i in 0..<a.satelliteCount where a.satellites[i] != b.satellites[i] { return false }
        return (a.fixType, a.pdop, a.hdop, a.vdop, a.system) == (b.fixType, b.pdop, b.hdop, b.vdop, b.system)
    }
}

/// One satellite of a GSV sentence, in the narrowest types its ranges allow: a GSV carries
/// four, and every byte of the message is copied on its way from the decoder to the epochs.
public struct SatelliteInView: Sendable, Equatable {
    public var prn: UInt16
    /// Degrees above the horizon, 0…90.
    public var elevation: UInt8?
    /// Degrees from true north, 0…360.
    public var azimuth: UInt16?
    /// Carrier-to-noise density, dB-Hz; nil when the satellite is not tracked.
    public var snr: UInt8?
}

/// Satellites in view: up to four per sentence, in a group of `totalMessages`.
public struct GSV: Sendable, Equatable {
    public var totalMessages: Int
    public var messageNumber: Int
    public var satellitesInView: Int?
    public var satellites = InlineArray<4, SatelliteInView>(repeating: SatelliteInView(prn: 0))
    public var satelliteCount = 0
    /// NMEA 4.10+ signal ID (1 = GPS L1 C/A, …): the field after the last satellite. It is not a
    /// satellite (minmea and pynmea2 read it as one, docs/design/parts.md#the-gps-receiver).
    public var signalID: Int?

    public static func == (a: GSV, b: GSV) -> Bool {
        guard a.satelliteCount == b.satelliteCount else { return false }
        for i in 0..<a.satelliteCount where a.satellites[i] != b.satellites[i] { return false }
        return (a.totalMessages, a.messageNumber, a.satellitesInView, a.signalID)
            == (b.totalMessages, b.messageNumber, b.satellitesInView, b.signalID)
    }
}

/// Course and speed over ground.
public struct VTG: Sendable, Equatable {
    public var trackTrue: NMEADecimal?
    public var trackMagnetic: NMEADecimal?
    public var speedKnots: NMEADecimal?
    public var speedKilometresPerHour: NMEADecimal?
    public var mode: FAAMode?
}

/// Time and date with a four-digit year, and the local zone.
public struct ZDA: Sendable, Equatable {
    public var time: TimeOfDay?
    public var date: CalendarDate?
    public var zoneHours: Int?
    public var zoneMinutes: Int?
}

/// A text message (antenna status, firmware version, …).
public struct TXT: Sendable, Equatable {
    public var totalMessages: Int?
    public var messageNumber: Int?
    /// 00 error, 01 warning, 02 notice, 07 user.
    public var textType: Int?
    /// Where the text lies in the sentence bytes.
    public var textRange: Range<Int>
}

/// The two-character talker of a sentence (`GP`, `GN`, `BD`, …), kept as its ASCII bytes.
///
/// Every talker is accepted: allow-lists dropped `IN`, `GQ` and `GI` in gpsd, QGIS and others
/// (docs/design/parts.md#the-gps-receiver). `system` names the constellation where the talker implies one.
public struct NMEATalker: Sendable, Hashable, CustomStringConvertible {
    public var first: UInt8
    public var second: UInt8

    public init(_ first: UInt8, _ second: UInt8) {
        self.first = first
        self.second = second
    }

    public init(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount == 2)
        first = text.utf8Start[0]
        second = text.utf8Start[1]
    }

    public var description: String { String(decoding: [first, second], as: UTF8.self) }

    /// The constellation this talker reports, or nil for GN (combined) and non-GNSS talkers.
    public var system: GNSSSystem? {
        switch (first, second) {
        case (0x47, 0x50): .gps  // GP
        case (0x47, 0x4C): .glonass  // GL
        case (0x47, 0x41): .galileo  // GA
        case (0x47, 0x42), (0x42, 0x44): .beidou  // GB, BD
        case (0x47, 0x51), (0x51, 0x5A): .qzss  // GQ, QZ
        case (0x47, 0x49), (0x49, 0x4E): .navic  // GI, IN (NMEA 4.11 uses GI; IN is legacy)
        default: nil
        }
    }
}

/// A GNSS constellation, numbered as NMEA 0183 4.11 numbers its system ID (GSA and GSV field).
public enum GNSSSystem: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case gps = 1
    case glonass = 2
    case galileo = 3
    case beidou = 4
    case qzss = 5
    case navic = 6

    public var description: String {
        switch self {
        case .gps: "GPS"
        case .glonass: "GLONASS"
        case .galileo: "Galileo"
        case .beidou: "BeiDou"
        case .qzss: "QZSS"
        case .navic: "NavIC"
        }
    }
}

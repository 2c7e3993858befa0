import CPlaceData

/// An IANA time zone of the generated table (timezone-boundary-builder's zones, the open sea's
/// `Etc/GMT±N` among them). The name is the key into tzdata, which holds the rules.
public struct Zone: Sendable, Hashable, CustomStringConvertible {
    /// The zone's number in the table.
    public let index: Int

    init(index: Int) { self.index = index }

    /// The zone named exactly `name`, or nil when the table has no such zone.
    public init?(named name: String) {
        var name = name
        let found = name.withUTF8 { wanted in
            (0..<Zone.count).first { index in
                Zone(index: index).nameUTF8.elementsEqual(wanted)
            }
        }
        guard let found else { return nil }
        self.index = found
    }

    /// How many zones the table names.
    public static var count: Int { Int(ZONES_COUNT) }

    /// Every zone of the table, in table order.
    public static var all: [Zone] { (0..<count).map(Zone.init(index:)) }

    /// The IANA name, e.g. "Australia/Broken_Hill" (makes a `String`: not for the steady state).
    public var name: String { String(decoding: nameUTF8, as: UTF8.self) }

    /// The name's bytes in the table's read-only data: no allocation.
    public var nameUTF8: UnsafeBufferPointer<UInt8> {
        let start = Int(ZoneData.nameOffsets[index])
        var end = start
        while ZoneData.names[end] != 0 { end += 1 }
        return UnsafeBufferPointer(start: ZoneData.names + start, count: end - start)
    }

    /// Whether the two zones have kept the same clock (UT offset and DST at every instant) since
    /// 1970 by tzdata, as the generator found from the TZif files: Europe/Oslo and Europe/Berlin,
    /// Africa/Lagos and Etc/GMT-1. Such zones differ in name (and in their history) only.
    public func keepsSameClock(as other: Zone) -> Bool {
        ZoneData.classes[index] == ZoneData.classes[other.index]
    }

    public var description: String { name }
}

/// The generated table (Sources/CPlaceData/zones.c).
enum ZoneData {
    static var tree: UnsafePointer<UInt8> { thunderstorm_zones.tree }
    static var regionOffsets: UnsafePointer<UInt32> { thunderstorm_zones.region_offsets }
    static var paletteStarts: UnsafePointer<UInt16> { thunderstorm_zones.palette_starts }
    static var palette: UnsafePointer<UInt16> { thunderstorm_zones.palette }
    static var sea: UnsafePointer<UInt16> { thunderstorm_zones.sea }
    static var classes: UnsafePointer<UInt16> { thunderstorm_zones.classes }
    static var nameOffsets: UnsafePointer<UInt16> { thunderstorm_zones.name_offsets }
    static var names: UnsafePointer<UInt8> { thunderstorm_zones.names }
}

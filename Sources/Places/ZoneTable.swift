#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPlaceData
import HAL

/// The zone at a position and how far the nearest change of clock is.
public struct ZoneFix: Sendable, Hashable {
    /// The IANA zone.
    public let zone: Zone
    /// At least this far (metres) to the nearest border on land between zones that keep
    /// different clocks (the 12-mile limit of the territorial sea does not count; at sea, the
    /// edges of the 15° bands do), a lower bound from the table: 0 in a cell a border crosses at
    /// the table's finest level, else the distance to the cell's edge plus the cell's stored
    /// margin (whole km), or the distance to the straight chord that stands for the border in a
    /// split cell. The device
    /// keeps its zone until a fix in another one is this far inside it (no flapping on a road
    /// along a border).
    public let borderMeters: Int
    /// True on the open sea, where the zone is timezone-boundary-builder's 15° band.
    public let atSea: Bool
}

/// The IANA zone for any position, from the quadtree Tools/places/zones.py generates from
/// timezone-boundary-builder's polygons (layout: Sources/CPlaceData/include/zones.h). No
/// allocation; a lookup reads one region's bytes down at most 7 levels.
public enum ZoneTable {
    /// The zone at `position`.
    public static func zone(at position: Coordinate) -> ZoneFix {
        // Fixed point: 2³² units to 360° on both axes; the latitude uses the lower half.
        let x = fixed(position.longitudeAngle.nanominutes + 180 * 60_000_000_000)
        let y = min(fixed(position.latitudeAngle.nanominutes + 90 * 60_000_000_000), (1 << 31) - 1)
        let region = Int(y >> 26) * 64 + Int(x >> 26)
        let tree = ZoneData.tree
        let palette = ZoneData.palette + Int(ZoneData.paletteStarts[region])
        var at = Int(ZoneData.regionOffsets[region])
        var kind = tree[at]
        at += 1
        var shift: UInt32 = 26  // log2 of the cell's side in fixed-point units
        var cellX = x & ~((1 << shift) - 1)
        var cellY = y & ~((1 << shift) - 1)
        while kind == Kind.node {
            _ = readVarint(tree, &at)
            let tag = tree[at]
            at += 1
            shift -= 1
            let east = (x >> shift) & 1
            let north = (y >> shift) & 1
            let child = Int(north << 1 | east)
            for sibling in 0..<child {
                skip(kind: (tag >> (2 * UInt8(sibling))) & 3, tree, &at)
            }
            kind = (tag >> (2 * UInt8(child))) & 3
            cellX |= east << shift
            cellY |= north << shift
        }
        let cell = Cell(x: x, y: y, cellX: cellX, cellY: cellY, shift: shift, latitude: position.latitude)
        switch kind {
        case Kind.zone:
            let zone = Zone(index: Int(palette[Int(tree[at])]))
            let margin = Int(tree[at + 1])
            let meters = margin == 0 ? 0 : cell.metersToEdge + (margin - 1) * 1000
            return ZoneFix(zone: zone, borderMeters: meters, atSea: false)
        case Kind.split:
            let packed = Int(tree[at + 2]) | Int(tree[at + 3]) << 8 | Int(tree[at + 4]) << 16
            let (left, meters) = cell.chord(from: packed & 0xFFF, to: packed >> 12)
            let zone = Zone(index: Int(palette[Int(tree[left ? at : at + 1])]))
            return ZoneFix(zone: zone, borderMeters: min(meters, cell.metersToEdge), atSea: false)
        default:
            return sea(position, cell, margin: Int(tree[at]))
        }
    }

    /// The open sea: 15° bands centred on multiples of 15°, Etc/GMT-12 east of 172.5° E and
    /// Etc/GMT+12 west of 172.5° W (timezone-boundary-builder's ocean zones).
    private static func sea(_ position: Coordinate, _ cell: Cell, margin: Int) -> ZoneFix {
        // Band edges at 7.5° + 15°·k: in nano-minutes, 450·10⁹ + 900·10⁹·k.
        let east = position.longitudeAngle.nanominutes + 180 * 60_000_000_000  // 0 ... 21.6·10¹²
        let band = min(Int((east + 450_000_000_000) / 900_000_000_000), 24)  // 0 (GMT+12) ... 24 (GMT-12)
        let zone = Zone(index: Int(ZoneData.sea[band]))
        // The distance to the band's edges along the parallel (the antimeridian is none).
        let west = band == 0 ? Int64.max : east - (Int64(band) * 900_000_000_000 - 450_000_000_000)
        let eastEdge = band == 24 ? Int64.max : Int64(band) * 900_000_000_000 + 450_000_000_000 - east
        let degrees = Double(min(west, eastEdge)) / Double(GeoAngle.nanominutesPerDegree)
        let meters = degrees * metersPerDegree * cos(cell.latitude * .pi / 180)
        let outside = margin == 0 ? 0 : cell.metersToEdge + (margin - 1) * 1000
        return ZoneFix(zone: zone, borderMeters: min(Int(meters), outside), atSea: true)
    }

    private static func fixed(_ nanominutesFromZero: Int64) -> UInt32 {
        // 360° is 21.6·10¹² nano-minutes; (n · 2³²) / 21.6·10¹² fits an Int128.
        UInt32(clamping: (Int128(nanominutesFromZero) << 32) / 21_600_000_000_000)
    }

    private static func readVarint(_ tree: UnsafePointer<UInt8>, _ at: inout Int) -> Int {
        var value = 0
        var shift = 0
        while true {
            let byte = tree[at]
            at += 1
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    private static func skip(kind: UInt8, _ tree: UnsafePointer<UInt8>, _ at: inout Int) {
        switch kind {
        case Kind.sea: at += 1
        case Kind.zone: at += 2
        case Kind.split: at += 5
        default:
            let length = readVarint(tree, &at)
            at += length
        }
    }

    private enum Kind {
        static let sea: UInt8 = 0
        static let zone: UInt8 = 1
        static let split: UInt8 = 2
        static let node: UInt8 = 3
    }

    /// A degree of a great circle on the places' sphere (`PlaceTable.earthRadiusMeters`).
    static let metersPerDegree = PlaceTable.earthRadiusMeters * .pi / 180

    /// A leaf cell and the point in it, for the distances.
    // A cell's margin code (zone and sea cells): 0 when a border between clocks crosses the cell
    // (the distance is then unknown: 0), else 1 + the whole km from the cell to the nearest one,
    // so that the distance to the cell's edge plus the margin is a lower bound.
    private struct Cell {
        let x, y, cellX, cellY: UInt32
        let shift: UInt32
        let latitude: Double

        private var degreesPerUnit: Double { 360 / 4_294_967_296 }

        /// The distance to the nearest edge of the cell: north–south exact, east–west on the
        /// point's parallel.
        var metersToEdge: Int {
            let side = UInt64(1) << shift
            let west = UInt64(x - cellX), south = UInt64(y - cellY)
            let eastWest = Double(min(west, side - west)) * degreesPerUnit * cos(latitude * .pi / 180)
            let northSouth = Double(min(south, side - south)) * degreesPerUnit
            return Int(min(eastWest, northSouth) * ZoneTable.metersPerDegree)
        }

        /// Whether the point is left of the chord `from`→`to` (perimeter positions, 1024 to a
        /// side), by the generator's exact integer test, and its distance from the chord.
        func chord(from: Int, to: Int) -> (left: Bool, meters: Int) {
            let (ex, ey) = Self.local(from), (fx, fy) = Self.local(to)
            let down = shift - 10
            let lx = Int64((x - cellX) >> down), ly = Int64((y - cellY) >> down)
            let cross = (fx - ex) * (ly - ey) - (fy - ey) * (lx - ex)
            // The distance in degrees with the east–west part on the point's parallel.
            let unit = Double(UInt64(1) << down) * degreesPerUnit
            let scale = cos(latitude * .pi / 180)
            let dx = Double(fx - ex) * unit * scale, dy = Double(fy - ey) * unit
            let px = Double(lx - ex) * unit * scale, py = Double(ly - ey) * unit
            let length = (dx * dx + dy * dy).squareRoot()
            let distance = length > 0 ? abs(dx * py - dy * px) / length : 0
            return (cross > 0, Int(distance * ZoneTable.metersPerDegree))
        }

        private static func local(_ position: Int) -> (Int64, Int64) {
            let t = Int64(position & 1023), side: Int64 = 1024
            switch position >> 10 {
            case 0: return (t, 0)
            case 1: return (side, t)
            case 2: return (side - t, side)
            default: return (0, side - t)
            }
        }
    }
}

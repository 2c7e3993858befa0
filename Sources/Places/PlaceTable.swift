#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPlaceData
import HAL

/// The populated places the device knows without a network, and the nearest of them to a
/// position (docs/design/decisions.md#the-zone-table).
///
/// Distances are great-circle distances on a sphere of radius `earthRadiusMeters` (the IUGG
/// mean radius R₁), by the haversine formula; against the WGS 84 ellipsoid that is within about
/// 0.5 %, far below what naming a place needs. `nearest(to:)` is exact on that sphere for the
/// stored positions (10⁻⁴ degree): it returns the place that a scan of the whole table returns
/// (`nearestByScanning(to:)`), ties to the lower index, across the antimeridian and at the
/// poles, and it allocates nothing.
public enum PlaceTable {
    /// The IUGG mean Earth radius R₁ = (2a + b) / 3 of WGS 84, in metres.
    public static let earthRadiusMeters = 6_371_008.8

    /// The number of places, at least 1.
    public static var count: Int { PlaceGrid.count }

    /// The place at `index`; `index` must be in `0..<count`.
    public static func place(at index: Int) -> Place {
        precondition(index >= 0 && index < count, "place index \(index) is outside 0..<\(count)")
        return Place(checkedIndex: index)
    }

    /// The place nearest to `coordinate` and its distance. No allocation; a few microseconds at
    /// most in a release build (Benchmarks/PlacesBenchmarks).
    ///
    /// The search (`PlaceSearch`) visits the cells of the grid in rings of rows and, within a
    /// row, outwards in longitude, and skips a row, a cell or a place only when a lower bound
    /// of its distance already exceeds the best found, so no place it does not examine can be
    /// closer.
    public static func nearest(to coordinate: Coordinate) -> NearbyPlace {
        var search = PlaceSearch(coordinate)
        search.run()
        return search.result
    }

    /// The same answer as `nearest(to:)`, by computing the distance to every place: the
    /// reference that the search is tested against. Milliseconds.
    package static func nearestByScanning(to coordinate: Coordinate) -> NearbyPlace {
        let query = PlaceQuery(coordinate)
        var bestIndex = -1
        var bestH = Double.infinity
        for row in 0..<PlaceGrid.rows {
            for cell in PlaceGrid.cells(ofRow: row) {
                let corner = PlaceGrid.corner(row: row, column: PlaceGrid.column(ofCell: cell))
                for index in PlaceGrid.places(ofCell: cell) {
                    let offset = thunderstorm_places.offset[index]
                    let h = query.haversine(
                        latitudeUnits: corner.latitude + Int(offset.latitude),
                        longitudeUnits: corner.longitude + Int(offset.longitude))
                    if h < bestH {
                        bestH = h
                        bestIndex = index
                    }
                }
            }
        }
        return NearbyPlace(place: Place(checkedIndex: bestIndex), distanceMeters: PlaceQuery.meters(haversine: bestH))
    }
}

/// A query position and the values of it that every distance needs.
struct PlaceQuery {
    static let radiansPerUnit = Double.pi / 180 / Double(PlaceGrid.unitsPerDegree)
    static let unitsPerRadian = 180 / Double.pi * Double(PlaceGrid.unitsPerDegree)

    /// φ₁ and λ₁ in radians.
    let latitude: Double
    let longitude: Double
    let sinLatitude: Double
    let cosLatitude: Double
    /// φ₁ and λ₁ in units (10⁻⁴ degree).
    let latitudeUnits: Double
    let longitudeUnits: Double
    /// The query's own cell.
    let row: Int
    let column: Int

    init(_ coordinate: Coordinate) {
        let degreesLatitude = coordinate.latitude
        let degreesLongitude = coordinate.longitude
        latitude = degreesLatitude * (Double.pi / 180)
        longitude = degreesLongitude * (Double.pi / 180)
        sinLatitude = sin(latitude)
        cosLatitude = max(0, cos(latitude))
        latitudeUnits = degreesLatitude * Double(PlaceGrid.unitsPerDegree)
        longitudeUnits = degreesLongitude * Double(PlaceGrid.unitsPerDegree)
        row = min(max(Int(degreesLatitude.rounded(.down)) + 90, 0), PlaceGrid.rows - 1)
        column = min(max(Int(degreesLongitude.rounded(.down)) + 180, 0), PlaceGrid.columns - 1)
    }

    /// The haversine of the central angle to a stored position:
    /// hav θ = sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2), which grows with the distance (θ in 0…π).
    /// One function for the search and the scan, so both compare the very same numbers.
    @inline(__always)
    func haversine(latitudeUnits: Int, longitudeUnits: Int) -> Double {
        let phi = Double(latitudeUnits) * Self.radiansPerUnit
        let lambda = Double(longitudeUnits) * Self.radiansPerUnit
        let halfLatitude = sin((phi - latitude) / 2)
        let halfLongitude = sin((lambda - longitude) / 2)
        return halfLatitude * halfLatitude + cosLatitude * cos(phi) * halfLongitude * halfLongitude
    }

    /// Metres on the sphere for a haversine: d = 2R asin √h.
    static func meters(haversine h: Double) -> Int {
        Int((2 * PlaceTable.earthRadiusMeters * asin(min(1, max(0, h)).squareRoot())).rounded())
    }

    /// |a − b| for two longitudes in units, the short way round: 0…180°.
    @inline(__always)
    static func longitudeGap(_ a: Double, _ b: Double) -> Double {
        let gap = abs(a - b)
        let full = Double(360 * PlaceGrid.unitsPerDegree)
        return gap > full / 2 ? max(0, full - gap) : gap
    }
}

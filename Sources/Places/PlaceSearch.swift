#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPlaceData
import HAL

/// The nearest-place search over the grid of `PlaceGrid`, exact by construction.
///
/// Everything is compared as a haversine h = hav(θ) of the central angle θ, which grows with
/// the distance. The search keeps the best place found and `limit`, its h plus a margin (10⁻¹²
/// relative and absolute, about 13 m at the closest; the rounding of any h here, the stepped
/// sines of the row edges included, is below 10⁻¹³), and skips
/// a part of the table only when a lower bound of every h in it, computed in the same way,
/// exceeds `limit`. Bounds, for a query at latitude φ₁:
/// - a row (latitudes a…b): every point in it is at least the meridian distance from φ₁ to the
///   band, hav(Δφ) ≥ sin²(Δφ/2);
/// - a cell (the row's band, longitudes at least δ from λ₁ the short way round): for a fixed
///   latitude φ the distance grows with δ in 0…π, so the cell is no closer than the points at
///   gap δ, h(φ) = sin²((φ − φ₁)/2) + cos φ₁ cos φ sin²(δ/2). Over φ in a…b, cos θ =
///   sin φ₁ sin φ + cos φ₁ cos φ cos δ = A cos(φ − φ*) with φ* = atan2(sin φ₁, cos φ₁ cos δ): when
///   cos δ > 0 the nearest point is at φ* if a < φ* < b, else at an end; when cos δ ≤ 0 it is at an
///   end (the geokdbush bound, mourner/geokdbush). Walking outwards in a row, δ only grows, so the
///   first cell past `limit` ends that direction; walking outwards in rows likewise;
/// - a place in a scanned cell: its latitude gap alone (h ≥ sin²(Δφ/2)), and its longitude gap
///   with cos φ at least the band's smallest, h ≥ cos φ₁ cos φ_min sin²(Δλ/2); both as windows
///   in 10⁻⁴ degree, widened by 10⁻⁹ relative and 10⁻⁶ absolute for rounding.
/// Places that pass are measured with `PlaceQuery.haversine`, the scan's own function, and an
/// equal h goes to the lower index, as in the scan.
struct PlaceSearch {
    let query: PlaceQuery
    private(set) var bestIndex = -1
    private(set) var bestH = Double.infinity
    /// `bestH` plus the rounding margin: a bound above it cannot hide a place as near as the best.
    private var limit = Double.infinity

    init(_ coordinate: Coordinate) {
        query = PlaceQuery(coordinate)
    }

    var result: NearbyPlace {
        precondition(bestIndex >= 0, "the place table is empty")
        return NearbyPlace(place: Place(checkedIndex: bestIndex), distanceMeters: PlaceQuery.meters(haversine: bestH))
    }

    mutating func run() {
        // The sines and cosines of the rows' edges (whole degrees), stepped by a rotation of 1°
        // from the query's row outwards instead of computed per row: after 180 steps they are
        // off by ~10⁻¹⁴, well within the margin.
        let step = Edge(sin: sin(Double.pi / 180), cos: cos(Double.pi / 180))
        let firstSouth = Double(query.row - 90) * (Double.pi / 180)
        var northEdge = Edge(sin: sin(firstSouth + Double.pi / 180), cos: cos(firstSouth + Double.pi / 180))
        var southEdge = Edge(sin: sin(firstSouth), cos: cos(firstSouth))
        visit(Band(row: query.row, south: southEdge, north: northEdge, query: query))
        var north = query.row + 1
        var south = query.row - 1
        while north < PlaceGrid.rows || south >= 0 {
            if north < PlaceGrid.rows {
                let next = northEdge.rotated(by: step, north: true)
                let band = Band(row: north, south: northEdge, north: next, query: query)
                if band.bound > limit {
                    north = PlaceGrid.rows
                } else {
                    visit(band)
                    northEdge = next
                    north += 1
                }
            }
            if south >= 0 {
                let next = southEdge.rotated(by: step, north: false)
                let band = Band(row: south, south: next, north: southEdge, query: query)
                if band.bound > limit {
                    south = -1
                } else {
                    visit(band)
                    southEdge = next
                    south -= 1
                }
            }
        }
    }

    /// sin and cos of a latitude.
    struct Edge {
        var sin: Double
        var cos: Double

        /// One step north (or south): the angle-sum formulas.
        @inline(__always)
        func rotated(by step: Edge, north: Bool) -> Edge {
            let s = north ? step.sin : -step.sin
            return Edge(sin: sin * step.cos + cos * s, cos: cos * step.cos - sin * s)
        }
    }

    /// The listed cells of a row, outwards from the query's column: east for column steps
    /// 0…180, west for 1…179 (so every cell once), each direction until a cell's bound passes
    /// `limit`.
    private mutating func visit(_ band: Band) {
        let cells = PlaceGrid.cells(ofRow: band.row)
        let n = cells.count
        guard n > 0 else { return }
        // The first listed cell at or east of the query's column (n: wraps to the first).
        var low = 0, high = n
        while low < high {
            let middle = (low + high) / 2
            if PlaceGrid.column(ofCell: cells.lowerBound + middle) < query.column { low = middle + 1 } else { high = middle }
        }
        let start = low
        let columns = PlaceGrid.columns
        for step in 0..<n {
            let cell = cells.lowerBound + (start + step) % n
            let column = PlaceGrid.column(ofCell: cell)
            guard (column - query.column + columns) % columns <= columns / 2 else { break }
            guard band.bound(cellColumn: column, query: query) <= limit else { break }
            scan(cell: cell, column: column, band: band)
        }
        for step in 1...n {
            let cell = cells.lowerBound + (start - step + n) % n
            let column = PlaceGrid.column(ofCell: cell)
            let west = (query.column - column + columns) % columns
            guard west >= 1, west < columns / 2 else { break }
            guard band.bound(cellColumn: column, query: query) <= limit else { break }
            scan(cell: cell, column: column, band: band)
        }
    }

    /// Every place of a cell that passes the latitude and longitude windows.
    private mutating func scan(cell: Int, column: Int, band: Band) {
        let table = thunderstorm_places
        let corner = PlaceGrid.corner(row: band.row, column: column)
        let places = PlaceGrid.places(ofCell: cell)
        let relativeLatitude = query.latitudeUnits - Double(corner.latitude)
        var windows = Windows(limit: limit, band: band, query: query)
        // Places are sorted by latitude in a cell: start at the window's south edge.
        var low = places.lowerBound, high = places.upperBound
        let south = relativeLatitude - windows.latitude
        while low < high {
            let middle = (low + high) / 2
            if Double(table.offset[middle].latitude) < south { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < places.upperBound {
            let offset = table.offset[index]
            let gap = Double(offset.latitude) - relativeLatitude
            if gap > windows.latitude { break }
            let longitudeUnits = corner.longitude + Int(offset.longitude)
            if -gap <= windows.latitude,
                PlaceQuery.longitudeGap(Double(longitudeUnits), query.longitudeUnits) <= windows.longitude
            {
                let h = query.haversine(latitudeUnits: corner.latitude + Int(offset.latitude), longitudeUnits: longitudeUnits)
                if h < bestH || (h == bestH && index < bestIndex) {
                    bestH = h
                    bestIndex = index
                    limit = h + h * 1e-12 + 1e-12
                    windows = Windows(limit: limit, band: band, query: query)
                }
            }
            index += 1
        }
    }

    /// The latitude band of one row and what every cell bound in it shares.
    struct Band {
        let row: Int
        /// South and north edge in units.
        let southUnits: Double
        let northUnits: Double
        /// sin and cos of each edge.
        let sinSouthEdge: Double
        let cosSouthEdge: Double
        let sinNorthEdge: Double
        let cosNorthEdge: Double
        /// cos φ₁ cos(edge), and sin²(Δφ/2) = (1 − cos(edge − φ₁))/2 from φ₁ to each edge.
        let cosSouth: Double
        let cosNorth: Double
        let havSouth: Double
        let havNorth: Double
        /// The bound for the whole row: the meridian gap to the band.
        let bound: Double

        init(row: Int, south: Edge, north: Edge, query: PlaceQuery) {
            self.row = row
            southUnits = Double((row - 90) * PlaceGrid.unitsPerDegree)
            northUnits = southUnits + Double(PlaceGrid.unitsPerDegree)
            sinSouthEdge = south.sin
            cosSouthEdge = max(0, south.cos)
            sinNorthEdge = north.sin
            cosNorthEdge = max(0, north.cos)
            cosSouth = query.cosLatitude * cosSouthEdge
            cosNorth = query.cosLatitude * cosNorthEdge
            havSouth = max(0, (1 - (cosSouth + sinSouthEdge * query.sinLatitude)) / 2)
            havNorth = max(0, (1 - (cosNorth + sinNorthEdge * query.sinLatitude)) / 2)
            if query.latitudeUnits >= southUnits && query.latitudeUnits <= northUnits {
                bound = 0
            } else {
                bound = min(havSouth, havNorth)
            }
        }

        /// A lower bound of h for every point of the cell at `cellColumn` in this band.
        @inline(__always)
        func bound(cellColumn: Int, query: PlaceQuery) -> Double {
            let west = Double((cellColumn - 180) * PlaceGrid.unitsPerDegree)
            let east = west + Double(PlaceGrid.unitsPerDegree)
            if query.longitudeUnits >= west && query.longitudeUnits <= east { return bound }
            let gapUnits = min(
                PlaceQuery.longitudeGap(west, query.longitudeUnits), PlaceQuery.longitudeGap(east, query.longitudeUnits))
            if gapUnits <= 0 { return bound }
            let halfGap = sin(gapUnits * PlaceQuery.radiansPerUnit / 2)
            let havGap = halfGap * halfGap
            var nearest = min(havSouth + cosSouth * havGap, havNorth + cosNorth * havGap)
            let cosGap = 1 - 2 * havGap
            if cosGap > 0 {
                // φ* = atan2(sin φ₁, cos φ₁ cos δ) lies in (south, north) iff tan south < tan φ* <
                // tan north; multiplied out by the (non-negative) cosines, no trigonometry. There
                // cos θ = A = √(sin²φ₁ + cos²φ₁ cos²δ), so h = (1 − A)/2 (absolute rounding ~10⁻¹⁶).
                let x = query.cosLatitude * cosGap
                if query.sinLatitude * cosSouthEdge > sinSouthEdge * x && query.sinLatitude * cosNorthEdge < sinNorthEdge * x {
                    let a = (query.sinLatitude * query.sinLatitude + x * x).squareRoot()
                    nearest = min(nearest, max(0, (1 - a) / 2))
                }
            }
            return nearest
        }
    }

    /// The windows in units around the query beyond which a place of the band cannot have an h
    /// within `limit`.
    struct Windows {
        var latitude: Double
        var longitude: Double

        init(limit: Double, band: Band, query: PlaceQuery) {
            let slack = 1 + 1e-9
            if limit >= 1 {
                latitude = .infinity
                longitude = .infinity
                return
            }
            latitude = 2 * asin(limit.squareRoot()) * PlaceQuery.unitsPerRadian * slack + 1e-6
            // cos φ₁ cos φ ≥ cos φ₁ × the smaller cosine of the band's two edges.
            let factor = min(band.cosSouth, band.cosNorth) * (1 - 1e-12)
            if factor <= 0 || limit >= factor {
                longitude = .infinity
            } else {
                longitude = 2 * asin((limit / factor).squareRoot()) * PlaceQuery.unitsPerRadian * slack + 1e-6
            }
        }
    }
}

import CPlaceData

/// The layout of the generated table (Tools/places/places.py): 1° × 1° cells, row r the
/// latitudes [r − 90°, r − 89°) (row 179 also holds 90°), column c the longitudes
/// [c − 180°, c − 179°) (column 359 also holds 180°); places sorted by row, column, then
/// latitude; only non-empty cells listed. Positions in 10⁻⁴ degree ("units").
enum PlaceGrid {
    static let rows = Int(PLACES_GRID_ROWS)
    static let columns = Int(PLACES_GRID_COLUMNS)
    static let unitsPerDegree = Int(PLACES_UNITS_PER_DEGREE)
    static let count = Int(PLACES_COUNT)
    static let cellCount = Int(PLACES_CELL_COUNT)

    /// The listed cells of `row`: indices into `cell_column` and `cell_first_place`.
    @inline(__always)
    static func cells(ofRow row: Int) -> Range<Int> {
        let table = thunderstorm_places
        return Int(table.row_first_cell[row])..<Int(table.row_first_cell[row + 1])
    }

    @inline(__always)
    static func column(ofCell cell: Int) -> Int { Int(thunderstorm_places.cell_column[cell]) }

    @inline(__always)
    static func places(ofCell cell: Int) -> Range<Int> {
        let table = thunderstorm_places
        return Int(table.cell_first_place[cell])..<Int(table.cell_first_place[cell + 1])
    }

    /// The south-west corner of a cell in units.
    @inline(__always)
    static func corner(row: Int, column: Int) -> (latitude: Int, longitude: Int) {
        ((row - 90) * unitsPerDegree, (column - 180) * unitsPerDegree)
    }

    /// The stored position of place `index` in units (two binary searches: its cell, its row).
    static func position(of index: Int) -> (latitude: Int, longitude: Int) {
        let table = thunderstorm_places
        // The last listed cell whose first place is ≤ index.
        var low = 0, high = cellCount
        while high - low > 1 {
            let middle = (low + high) / 2
            if Int(table.cell_first_place[middle]) <= index { low = middle } else { high = middle }
        }
        let cell = low
        // The last row whose first cell is ≤ cell and that holds a cell.
        var row = 0, above = rows
        while above - row > 1 {
            let middle = (row + above) / 2
            if Int(table.row_first_cell[middle]) <= cell { row = middle } else { above = middle }
        }
        let corner = corner(row: row, column: column(ofCell: cell))
        let offset = table.offset[index]
        return (corner.latitude + Int(offset.latitude), corner.longitude + Int(offset.longitude))
    }
}

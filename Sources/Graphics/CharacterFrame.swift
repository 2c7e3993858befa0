/// What a character LCD should show: `rows × columns` cells, each a Unicode scalar (Latin-1
/// text, `°`) or one of the small `CellGlyph` pictures.
///
/// The cells hold what is meant, not the controller's codes: the HD44780 driver maps each cell
/// to its character ROM (`°` → 0xDF on ROM A00) or to a CGRAM slot when it flushes. Storage is
/// allocated once.
public struct CharacterFrame: Sendable, Equatable {
    public let columns: Int
    public let rows: Int
    /// Row-major cells: `row * columns + column`.
    public private(set) var cells: [Cell]

    /// One character cell.
    public enum Cell: Sendable, Equatable, Hashable {
        case scalar(Unicode.Scalar)
        case glyph(CellGlyph)

        public static let blank = Cell.scalar(" ")
    }

    public init(columns: Int, rows: Int) {
        precondition(columns > 0 && rows > 0)
        self.columns = columns
        self.rows = rows
        cells = [Cell](repeating: .blank, count: columns * rows)
    }

    /// The cell at `column`, `row`; `.blank` outside. Setting outside does nothing.
    public subscript(column: Int, row: Int) -> Cell {
        get {
            guard column >= 0, column < columns, row >= 0, row < rows else { return .blank }
            return cells[row * columns + column]
        }
        set {
            guard column >= 0, column < columns, row >= 0, row < rows else { return }
            cells[row * columns + column] = newValue
        }
    }

    /// Fills every cell with a blank.
    public mutating func clear() {
        for index in cells.indices { cells[index] = .blank }
    }
}

/// Pictures of one character cell (5×8 dots on an HD44780) that a layout may place; the
/// driver loads the ones on screen into CGRAM (8 slots).
public enum CellGlyph: UInt8, Sendable, CaseIterable {
    case degree
    case sun
    case moon
    case partlyCloudy
    case cloud
    case fog
    case drizzle
    case rain
    case snow
    case showers
    case thunder
    case drop
    case wind
    case satellite
    case warning
    /// The Moon's phases by the side that is lit (the screens pick the side for the hemisphere):
    /// a ring, a crescent, a half and a gibbous disc lit on the right, the full disc, and the
    /// same lit on the left.
    case moonNew
    case moonCrescentRight
    case moonQuarterRight
    case moonGibbousRight
    case moonFull
    case moonGibbousLeft
    case moonQuarterLeft
    case moonCrescentLeft
    /// The pressure tendency's arrows ↗ and ↘: ROM A00 has → (0x7E) but no diagonal arrows.
    case rising
    case falling

    // `rows`, the 5×8 dots of each picture, is generated from the ASCII art in
    // Tools/graphics/cells/: Generated/CellGlyph+Rows.swift.
}

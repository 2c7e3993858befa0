import Graphics

/// The tendency arrows of the OLED screens, one 6×12 text cell each so they sit in a line of
/// the small font: → is the font's own (Terminus has U+2190–U+2193); Terminus 12 has no
/// diagonal arrows, so ↗ and ↘ are drawn here in the same stroke, ink in rows 3–7 like →.
///
/// The diagonals are bit rows in code, lit pixel by pixel (9 pixels), not a bitmap table: a
/// `static let` table is built on first use, and that first frame would allocate on the loop.
enum TendencyArrow {
    static let width = 6

    /// Row `row` (0–4, drawn at rows 3–7 of the cell) of ↗, bit 5 the leftmost column:
    /// `..###.`, `...##.`, `..#.#.`, `.#....`, `#.....`; ↘ is the same upside down.
    static func risingRow(_ row: Int) -> UInt8 {
        switch row {
        case 0: 0b001110
        case 1: 0b000110
        case 2: 0b001010
        case 3: 0b010000
        default: 0b100000
        }
    }

    /// Draws `arrow` in the text line whose top is `y`; returns its width.
    @discardableResult
    static func draw<Target: DrawTarget>(_ arrow: PressureText.Arrow, x: Int, y: Int, into target: inout Target) -> Int {
        switch arrow {
        case .steady:
            target.draw(Font.small.glyph("\u{2192}"), x: x, y: y)
        case .rising, .falling:
            for row in 0..<5 {
                let bits = risingRow(arrow == .rising ? row : 4 - row)
                for column in 0..<width where bits & (0b100000 >> UInt8(column)) != 0 {
                    target.setPixel(x: x + column, y: y + 3 + row, on: true)
                }
            }
        }
        return width
    }
}

import Graphics

/// The tendency arrows of the OLED screens, one 6×12 text cell each so they sit in a line of
/// the small font: → is the font's own (Terminus has U+2190–U+2193); Terminus 12 has no
/// diagonal arrows, so ↗ and ↘ are drawn here in the same stroke, ink in rows 3–7 like →.
enum TendencyArrow {
    static let rising = cell([
        "..###.",
        "...##.",
        "..#.#.",
        ".#....",
        "#.....",
    ])
    static let falling = cell([
        "#.....",
        ".#....",
        "..#.#.",
        "...##.",
        "..###.",
    ])

    static func bitmap(_ arrow: PressureText.Arrow) -> Bitmap {
        switch arrow {
        case .rising: rising
        case .falling: falling
        case .steady: Font.small.glyph("\u{2192}")
        }
    }

    /// Draws `arrow` in the text line whose top is `y`; returns its width.
    @discardableResult
    static func draw<Target: DrawTarget>(_ arrow: PressureText.Arrow, x: Int, y: Int, into target: inout Target) -> Int {
        let bitmap = bitmap(arrow)
        target.draw(bitmap, x: x, y: y)
        return bitmap.width
    }

    /// A 6×12 cell with `art` in rows 3–7 (built once, at first use).
    private static func cell(_ art: [String]) -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: 6 * 2)
        for (row, line) in art.enumerated() {
            for (column, mark) in line.enumerated() where mark == "#" {
                let y = row + 3
                bytes[(y >> 3) * 6 + column] |= 1 << UInt8(y & 7)
            }
        }
        return Bitmap(width: 6, height: 12, bytes: bytes)
    }
}

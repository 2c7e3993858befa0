/// The eight pixel rows of a 5×8 character, top first, bit 4 the leftmost dot.
public typealias HD44780GlyphRows = (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

extension HD44780Model {
    /// The DDRAM address shown at `column` of `row` with the current line mode and display
    /// shift, or nil when that row is not driven (the second line in 1-line mode).
    public func address(row: Int, column: Int) -> UInt8? {
        let start = Int(geometry.rowAddresses[row])
        if twoLines {
            let line = start & 0x40
            return UInt8(line + (start - line + column + displayShift) % 40)
        }
        guard start < 0x40 else { return nil }
        return UInt8((start + column + displayShift) % 80)
    }

    /// The character code shown at `column` of `row`, or nil when that row is not driven.
    public func code(row: Int, column: Int) -> UInt8? {
        address(row: row, column: column).flatMap(cell).map { ddram[$0] }
    }

    /// The text of each row as shown (display shift applied), whether or not the display is on.
    /// ROM A00 codes map to Unicode: ASCII except 0x5C → "¥", 0x7E → "→", 0x7F → "←"; 0xA1…0xDE
    /// the half-width katakana; 0xDF → "°" (the handakuten drivers use as a degree sign);
    /// 0xE0…0xFF the Greek and math symbols. CGRAM codes 0…7 (and their aliases 8…15) are
    /// `cgramMarkers`; codes the ROM leaves blank are spaces; an undriven row is all spaces.
    public var lines: [String] {
        (0..<geometry.rows).map { row in
            var text = ""
            for column in 0..<geometry.columns {
                text += code(row: row, column: column).map(Self.character) ?? " "
            }
            return text
        }
    }

    /// How `lines` shows CGRAM characters 0…7: ⓪ … ⑦.
    public static let cgramMarkers = ["⓪", "①", "②", "③", "④", "⑤", "⑥", "⑦"]

    private static let upperSymbols = [
        "α", "ä", "β", "ε", "μ", "σ", "ρ", "g", "√", "⁻¹", "j", "ˣ", "¢", "£", "ñ", "ö",
        "p", "q", "θ", "∞", "Ω", "ü", "Σ", "π", "x̄", "y", "千", "万", "円", "÷", " ", "█",
    ]

    /// One ROM A00 code as text.
    public static func character(_ code: UInt8) -> String {
        switch code {
        case 0x00...0x0F: return cgramMarkers[Int(code & 0x07)]
        case 0x5C: return "¥"
        case 0x7E: return "→"
        case 0x7F: return "←"
        case 0x20...0x7D: return String(UnicodeScalar(code))
        case 0xA1...0xDE: return String(UnicodeScalar(0xFF61 + UInt32(code - 0xA1))!)
        case 0xDF: return "°"
        case 0xE0...0xFF: return upperSymbols[Int(code - 0xE0)]
        default: return " "
        }
    }

    /// The glass with the dots of the HD44780U character ROM A00 (`HD44780CharacterROM`, generated
    /// by `Tools/graphics/hd44780.py`) for codes 0x10…0xFF and CGRAM for codes 0…15; see
    /// `image(glyphs:)` for the layout.
    public var image: PanelImage { image(glyphs: HD44780CharacterROM.rows) }

    /// The glass as pixels: each character a 5×8 cell, cells one pixel apart horizontally and
    /// vertically (as on real modules), so the image is (6·columns − 1) × (9·rows − 1); dots
    /// from `glyphs` for ROM codes and from CGRAM for codes 0…7 (8…15 alias them), and the
    /// cursor (C = 1) as the eighth row of the cell at the address counter. Blink (B) is not
    /// drawn (it depends on when one looks), nor the 5×10 font. All dark when the display is
    /// off (D = 0). The backlight is `backlightOn`, not part of the image.
    public func image(glyphs: (UInt8) -> HD44780GlyphRows) -> PanelImage {
        var image = PanelImage(width: geometry.columns * 6 - 1, height: geometry.rows * 9 - 1)
        guard displayOn else { return image }
        for row in 0..<geometry.rows {
            for column in 0..<geometry.columns {
                guard let address = address(row: row, column: column), let index = cell(address) else { continue }
                let code = ddram[index]
                var dots = [UInt8](repeating: 0, count: 8)
                if code < 0x10 {
                    for y in 0..<8 { dots[y] = cgram[Int(code & 0x07) * 8 + y] }
                } else {
                    withUnsafeBytes(of: glyphs(code)) { raw in for y in 0..<8 { dots[y] = raw[y] } }
                }
                if cursorOn && !addressesCGRAM && address == addressCounter { dots[7] = 0x1F }
                for y in 0..<8 {
                    for x in 0..<5 where dots[y] & (0x10 >> UInt8(x)) != 0 {
                        image[column * 6 + x, row * 9 + y] = true
                    }
                }
            }
        }
        return image
    }
}

// GENERATED FILE - DO NOT EDIT.
// Written by scripts/generate-graphics.sh (Tools/graphics/generate.py) from:
//   the hand-drawn ASCII art in Tools/graphics/cells/ (# lit, . unlit).
// To change it, edit Tools/graphics/ and run scripts/generate-graphics.sh;
// CI runs scripts/generate-graphics.sh --check and fails when this file is stale.

extension CellGlyph {
    /// The 5×8 dots, one byte per row from the top, bit 4 the leftmost dot (the HD44780's
    /// CGRAM layout, data sheet Table 5). Row 7 is left empty: the cursor line. Drawn by hand
    /// in Tools/graphics/cells/<case>.txt.
    public var rows: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) {
        switch self {
        case .degree: (0b01100, 0b10010, 0b10010, 0b01100, 0b00000, 0b00000, 0b00000, 0b00000)
        case .sun: (0b00100, 0b10001, 0b01110, 0b11111, 0b01110, 0b10001, 0b00100, 0b00000)
        case .moon: (0b00110, 0b01100, 0b11000, 0b11000, 0b11000, 0b01100, 0b00110, 0b00000)
        case .partlyCloudy: (0b01000, 0b11100, 0b01010, 0b00111, 0b01111, 0b11111, 0b00000, 0b00000)
        case .cloud: (0b00000, 0b00110, 0b01111, 0b11111, 0b11111, 0b00000, 0b00000, 0b00000)
        case .fog: (0b00000, 0b11110, 0b00000, 0b01111, 0b00000, 0b11110, 0b00000, 0b00000)
        case .drizzle: (0b00110, 0b01111, 0b11111, 0b00000, 0b01001, 0b00000, 0b10010, 0b00000)
        case .rain: (0b00110, 0b01111, 0b11111, 0b00000, 0b00101, 0b01010, 0b10100, 0b00000)
        case .snow: (0b00110, 0b01111, 0b11111, 0b00000, 0b10101, 0b01110, 0b10101, 0b00000)
        case .showers: (0b01000, 0b11100, 0b01011, 0b01111, 0b00000, 0b01010, 0b10100, 0b00000)
        case .thunder: (0b00110, 0b01111, 0b11111, 0b00010, 0b00110, 0b01100, 0b01000, 0b00000)
        case .drop: (0b00100, 0b00100, 0b01110, 0b01110, 0b11111, 0b11111, 0b01110, 0b00000)
        case .wind: (0b00110, 0b00001, 0b11110, 0b00000, 0b11100, 0b00010, 0b00100, 0b00000)
        case .satellite: (0b11000, 0b11000, 0b00100, 0b00011, 0b00011, 0b00000, 0b00000, 0b00000)
        case .warning: (0b00100, 0b01010, 0b01010, 0b11011, 0b11111, 0b11011, 0b11111, 0b00000)
        case .moonNew: (0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110, 0b00000)
        case .moonCrescentRight: (0b01110, 0b10001, 0b10011, 0b10011, 0b10011, 0b10001, 0b01110, 0b00000)
        case .moonQuarterRight: (0b01110, 0b10111, 0b10111, 0b10111, 0b10111, 0b10111, 0b01110, 0b00000)
        case .moonGibbousRight: (0b01110, 0b11111, 0b10111, 0b10111, 0b10111, 0b11111, 0b01110, 0b00000)
        case .moonFull: (0b01110, 0b11111, 0b11111, 0b11111, 0b11111, 0b11111, 0b01110, 0b00000)
        case .moonGibbousLeft: (0b01110, 0b11111, 0b11101, 0b11101, 0b11101, 0b11111, 0b01110, 0b00000)
        case .moonQuarterLeft: (0b01110, 0b11101, 0b11101, 0b11101, 0b11101, 0b11101, 0b01110, 0b00000)
        case .moonCrescentLeft: (0b01110, 0b10001, 0b11001, 0b11001, 0b11001, 0b10001, 0b01110, 0b00000)
        case .rising: (0b00000, 0b00111, 0b00011, 0b00101, 0b01000, 0b10000, 0b00000, 0b00000)
        case .falling: (0b00000, 0b10000, 0b01000, 0b00101, 0b00011, 0b00111, 0b00000, 0b00000)
        }
    }
}

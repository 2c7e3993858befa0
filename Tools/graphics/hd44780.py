"""The HD44780U character ROM A00 for the simulated LCD glass, from a public-domain font.

ROM A00 (HD44780U data sheet, Table 4) is ASCII in 0x20-0x7D except 0x5C (yen), with arrows at
0x7E/0x7F, katakana in 0xA1-0xDF and Latin/Greek letters in 0xE0-0xFF. The dots are taken from
the misc-fixed 5x7 font of Debian's xfonts-base ("Public domain font. Share and enjoy."): a
5-wide, 7-high cell whose rows become ROM rows 0-6; row 7, the cursor line, stays empty. That
font draws most letters 4 dots wide where the ROM uses 5, so the simulated glass is narrower
than a real one, but every character is where the driver expects it and recognisable.

Codes the driver may send and the ROM holds but the font does not:
- 0xDF, the handakuten (U+309C) that drivers show as a degree sign: the font's degree sign.
- 0xFF, the full block: all 5 x 8 dots, made here rather than read.
Every other code (CGRAM 0x00-0x0F, which the panel model serves itself; katakana; the rest of
0x80-0xFF) gets the `unknown` checkerboard, which no real character looks like.
"""

ROM = [(code, code) for code in range(0x20, 0x7E) if code != 0x5C] + [
    (0x5C, 0xA5),  # ¥
    (0x7E, 0x2192),  # →
    (0x7F, 0x2190),  # ←
    (0xDF, 0xB0),  # ゜ (U+309C, used as °): the font's °
    (0xE1, 0xE4),  # ä
    (0xE2, 0x3B2),  # β, used as ß
    (0xE4, 0xB5),  # µ
    (0xEC, 0xA2),  # ¢
    (0xED, 0xA3),  # £
    (0xEE, 0xF1),  # ñ
    (0xEF, 0xF6),  # ö
    (0xF5, 0xFC),  # ü
    (0xFD, 0xF7),  # ÷
]
FULL_BLOCK = [0b11111] * 8
UNKNOWN = [0b10101, 0b01010] * 3 + [0b10101, 0]


def rows_for(font, scalar):
    glyph = font.glyphs.get(scalar)
    if glyph is None:
        raise SystemExit(f"5x7: no glyph for U+{scalar:04X}")
    cell = glyph.cell(font.ascent, font.descent)
    if len(cell) != 7 or len(cell[0]) != 5:
        raise SystemExit("5x7: expected a 5x7 cell")
    return [sum(1 << (4 - x) for x, on in enumerate(row) if on) for row in cell] + [0]


def check(table):
    """Stops on a table the panel model could not use: a code twice, dots beyond 5 columns, a
    blank character other than the space, two characters alike, the unknown pattern reused."""
    codes = [code for code, _, _ in table]
    if len(set(codes)) != len(codes):
        raise SystemExit("hd44780: a code is defined twice")
    seen = {}
    for code, rows, _ in table:
        if len(rows) != 8 or any(r >> 5 for r in rows):
            raise SystemExit(f"hd44780: 0x{code:02X} is not 5x8 dots")
        if code != 0x20 and not any(rows):
            raise SystemExit(f"hd44780: 0x{code:02X} is blank")
        if rows == UNKNOWN or tuple(rows) in seen:
            raise SystemExit(f"hd44780: 0x{code:02X} looks like another character")
        seen[tuple(rows)] = code


def swift(font, header):
    table = sorted([(code, rows_for(font, scalar), scalar) for code, scalar in ROM] + [(0xFF, FULL_BLOCK, 0x2588)])
    check(table)
    out = [header]
    out.append("/// The character ROM A00 of the HD44780U (data sheet Table 4) as the simulated glass shows it:")
    out.append("/// the dots of each character code the Thunderstorm driver sends, for a panel model to draw.")
    out.append("///")
    out.append("/// Codes 0x20–0x7D are ASCII except 0x5C, which is ¥ (A00 has no backslash); 0x7E is → and")
    out.append("/// 0x7F is ←; 0xDF is the handakuten ゜ that stands in for °; 0xE1 ä, 0xE2 β (ß), 0xE4 µ,")
    out.append("/// 0xEC ¢, 0xED £, 0xEE ñ, 0xEF ö, 0xF5 ü, 0xFD ÷ and 0xFF the full block. The dots come")
    out.append("/// from the public-domain misc-fixed 5x7 font (most letters 4 dots wide, where the real ROM")
    out.append("/// uses 5). Every other code, CGRAM codes 0x00–0x0F included (the panel model draws those from")
    out.append("/// its CGRAM), shows `unknownRows`, a checkerboard no real character looks like.")
    out.append("public enum HD44780CharacterROM {")
    out.append("    /// The 5×8 dots of `code`: one byte per row from the top, bit 4 the leftmost dot, row 7")
    out.append("    /// the cursor line (empty but for the full block).")
    out.append("    public static func rows(_ code: UInt8) -> (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) {")
    out.append("        switch code {")
    for code, rows, scalar in table:
        char = chr(scalar)
        shown = "space" if char == " " else char
        out.append(f"        case 0x{code:02X}: (" + ", ".join(f"0b{r:05b}" for r in rows) + f")  // {shown}")
    out.append("        default: unknownRows")
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// Whether `code` is one of the characters above rather than the unknown pattern.")
    out.append("    public static func isDefined(_ code: UInt8) -> Bool {")
    out.append("        switch code {")
    out.append("        case " + ", ".join(f"0x{c:02X}" for c, _, _ in table if c >= 0x80) + ": true")
    out.append("        default: code >= 0x20 && code <= 0x7F")
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// The pattern of a code without a character here: a checkerboard.")
    out.append("    public static var unknownRows: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) {")
    out.append("        (" + ", ".join(f"0b{r:05b}" for r in UNKNOWN) + ")")
    out.append("    }")
    out.append("}")
    return "\n".join(out) + "\n"

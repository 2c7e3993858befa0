"""The three text fonts of the Graphics target, cut from Terminus Font and written as Swift.

Which glyphs, how they are laid out and why:
- `small` (Terminus Medium 12, 6x12) and `medium` (Terminus Bold 16, 8x16) carry printable
  ASCII, Latin-1, Latin Extended-A (place names from a geocoder: Kraków, Plzeň, Łódź) and a
  few signs a weather display prints: dashes, quotes, bullet, ellipsis, euro, arrows, minus.
- `large` (Terminus Bold 32, 16x32) carries only what a big temperature or clock needs. Its
  digits keep the full cell (tabular, so a changing value does not jitter), but the space and
  the narrow punctuation are cut to their ink plus the spacing of the digits, so "-12.5°C"
  fits a 128-pixel display next to an icon.
- Every glyph is stored page-major (bit 0 = top row of a page, one byte per column, pages of
  the glyph one after another), the layout of the SSD1306's RAM and of `Bitmap`.
"""

import unicodedata

SMALL_MEDIUM = (
    list(range(0x20, 0x7F))
    + list(range(0xA0, 0x100))
    + list(range(0x100, 0x180))
    + [0x2013, 0x2014, 0x2018, 0x2019, 0x201A, 0x201C, 0x201D, 0x201E, 0x2022, 0x2026]
    + [0x20AC, 0x2190, 0x2191, 0x2192, 0x2193, 0x2212]
)
LARGE = [ord(c) for c in " %+,-./0123456789:?CF"] + [0xB0, 0x2026, 0x2212]
# Large glyphs cut to their ink: one blank column before, two after (the digits' spacing).
LARGE_NARROW = [ord(c) for c in ".,:"] + [0xB0]
LARGE_SPACE_WIDTH = 8

FONTS = [
    # (Swift name, file, table enum, scalars, description)
    ("small", "ter-u12n_unicode.pcf.gz", "TerminusSmall", SMALL_MEDIUM, "Terminus Font Medium 12"),
    ("medium", "ter-u16b_unicode.pcf.gz", "TerminusMedium", SMALL_MEDIUM, "Terminus Font Bold 16"),
    ("large", "ter-u32b_unicode.pcf.gz", "TerminusLarge", LARGE, "Terminus Font Bold 32"),
]


def cut(name, font, scalars):
    """The glyphs of one Swift font: a list of (scalar, cell) with cell = rows of booleans."""
    glyphs = []
    for scalar in scalars:
        if scalar not in font.glyphs:
            raise SystemExit(f"{name}: the font has no U+{scalar:04X}")
        cell = font.glyphs[scalar].cell(font.ascent, font.descent)
        if name == "large" and scalar == 0x20:
            cell = [row[:LARGE_SPACE_WIDTH] for row in cell]
        elif name == "large" and scalar in LARGE_NARROW:
            ink = [x for x in range(len(cell[0])) if any(row[x] for row in cell)]
            left, right = max(ink[0] - 1, 0), min(ink[-1] + 3, len(cell[0]))
            cell = [row[left:right] for row in cell]
        glyphs.append((scalar, cell))
    return glyphs


def pages(cell):
    """The cell as page-major bytes: for each page of 8 rows, one byte per column."""
    height, width = len(cell), len(cell[0])
    out = []
    for page in range((height + 7) // 8):
        for x in range(width):
            byte = 0
            for bit in range(8):
                y = page * 8 + bit
                if y < height and cell[y][x]:
                    byte |= 1 << bit
            out.append(byte)
    return out


def label(scalar):
    """A comment naming the scalar: the character itself when it prints plainly."""
    char = chr(scalar)
    category = unicodedata.category(char)
    shown = f" {char}" if category[0] in "LNPS" else ""
    return f"U+{scalar:04X}{shown}"


def cap_height(font):
    """Rows of the digit zero above the baseline."""
    cell = font.glyphs[ord("0")].cell(font.ascent, font.descent)
    top = next(y for y, row in enumerate(cell) if any(row))
    return font.ascent - top


def hex_list(values, width):
    return ", ".join(f"0x{v:0{width}X}" for v in values)


def swift(name, enum, description, font, glyphs, header):
    """The Swift source of one font: the `Font.<name>` property and its tables."""
    height = font.ascent + font.descent
    scalars = [s for s, _ in glyphs]
    advances = [len(cell[0]) for _, cell in glyphs]
    widths = sorted(set(advances))
    size = f"{widths[0]}x{height}" if len(widths) == 1 else f"{widths[0]}-{widths[-1]}x{height}"
    data, offsets, lines = [], [], []
    for scalar, cell in glyphs:
        offsets.append(len(data))
        page_bytes = pages(cell)
        width = len(cell[0])
        for page in range(len(page_bytes) // width):
            chunk = page_bytes[page * width : (page + 1) * width]
            comment = f"  // {label(scalar)}" if page == 0 else ""
            lines.append(f"        {hex_list(chunk, 2)},{comment}")
        data.extend(page_bytes)
    if len(data) > 0xFFFF:
        raise SystemExit(f"{name}: {len(data)} bytes of glyphs do not fit UInt16 offsets")
    ranges = describe_ranges(scalars)
    out = [header]
    out.append("extension Font {")
    out.append(f"    /// {description}, {size} pixels, {len(glyphs)} glyphs: {ranges}.")
    out.append(f"    public static let {name} = Font(")
    out.append(f'        name: "derived from {description} (SIL OFL 1.1)", height: {height}, ascent: {font.ascent},')
    out.append(f"        capHeight: {cap_height(font)}, scalars: {enum}.scalars, advances: {enum}.advances,")
    out.append(f"        offsets: {enum}.offsets, data: {enum}.data")
    out.append("    )")
    out.append("}")
    out.append("")
    out.append(f"/// The tables of `Font.{name}`: scalars ascending; each glyph `advance` columns wide, its")
    out.append(f"/// {(height + 7) // 8} pages at `offsets[i]` in `data`.")
    out.append(f"enum {enum} {{")
    out.append("    static let scalars: [UInt32] = [")
    for i in range(0, len(scalars), 12):
        out.append(f"        {hex_list(scalars[i : i + 12], 4)},")
    out.append("    ]")
    out.append("    static let advances: [UInt8] = [")
    for i in range(0, len(advances), 24):
        out.append("        " + ", ".join(str(a) for a in advances[i : i + 24]) + ",")
    out.append("    ]")
    out.append("    static let offsets: [UInt16] = [")
    for i in range(0, len(offsets), 16):
        out.append("        " + ", ".join(str(o) for o in offsets[i : i + 16]) + ",")
    out.append("    ]")
    out.append("    static let data: [UInt8] = [")
    out.extend(lines)
    out.append("    ]")
    out.append("}")
    return "\n".join(out) + "\n"


def describe_ranges(scalars):
    """'U+0020–U+007E, U+00A0–U+017F, U+2013, …' for a doc comment."""
    parts, start, prev = [], scalars[0], scalars[0]
    for s in scalars[1:] + [None]:
        if s is not None and s == prev + 1:
            prev = s
            continue
        parts.append(f"U+{start:04X}" if start == prev else f"U+{start:04X}–U+{prev:04X}")
        if s is not None:
            start = prev = s
    return ", ".join(parts)

"""Hand-drawn pictures: weather icons and character-cell glyphs, kept as ASCII art.

A picture file is its grid and nothing else: one line per row, `#` for a lit pixel and `.`
for an unlit one, every line as wide as the picture. Reading is strict (wrong size, stray
characters, a missing file all stop the generator) because a typo in art should fail loudly,
not ship a broken icon.
"""

import os

# The icons of ConditionGroup (notes/weather-and-sensor.md §5) in declaration order, each with
# the file names of its pictures: a day/night pair where the sun or moon shows, else one.
ICONS = [
    ("clear", "clear-day", "clear-night"),
    ("partlyCloudy", "partly-cloudy-day", "partly-cloudy-night"),
    ("cloudy", "cloudy", None),
    ("fog", "fog", None),
    ("drizzle", "drizzle", None),
    ("rain", "rain", None),
    ("snow", "snow", None),
    ("showers", "showers-day", "showers-night"),
    ("thunderstorm", "thunderstorm", None),
]
ICON_SIZES = [("small", 16), ("large", 32)]

# CellGlyph cases in declaration order (Sources/Graphics/CharacterFrame.swift).
CELLS = [
    "degree", "sun", "moon", "partlyCloudy", "cloud", "fog", "drizzle", "rain", "snow",
    "showers", "thunder", "drop", "wind", "satellite", "warning",
    "moonNew", "moonCrescentRight", "moonQuarterRight", "moonGibbousRight", "moonFull",
    "moonGibbousLeft", "moonQuarterLeft", "moonCrescentLeft", "rising", "falling",
]


def read_art(path, width, height):
    """The picture in `path` as rows of booleans, checked to be `width` × `height`."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) != height:
        raise SystemExit(f"{path}: {len(lines)} rows, expected {height}")
    rows = []
    for number, line in enumerate(lines, 1):
        if len(line) != width or set(line) - {"#", "."}:
            raise SystemExit(f"{path}:{number}: expected {width} of '#' or '.', got {line!r}")
        rows.append([c == "#" for c in line])
    return rows


def icon_pictures(root):
    """For each size, the list of (case, night, file name, rows), slots in order."""
    out = {}
    for size, pixels in ICON_SIZES:
        pictures = []
        for case, day, night in ICONS:
            for is_night, name in ((False, day), (True, night)):
                if name is not None:
                    path = os.path.join(root, "icons", size, name + ".txt")
                    pictures.append((case, is_night, name, read_art(path, pixels, pixels)))
        out[size] = (pixels, pictures)
    return out


def icons_swift(root, header, pages):
    out = [header]
    sheets = icon_pictures(root)
    out.append("import HAL")
    out.append("")
    out.append("extension ConditionGroup {")
    out.append("    /// Which picture of a sheet shows the icon: day and night differ only where the sun")
    out.append("    /// or the moon is part of the picture.")
    out.append("    static func slot(_ icon: ConditionGroup, night: Bool) -> Int {")
    out.append("        switch icon {")
    slot = 0
    for case, day, night in ICONS:
        if night is None:
            out.append(f"        case .{case}: {slot}")
            slot += 1
        else:
            out.append(f"        case .{case}: night ? {slot + 1} : {slot}")
            slot += 2
    out.append("        }")
    out.append("    }")
    out.append("}")
    out.append("")
    out.append("/// The icon sheets: every picture of a size, page-major like `Bitmap`, one after another in")
    out.append("/// slot order. Drawn by hand in Tools/graphics/icons/<size>/<name>.txt.")
    out.append("enum WeatherIconSheets {")
    for size, (pixels, pictures) in sheets.items():
        out.append(f"    /// {len(pictures)} pictures of {pixels}×{pixels}, {pixels * pixels // 8} bytes each.")
        out.append(f"    static let {size}: [UInt8] = [")
        for case, night, name, rows in pictures:
            data = pages(rows)
            for page in range(pixels // 8):
                chunk = data[page * pixels : (page + 1) * pixels]
                comment = f"  // {name}.txt" if page == 0 else ""
                out.append("        " + ", ".join(f"0x{b:02X}" for b in chunk) + "," + comment)
        out.append("    ]")
    out.append("}")
    return "\n".join(out) + "\n"


def cell_rows(root):
    """For each CellGlyph case, its 8 row bytes (bit 4 = leftmost dot)."""
    out = []
    for case in CELLS:
        rows = read_art(os.path.join(root, "cells", case + ".txt"), 5, 8)
        if any(rows[7]):
            raise SystemExit(f"cells/{case}.txt: row 8 is the cursor line and must stay empty")
        out.append((case, [sum(1 << (4 - x) for x, on in enumerate(row) if on) for row in rows]))
    seen = {}
    for case, values in out:
        if tuple(values) in seen:
            raise SystemExit(f"cells/{case}.txt is the same picture as cells/{seen[tuple(values)]}.txt")
        seen[tuple(values)] = case
    return out


def cells_swift(root, header):
    out = [header]
    out.append("extension CellGlyph {")
    out.append("    /// The 5×8 dots, one byte per row from the top, bit 4 the leftmost dot (the HD44780's")
    out.append("    /// CGRAM layout, data sheet Table 5). Row 7 is left empty: the cursor line. Drawn by hand")
    out.append("    /// in Tools/graphics/cells/<case>.txt.")
    out.append("    public var rows: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) {")
    out.append("        switch self {")
    for case, values in cell_rows(root):
        out.append(f"        case .{case}: (" + ", ".join(f"0b{v:05b}" for v in values) + ")")
    out.append("        }")
    out.append("    }")
    out.append("}")
    return "\n".join(out) + "\n"

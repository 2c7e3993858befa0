#!/usr/bin/env bash
# What one settings change costs on a real ext4 (docs/design/decisions.md has the baselines):
# syscalls (strace -c), bytes the block device wrote and flushes it received
# (/sys/block/loopN/stat), per change, for the store and for two JSON-rewrite baselines, on a
# loop-mounted ext4 image (4 KiB blocks, data=ordered, noatime), plus the time `open` takes for a
# store whose log holds 10,000 records, and of a default-size store after 10,000 commits, cold
# (page cache dropped, then the binary paged in again by a run on another directory) and warm.
#
#   sudo scripts/store-cost.sh [N] [BIN]     # N changes per run (default 500)
#
# Per-change syscalls are marginal: the difference between a run of N+10 and one of 10 changes,
# divided by N, so process start-up and open are not counted. The store's `bench` prints one
# `ack` line per commit with write(2); those writes are the CLI's, not the store's, and are
# listed apart. Device bytes include the final `sync` and the ext4 journal, as in the notes.
# Needs root, losetup, mkfs.ext4, strace and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-500}
bin=${2:-}
if [ -z "$bin" ]; then
  swift build -c release --product thunderstorm >/dev/null
  bin=$(swift build -c release --show-bin-path)/thunderstorm
fi
work=$(mktemp -d /tmp/store-cost.XXXXXX)
img=$work/ext4.img
mnt=$work/mnt
mkdir -p "$mnt"
truncate -s 256M "$img"
mkfs.ext4 -q -b 4096 -F "$img"
loop=$(losetup -f --show "$img")
dev=$(basename "$loop")
cleanup() { umount "$mnt" 2>/dev/null || true; losetup -d "$loop" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
mount -o noatime,data=ordered "$loop" "$mnt"
echo "ext4 on $loop ($(uname -r)), $n changes per run, binary $bin"

# /sys/block/DEV/stat: field 7 = sectors written (512 B), field 16 = flush requests (kernel ≥ 5.5).
stat_fields() { awk '{ print $7, ($16 == "" ? 0 : $16) }' "/sys/block/$dev/stat"; }

# device KiB and flushes per change while running "$@" (then sync), N changes.
device_cost() {
  sync; read -r s0 f0 < <(stat_fields)
  "$@" >/dev/null
  sync; read -r s1 f1 < <(stat_fields)
  awk -v s=$((s1 - s0)) -v f=$((f1 - f0)) -v n="$n" \
    'BEGIN { printf "device %.1f KiB/change, %.2f flushes/change", s * 512 / 1024 / n, f / n }'
}

# Marginal syscalls per change: strace -c of N+10 changes minus 10 changes, by name.
syscall_cost() {  # $1 = "ack" when write(2) is the CLI's ack line, $2 = command template with {N}
  local small=$work/small.txt big=$work/big.txt
  strace -f -c -o "$small" bash -c "${2//\{N\}/10}" >/dev/null
  strace -f -c -o "$big" bash -c "${2//\{N\}/$((n + 10))}" >/dev/null
  python3 - "$small" "$big" "$n" "$1" <<'PY'
import sys
def calls(path):
    out = {}
    for line in open(path):
        parts = line.split()
        if len(parts) >= 5 and parts[0][0].isdigit() and parts[-1] != "total":
            out[parts[-1]] = int(parts[3])
    return out
small, big, n = calls(sys.argv[1]), calls(sys.argv[2]), int(sys.argv[3])
per = {k: (big.get(k, 0) - small.get(k, 0)) / n for k in set(big) | set(small)}
per = {k: v for k, v in per.items() if v >= 0.05}
ack = per.pop("write", 0) if sys.argv[4] == "ack" else 0
total = sum(per.values())
detail = ", ".join(f"{k} {v:.2f}" for k, v in sorted(per.items(), key=lambda kv: -kv[1]))
print(f"syscalls {total:.2f}/change ({detail})" + (f"; plus write {ack:.2f} (the ack line)" if ack else ""))
PY
}

store="$mnt/store"
"$bin" store --dir "$store" set units metric >/dev/null   # creates the store (not measured)
for i in $(seq 1 10); do "$bin" store --dir "$store" add-location --name "Place $i" --lat $((40 + i)).5 --lon 8.$i >/dev/null; done
echo "store (this project): pwrite + fdatasync into a pre-sized file"
echo "  $(syscall_cost ack "'$bin' store --dir '$store' bench --commits {N}")"
echo "  $(device_cost "$bin" store --dir "$store" bench --commits "$n")"

json="$mnt/json"
mkdir -p "$json"
cat >"$work/json_rewrite.py" <<'PY'
# The baseline of notes/store.md §2: a 1,308-byte JSON document (10 locations, 3 settings)
# rewritten on every change, as tmp + fsync + rename (+ fsync of the directory).
import json, os, sys
path, n, dir_sync = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
doc = {"settings": {"time": "24h", "units": "metric", "temperature": "celsius"},
       "locations": [{"id": i, "name": f"Place number {i:02d} of ten", "lat": 45.1234567 + i, "lon": 8.7654321 + i,
                      "addedAt": "2026-11-21T12:00:00Z"} for i in range(10)]}
for i in range(n):
    doc["settings"]["temperature"] = "celsius" if i % 2 else "fahrenheit"
    data = json.dumps(doc).encode()
    tmp = path + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, data); os.fsync(fd); os.close(fd)
    os.rename(tmp, path)
    if dir_sync:
        d = os.open(os.path.dirname(path), os.O_RDONLY); os.fsync(d); os.close(d)
PY
python3 -c "import json" # warm the interpreter's files
echo "baseline: JSON tmp + fsync + rename (Foundation's .atomic shape; not durable, the directory is never synced)"
echo "  $(syscall_cost json "python3 '$work/json_rewrite.py' '$json/settings.json' {N} 0")"
echo "  $(device_cost python3 "$work/json_rewrite.py" "$json/settings.json" "$n" 0)"
echo "baseline: JSON tmp + fsync + rename + fsync(dir) (durable)"
echo "  $(syscall_cost json "python3 '$work/json_rewrite.py' '$json/settings.json' {N} 1")"
echo "  $(device_cost python3 "$work/json_rewrite.py" "$json/settings.json" "$n" 1)"

# open_time LABEL DIR [--file-size N]: the time `check` reports for open, cold then warm.
open_time() {
  local label=$1 dir=$2; shift 2
  local times=()
  for run in 1 2 3 4 5 6 7 8 9 10 11; do
    if [ "$run" = 1 ]; then
      sync; echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || echo "  (cannot drop caches: the cold run is warm)"
      # Load the program's own pages again (an empty store elsewhere), so "cold" is the store's
      # files coming from the device, not the binary and the Swift runtime being paged in.
      "$bin" store --dir "$work/warm-up" show >/dev/null 2>&1 || true
    fi
    line=$("$bin" store --dir "$dir" "$@" check | head -n 1)
    times+=("$(sed -E 's/.* in ([0-9.]+) ms.*/\1/' <<<"$line")")
  done
  echo "open of $label: cold ${times[0]} ms; warm median $(printf '%s\n' "${times[@]:1}" | sort -n | sed -n 5p) ms of 10"
  "$bin" store --dir "$dir" "$@" check | sed -n '2,3p' | sed 's/^/  /'
}
"$bin" store --dir "$mnt/big" --file-size 2097152 bench --commits 10000 >/dev/null
open_time "a store whose log holds 10,000 records (2 MiB files)" "$mnt/big" --file-size 2097152
"$bin" store --dir "$mnt/default" bench --commits 10000 >/dev/null
open_time "a default store (64 KiB files) after 10,000 commits" "$mnt/default"

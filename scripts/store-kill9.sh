#!/usr/bin/env bash
# kill -9 proof for the settings store (notes/store.md §3, C6): every acknowledged commit must
# survive a process crash at any moment.
#
#   scripts/store-kill9.sh [RUNS] [BIN]      RUNS defaults to 1000; BIN to the default build's
#                                            thunderstorm (built if missing)
#
# One store directory serves every run, so each run starts from the recovery of the previous
# kill, and compaction into the other file happens again and again. Each run starts
# `store bench --commits 100000`, which prints `ack N` (with write(2), unbuffered) once commit N
# is durable, and SIGKILLs it after 0–60 ms. Then, with L the last complete ack line (or, when
# nothing was acked, the sequence the previous run ended with):
#   - the acks are consecutive and start right after the previous run's sequence;
#   - `store show` says sequence S with L ≤ S ≤ L + 1 (nothing acknowledged lost; at most the
#     one commit in flight extra);
#   - `store check` exits 0 (a process crash leaves no damage: the kernel has the pages).
# The first violation stops the script with exit 1 and leaves the store directory for a look.
# Fails too if fewer than half the runs acked anything: the delay would then be too short to
# test anything on this machine (STORE_KILL9_MAX_MS sets it; by default it is calibrated: three
# times the time to the first ack, at least 60 ms). STORE_KILL9_TRACE=1
# prints one line per run.
set -euo pipefail
runs=${1:-1000}
max_ms=${STORE_KILL9_MAX_MS:-60}
bin=${2:-}
case $bin in "" | /*) ;; *) bin="$PWD/$bin" ;; esac  # before the cd below
cd "$(dirname "$0")/.."
if [ -z "$bin" ]; then
  bin="$(swift build --show-bin-path)/thunderstorm"
  [ -x "$bin" ] || swift build --product thunderstorm
fi
[ -x "$bin" ] || { echo "store-kill9: no executable at $bin; build it with swift build" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/store-kill9.XXXXXX")
store="$work/store"
keep=0
trap '[ "$keep" = 1 ] || rm -rf "$work"' EXIT

fail() {
  keep=1
  echo "store-kill9: run $run: $*" >&2
  echo "store-kill9: store kept in $store; bench output in $work/out, $work/err" >&2
  exit 1
}

# The file without an unterminated last line (`$(tail -c1)` is empty after a newline).
complete_lines() {
  if [ -s "$1" ] && [ -n "$(tail -c1 "$1")" ]; then sed '$d' "$1"; else cat "$1"; fi
}

# The sequence `store show` reports (its JSON starts with "sequence").
shown_sequence() {
  shown=$("$bin" store --dir "$store" show 2>"$work/show.err") || fail "show failed: $(cat "$work/show.err")"
  sequence=$(sed -n 's/^{"sequence":\([0-9]*\),.*/\1/p' <<<"$shown")
  [ -n "$sequence" ] || fail "show printed no sequence: $shown"
}

run=0
"$bin" store --dir "$store" set temperature celsius >/dev/null || fail "cannot create the store in $store"
if [ -z "${STORE_KILL9_MAX_MS:-}" ]; then
  # Calibrate on this machine, as loaded as it is now: kills land within three times the time a
  # bench takes to its first ack (60 ms at least), so that most runs ack something whether the
  # machine is idle or busy.
  : >"$work/out"
  t0=$(date +%s%N)
  "$bin" store --dir "$store" bench --commits 100000 >>"$work/out" 2>/dev/null &
  pid=$!
  until [ -s "$work/out" ] || ! kill -0 "$pid" 2>/dev/null; do sleep 0.002; done
  first_ms=$((($(date +%s%N) - t0) / 1000000))
  kill -9 "$pid" 2>/dev/null || true
  { wait "$pid"; } 2>/dev/null || true
  max_ms=$((first_ms * 3 > 60 ? first_ms * 3 : 60))
  echo "store-kill9: the first ack came after $first_ms ms here; kills land within 0–$max_ms ms"
fi
shown_sequence
previous=$sequence
acked_runs=0
total_acks=0
started=$SECONDS
for ((run = 1; run <= runs; run++)); do
  # Emptied here, not only by the child's redirection: a kill that lands before the child
  # opens the file would leave the previous run's acks in it.
  : >"$work/out"
  : >"$work/err"
  "$bin" store --dir "$store" bench --commits 100000 >>"$work/out" 2>>"$work/err" &
  pid=$!
  # 0–60 ms (STORE_KILL9_MAX_MS): sometimes before the child has even started (a debug
  # build takes about 20 ms to reach its first commit here), sometimes mid-commit, sometimes
  # during a compaction.
  delay=$((RANDOM % (max_ms + 1)))
  sleep "$((delay / 1000)).$(printf '%03d' $((delay % 1000)))"
  kill -9 "$pid" 2>/dev/null || true
  status=0
  { wait "$pid"; } 2>/dev/null || status=$?
  # 137 = killed by SIGKILL; anything else means bench stopped on its own (locked, I/O error).
  [ "$status" = 137 ] || fail "bench exited with $status before the kill: $(head -c 300 "$work/err")"

  # Only complete lines count: a line without its newline was not acknowledged. awk checks
  # that the acks run on from the previous run's sequence without a gap.
  last=$(complete_lines "$work/out" | awk -v previous="$previous" '
      /^ack [0-9]+$/ { if ($2 != previous + 1) { print "gap", previous + 1, $2; exit } previous = $2; n++ }
      END { print n + 0, previous }' | head -n1)
  case $last in gap*) set -- $last; fail "acks not consecutive: expected ack $2, got ack $3" ;; esac
  acks=${last% *}
  acked=${last#* }

  shown_sequence
  if [ "$sequence" -lt "$acked" ] || [ "$sequence" -gt $((acked + 1)) ]; then
    fail "last ack $acked ($acks this run), but show says sequence $sequence: $shown"
  fi
  "$bin" store --dir "$store" check >"$work/check.out" 2>"$work/check.err" ||
    fail "check exited $? after last ack $acked: $(tr '\n' ' ' <"$work/check.err")"
  ((acks > 0)) && acked_runs=$((acked_runs + 1))
  total_acks=$((total_acks + acks))
  [ -n "${STORE_KILL9_TRACE:-}" ] && echo "run $run: $acks acks, first $(head -n1 "$work/out"), last $acked, show $sequence" >&2
  previous=$sequence
done
elapsed=$((SECONDS - started))

if ((acked_runs * 2 < runs)); then
  fail "only $acked_runs of $runs runs acked a commit; lengthen the delay (STORE_KILL9_MAX_MS=$max_ms)"
fi
generations=$(sed -n 's/^store\.[ab]: generation \([0-9]*\),.*/\1/p' "$work/check.out" | sort -n | tail -n1)
echo "store-kill9: runs $runs, runs that acked ≥1 commit $acked_runs, acked commits checked $total_acks," \
  "final sequence $previous (generation ${generations:-?}), violations 0, elapsed ${elapsed} s"

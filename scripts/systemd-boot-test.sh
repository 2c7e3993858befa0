#!/usr/bin/env bash
# Runs board/thunderstorm.service under a real systemd (Debian 12's 252, as on Raspberry Pi OS
# bookworm) on a machine that has none as PID 1: a Debian 12 root made once with debootstrap, booted
# with systemd-nspawn, the service installed into it by scripts/install.sh (DESTDIR=the root) with
# the unit unchanged, enabled, and started by the boot. Then it reports what systemd says: whether
# the service is active, its status line, restarts, and whether the watchdog or the system call
# filter (SIGSYS) killed it; reloads it (SIGHUP) and stops it (SIGTERM must end it with exit 0).
#
# Usage: sudo scripts/systemd-boot-test.sh [--binary PATH] [--board FILE] [--watch SECONDS]
#                                          [--stall] [--root DIR] [--keep-running]
#   --binary PATH  what to run as /usr/local/bin/thunderstorm. Default: scripts/systemd-probe.py, a
#                  stand-in that does what the daemon's contract says it does (files, state,
#                  adjtimex, poll/timerfd/eventfd/signalfd, a thread, sockets, dlopen of libssl and
#                  libz) and what the sandbox must refuse, and says in its STATUS= which probe did
#                  not go as expected. A Swift build runs too: a --static-swift-stdlib one as it
#                  is, a dynamic one with the toolchain's runtime directory bind-mounted read-only.
#   --board FILE   default: board/desk-simulated.json when it exists (every part simulated, so
#                  the daemon needs no devices), else board/raspberry-pi-4.json
#   --watch S      how long to watch it run before reload and stop (default 40: past WatchdogSec=30)
#   --stall        (the probe only) stop sending WATCHDOG=1: the check then expects the watchdog
#                  to kill and restart it
#   --root DIR     the Debian 12 root (default /var/tmp/thunderstorm-boot/root; made when missing,
#                  about 3 minutes, with debootstrap's default mirror)
#   --keep-running leave the container up (systemd-nspawn's PID printed) instead of powering off
# Needs root, debootstrap and systemd-container (installed when missing), ~400 MB in --root.
# Not in CI: the first run downloads a Debian root. Exit: 0 as expected, 1 not, 64 usage, 77 not root.
#
# Why nspawn runs with SYSTEMD_SECCOMP=0: nspawn puts its own system call filter on the whole
# container, and without CAP_SYS_TIME that filter refuses @clock (adjtimex and clock_adjtime
# included) to everything in it; with the variable unset, only the unit's own filter applies,
# as on a Pi.
set -euo pipefail
prog=systemd-boot-test.sh
cd "$(dirname "$0")/.."
repo=$(pwd)

usage() {
  sed -n 's/^# \{0,1\}//; /^Usage:/,/^Needs root/p' "$0" | sed '$d' >&2
  exit 64
}

binary=$repo/scripts/systemd-probe.py
board=
watch=40
stall=0
root=/var/tmp/thunderstorm-boot/root
keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --binary) [ $# -ge 2 ] || usage; binary=$(realpath "$2"); shift ;;
    --board) [ $# -ge 2 ] || usage; board=$(realpath "$2"); shift ;;
    --watch) [ $# -ge 2 ] || usage; watch=$2; shift ;;
    --stall) stall=1 ;;
    --root) [ $# -ge 2 ] || usage; root=$2; shift ;;
    --keep-running) keep=1 ;;
    -h|--help) usage ;;
    *) echo "$prog: unknown argument '$1'" >&2; usage ;;
  esac
  shift
done
if [ -z "$board" ]; then
  board=$repo/board/raspberry-pi-4.json
  [ ! -f "$repo/board/desk-simulated.json" ] || board=$repo/board/desk-simulated.json
fi
[ "$(id -u)" -eq 0 ] || { echo "$prog: run as root" >&2; exit 77; }
[ -f "$binary" ] || { echo "$prog: no $binary" >&2; exit 64; }
[ -f "$board" ] || { echo "$prog: no $board" >&2; exit 64; }
say() { echo "$prog: $*"; }

# --- tools and the Debian root ----------------------------------------------------------------
missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v systemd-nspawn >/dev/null || missing+=(systemd-container)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ ! -f "$root/.thunderstorm-boot-ready" ]; then
  say "making a Debian 12 root in $root with debootstrap (once; a few minutes)"
  rm -rf "$root"
  mkdir -p "$(dirname "$root")"
  debootstrap --variant=minbase \
    --include=systemd,systemd-sysv,dbus,procps,python3,libssl3,zlib1g,ca-certificates,tzdata,libi2c0 \
    bookworm "$root" >"$(dirname "$root")/debootstrap.log" 2>&1 \
    || { tail -5 "$(dirname "$root")/debootstrap.log" >&2; exit 1; }
  touch "$root/.thunderstorm-boot-ready"
fi

# --- the service, as install.sh puts it on a Pi -----------------------------------------------
DESTDIR=$root bash scripts/install.sh --uninstall --purge >/dev/null
DESTDIR=$root bash scripts/install.sh --binary "$binary" --board "$board" | grep -v ': ok:' || true
for group in gpio i2c dialout; do
  grep -q "^$group:" "$root/etc/group" || groupadd --system --prefix "$root" "$group"
done
systemctl --root="$root" enable thunderstorm.service >/dev/null 2>&1
cmp -s "$root/etc/systemd/system/thunderstorm.service" board/thunderstorm.service \
  && say "the unit in the container is board/thunderstorm.service, unchanged"
rm -rf "$root/etc/systemd/system/thunderstorm.service.d"
if [ "$stall" -eq 1 ]; then
  # A drop-in for the test only: the probe reads PROBE_STALL and stops its watchdog pings.
  mkdir -p "$root/etc/systemd/system/thunderstorm.service.d"
  printf '[Service]\nEnvironment=PROBE_STALL=1\n' >"$root/etc/systemd/system/thunderstorm.service.d/stall.conf"
fi

# A dynamically linked Swift binary finds its runtime through its RUNPATH (the toolchain on this
# machine): bind that directory read-only at the same place.
binds=()
if command -v ldd >/dev/null && swift_lib=$(ldd "$binary" 2>/dev/null | sed -n 's/.*=> \(.*\)\/libswiftCore\.so.*/\1/p' | head -1) \
  && [ -n "$swift_lib" ]; then
  say "dynamic Swift binary: binding $swift_lib read-only into the container"
  binds+=("--bind-ro=$swift_lib")
fi

# --- boot -------------------------------------------------------------------------------------
log_dir=$(dirname "$root")
nspawn_log=$log_dir/nspawn.log
say "booting $root with systemd-nspawn (console log: $nspawn_log)"
SYSTEMD_SECCOMP=0 SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1 \
  systemd-nspawn -q -D "$root" --boot --register=no --keep-unit --console=passive \
  --machine=thunderstorm-test "${binds[@]}" >"$nspawn_log" 2>&1 &
nspawn=$!
leader=
stop_container() {
  if [ "$keep" -eq 1 ]; then
    say "left running: systemd-nspawn PID $nspawn; inside: nsenter -t $leader -a systemctl status thunderstorm"
    return
  fi
  if kill -0 "$nspawn" 2>/dev/null; then
    [ -z "$leader" ] || in_container systemctl poweroff >/dev/null 2>&1 || true
    for _ in $(seq 50); do kill -0 "$nspawn" 2>/dev/null || break; sleep 0.2; done
    ! kill -0 "$nspawn" 2>/dev/null || kill "$nspawn"
    wait "$nspawn" 2>/dev/null || true
  fi
}
trap stop_container EXIT
in_container() { nsenter -t "$leader" -a "$@"; }
for _ in $(seq 100); do
  leader=$(pgrep -P "$nspawn" -x systemd || true)
  [ -z "$leader" ] || break
  kill -0 "$nspawn" 2>/dev/null || { cat "$nspawn_log" >&2; say "systemd-nspawn exited"; exit 1; }
  sleep 0.2
done
[ -n "$leader" ] || { say "no systemd inside after 20 s"; exit 1; }
# Until its manager socket exists, systemctl fails at once; then --wait waits for the boot.
for _ in $(seq 100); do
  [ ! -S "/proc/$leader/root/run/systemd/private" ] || break
  sleep 0.2
done
state=$(timeout 60 nsenter -t "$leader" -a systemctl is-system-running --wait 2>/dev/null || true)
say "systemd $(in_container systemctl --version | head -1 | cut -d' ' -f2) in the container is ${state:-not answering}"

show() { in_container systemctl show -p "$1" --value thunderstorm.service; }
for _ in $(seq 60); do
  case $(show ActiveState) in activating|deactivating|reloading) sleep 0.5 ;; *) break ;; esac
done
say "after boot: $(show ActiveState) — StatusText: $(show StatusText)"
say "watching it for $watch s (WatchdogSec=$(show WatchdogUSec))"
sleep "$watch"

active=$(show ActiveState)
status_text=$(show StatusText)
# The last WATCHDOG=1 systemd took, in seconds before now (both monotonic, inside the container).
last_ping=$(show WatchdogTimestampMonotonic)
now_us=$(in_container python3 -c 'import time; print(time.monotonic_ns() // 1000)' 2>/dev/null || echo 0)
if [ -n "$last_ping" ] && [ "$last_ping" != 0 ] && [ "$now_us" != 0 ]; then
  say "last WATCHDOG=1 (or start) $(( (now_us - last_ping) / 1000 )) ms ago"
fi
restarts=$(show NRestarts)
result=$(show Result)
journal=$(in_container journalctl -b -u thunderstorm.service --no-pager -o cat)
watchdog_killed=0
seccomp_killed=0
grep -q 'Watchdog timeout' <<<"$journal" && watchdog_killed=1
[ "$result" != watchdog ] || watchdog_killed=1
grep -qE 'status=31/SYS|code=killed, status=31' <<<"$journal" && seccomp_killed=1
say "is-active: $active"
say "StatusText: $status_text"
say "NRestarts: $restarts, Result: $result, killed by the watchdog: $([ $watchdog_killed -eq 1 ] && echo yes || echo no), killed by the system call filter (SIGSYS): $([ $seccomp_killed -eq 1 ] && echo yes || echo no)"

reload_ok=0
stop_ok=0
if [ "$active" = active ]; then
  if in_container systemctl reload thunderstorm.service && sleep 1 && [ "$(show ActiveState)" = active ]; then
    reload_ok=1
  fi
  say "reload (SIGHUP): $([ $reload_ok -eq 1 ] && echo "still active — StatusText: $(show StatusText)" || echo "FAILED: $(show ActiveState)")"
  started=$(date +%s%N)
  in_container systemctl stop thunderstorm.service || true
  stop_ms=$((($(date +%s%N) - started) / 1000000))
  main_status=$(show ExecMainStatus)
  main_code=$(show ExecMainCode)
  # ExecMainCode 1 = CLD_EXITED.
  if [ "$main_code" = 1 ] && [ "$main_status" = 0 ] && [ "$(show Result)" = success ]; then
    stop_ok=1
  fi
  say "stop (SIGTERM): $stop_ms ms, exit status $main_status (code $main_code), Result $(show Result)"
fi
echo "--- journal of thunderstorm.service (last 25 lines)"
tail -25 <<<"$journal"
echo "--- systemd's lines about it (exits, kills, restarts)"
grep -E 'Watchdog|Main process exited|Failed with result|Scheduled restart|Killing|code=killed' <<<"$journal" | tail -10 || echo "(none)"
echo "---"

if [ "$stall" -eq 1 ]; then
  if [ "$watchdog_killed" -eq 1 ] && [ "$restarts" -ge 1 ]; then
    say "as expected: the stalled service was killed by the watchdog and restarted"
    exit 0
  fi
  say "NOT as expected: a stalled service should have been killed by the watchdog and restarted"
  exit 1
fi
problems=()
[ "$active" = active ] || problems+=("not active")
[ "$restarts" = 0 ] || problems+=("$restarts restarts")
[ "$watchdog_killed" -eq 0 ] || problems+=("the watchdog killed it")
[ "$seccomp_killed" -eq 0 ] || problems+=("the system call filter killed it")
[ "$reload_ok" -eq 1 ] || problems+=("reload failed")
[ "$stop_ok" -eq 1 ] || problems+=("stop did not end in exit 0")
case $status_text in "probe: "*" unexpected"*) problems+=("the probe found something unexpected") ;; esac
if [ ${#problems[@]} -eq 0 ]; then
  say "as expected: active under the unit's hardening, no restarts, reload and stop clean"
  exit 0
fi
say "NOT as expected: ${problems[*]}"
exit 1

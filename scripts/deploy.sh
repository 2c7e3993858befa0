#!/usr/bin/env bash
# Deploys Thunderstorm from a PC to a Pi over ssh: takes a built binary (or builds one), copies
# it with the unit, the board file and install.sh to the Pi, installs and (re)starts the
# service there, and prints the service's state and status line.
#
#   scripts/deploy.sh HOST [--board FILE] [--binary PATH] [--dry-run]
#
# HOST is what ssh takes (pi@weather.local). The binary must be built for the Pi (aarch64):
#   - given with --binary (built on a Pi, or cross-built; docs/guide/build-and-install.md), or
#   - built here when this PC is aarch64 too, or
#   - built on the Pi itself when it is not: the package is copied there and built with the
#     Pi's Swift toolchain (swift build -c release --static-swift-stdlib --traits Hardware).
# SSH and SCP may name other commands (tests use stand-ins that run locally).
# Exit status: 0 deployed and active, 1 the service is not active after the restart, 64 usage,
# 66 a file is missing, 69 the Pi cannot be reached.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ssh_=${SSH:-ssh}
scp_=${SCP:-scp}
host=""
board="$here/board/raspberry-pi-4.json"
binary=""
dry_run=0

usage() { echo "usage: deploy.sh HOST [--board FILE] [--binary PATH] [--dry-run]" >&2; exit 64; }
while [ $# -gt 0 ]; do
  case "$1" in
    --board) [ $# -ge 2 ] || usage; board=$2; shift ;;
    --binary) [ $# -ge 2 ] || usage; binary=$2; shift ;;
    --dry-run) dry_run=1 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    -*) usage ;;
    *) [ -z "$host" ] || usage; host=$1 ;;
  esac
  shift
done
[ -n "$host" ] || usage
[ -f "$board" ] || { echo "deploy.sh: no board file $board" >&2; exit 66; }

say() { printf '+ %s\n' "$*"; }
do_() {  # runs a command, or prints it with --dry-run
  say "$*"
  [ "$dry_run" -eq 1 ] || "$@"
}

stage=/tmp/thunderstorm-deploy
if [ "$dry_run" -eq 1 ]; then
  remote_arch=aarch64
  say "$ssh_ $host uname -m   (assumed aarch64 in a dry run)"
else
  remote_arch=$($ssh_ "$host" uname -m) || { echo "deploy.sh: cannot reach $host over ssh" >&2; exit 69; }
fi

build=(swift build -c release --static-swift-stdlib --traits Hardware --product thunderstorm)
remote_build=0
if [ -z "$binary" ]; then
  if [ "$(uname -m)" = "$remote_arch" ]; then
    do_ "${build[@]}" --package-path "$here"
    binary="$here/.build/release/thunderstorm"
  else
    remote_build=1
    echo "deploy.sh: this PC is $(uname -m) and $host is $remote_arch: building on $host"
  fi
fi

do_ "$ssh_" "$host" "rm -rf $stage && mkdir -p $stage/board $stage/scripts"
if [ "$remote_build" -eq 1 ]; then
  # The package without build products, built by the Pi's toolchain.
  do_ tar -C "$here" --exclude='./.build*' --exclude='./.git' -czf /tmp/thunderstorm-src.tgz .
  do_ "$scp_" /tmp/thunderstorm-src.tgz "$host:$stage/src.tgz"
  do_ "$ssh_" "$host" "cd $stage && tar -xzf src.tgz && ${build[*]}"
  remote_binary=$stage/.build/release/thunderstorm
else
  [ "$dry_run" -eq 1 ] || [ -f "$binary" ] || { echo "deploy.sh: no binary $binary" >&2; exit 66; }
  do_ "$scp_" "$binary" "$host:$stage/thunderstorm"
  remote_binary=$stage/thunderstorm
fi
do_ "$scp_" "$here/board/thunderstorm.service" "$host:$stage/board/thunderstorm.service"
do_ "$scp_" "$board" "$host:$stage/board.json"
do_ "$scp_" "$here/scripts/install.sh" "$host:$stage/scripts/install.sh"
do_ "$ssh_" "$host" "sudo bash $stage/scripts/install.sh --binary $remote_binary --board $stage/board.json --unit $stage/board/thunderstorm.service"

if [ "$dry_run" -eq 1 ]; then
  say "$ssh_ $host systemctl is-active thunderstorm; systemctl show -p StatusText --value thunderstorm"
  exit 0
fi
sleep 2
state=$($ssh_ "$host" systemctl is-active thunderstorm || true)
status=$($ssh_ "$host" systemctl show -p StatusText --value thunderstorm || true)
echo "thunderstorm on $host: $state${status:+ — $status}"
[ "$state" = active ] || { echo "deploy.sh: see the log: ssh $host journalctl -u thunderstorm -n 50" >&2; exit 1; }

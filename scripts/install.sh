#!/usr/bin/env bash
# Installs Thunderstorm as a systemd service on this machine (a Raspberry Pi), or into DESTDIR:
#   /usr/local/bin/thunderstorm                  the binary (--binary, default .build/release/thunderstorm)
#   /etc/thunderstorm/board.json                 the board file (--board, default board/raspberry-pi-4.json),
#                                                checked with `thunderstorm board check` first
#   /etc/systemd/system/thunderstorm.service     the unit (board/thunderstorm.service), written last,
#                                                so a unit on the disk always finds its binary and board
#   /var/lib/thunderstorm                        the state (settings, places, weather cache):
#                                                made by systemd (StateDirectory=) at the first start
# then reloads systemd, enables the service and starts it, or restarts it when something changed.
#
#   sudo scripts/install.sh [--binary PATH] [--board FILE] [--dry-run]
#   sudo scripts/install.sh --uninstall [--purge]     (keeps the state unless --purge)
#   DESTDIR=/tmp/pkg scripts/install.sh …             (packaging and tests: files only, no systemctl)
#
# Power-cut safe: each file is copied to a temporary file in its target's directory, fsync'd,
# renamed over the target (rename(2) is atomic), and the directory is fsync'd (coreutils `sync
# PATH` is open + fsync(2)). After a cut a target is the old file or the whole new one, never
# empty: a cut 25 s after an install that did not sync left the unit 0 bytes long, which systemd
# loads as masked (notes/virtual-board.md §4, ext4 delayed allocation). New directories, the
# enable symlink and --uninstall's removals are synced into their parent directories too, and
# "installed" or "uninstalled" is printed only once all of it is on the disk. A temporary file
# left by a cut (.NAME.install-XXXXXX beside the target) is removed by the next run.
#
# Idempotent: a file that is already there with the same content is left alone (and synced), and
# nothing is restarted when nothing changed. Exit status: 0 done, 64 usage, 65 invalid board file,
# 66 a file is missing, 74 a file could not be written or synced, 77 not root (without DESTDIR or
# --dry-run).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
destdir=${DESTDIR:-}
destdir=${destdir%/}
binary="$here/.build/release/thunderstorm"
board="$here/board/raspberry-pi-4.json"
unit="$here/board/thunderstorm.service"
dry_run=0
uninstall=0
purge=0
changed=0

usage() { echo "usage: install.sh [--binary PATH] [--board FILE] [--unit FILE] [--dry-run] | --uninstall [--purge]" >&2; exit 64; }
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) [ $# -ge 2 ] || usage; binary=$2; shift ;;
    --board) [ $# -ge 2 ] || usage; board=$2; shift ;;
    --unit) [ $# -ge 2 ] || usage; unit=$2; shift ;;
    --dry-run) dry_run=1 ;;
    --uninstall) uninstall=1 ;;
    --purge) purge=1 ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) usage ;;
  esac
  shift
done
[ "$purge" -eq 0 ] || [ "$uninstall" -eq 1 ] || usage

if [ -z "$destdir" ] && [ "$dry_run" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (sudo scripts/install.sh), or set DESTDIR to install into a folder" >&2
  exit 77
fi

# A temporary file not yet renamed into place is removed on any exit.
temporary=""
trap 'if [ -n "$temporary" ]; then rm -f -- "$temporary"; fi' EXIT

io_failed() {
  echo "install.sh: $1; fix that and run install.sh again (each file is the old one or the new one, whole)" >&2
  exit 74
}

# attempt WHAT COMMAND...: COMMAND, or one line with WHAT and its reason (the text after its last ": ").
attempt() {
  local what=$1 error; shift
  error=$("$@" 2>&1 >/dev/null) || io_failed "$what: ${error##*: }"
}

# durable PATH...: fsync(2) on each file or directory (coreutils sync: open read-only, fsync).
durable() {
  local error
  error=$(sync -- "$@" 2>&1) || io_failed "cannot sync to the disk: ${error#sync: }"
}

run() {  # run DESCRIPTION COMMAND...: says DESCRIPTION once COMMAND has done it
  local what=$1; shift
  changed=1
  if [ "$dry_run" -eq 1 ]; then echo "would: $what"; else "$@"; echo "$what"; fi
}

systemctl_() {
  if [ -n "$destdir" ]; then
    echo "skipped (DESTDIR): systemctl $*"
  elif ! command -v systemctl >/dev/null || [ ! -d /run/systemd/system ]; then
    echo "skipped (systemd is not running here): systemctl $*"
  elif [ "$dry_run" -eq 1 ]; then
    echo "would: systemctl $*"
  else
    systemctl "$@"
  fi
}

# enable and disable add or remove a symlink in the WantedBy= target's .wants directory (the
# unit's [Install] section); systemctl does not sync it, so a cut could undo the enable.
sync_wants() {
  local wants=$destdir/etc/systemd/system/multi-user.target.wants
  if [ "$dry_run" -eq 0 ] && [ -d "$wants" ]; then durable "$wants" "$destdir/etc/systemd/system"; fi
}

# make_dir DIR: DIR and its missing parents, each new one synced into its parent.
make_dir() {
  local dir=$1 missing=()
  while [ ! -d "$dir" ]; do missing=("$dir" "${missing[@]}"); dir=$(dirname "$dir"); done
  [ ${#missing[@]} -gt 0 ] || return 0
  attempt "cannot create ${missing[-1]}" mkdir -p -- "${missing[-1]}"
  durable "$dir" "${missing[@]}"
}

# put SOURCE TARGET MODE: a temporary copy with MODE, fsync'd, renamed over TARGET, the
# directory fsync'd (the order that makes a rename durable: rename(2), fsync(2), and ext4's
# data=ordered with delayed allocation, Documentation/admin-guide/ext4.rst).
put() {
  local source=$1 target=$2 mode=$3 dir
  dir=$(dirname "$target")
  make_dir "$dir"
  temporary=$(mktemp -- "$dir/.$(basename "$target").install-XXXXXX" 2>&1) || io_failed "cannot create a file in $dir: ${temporary##*: }"
  attempt "cannot write $temporary" cp -- "$source" "$temporary"
  attempt "cannot set the mode of $temporary" chmod "$mode" "$temporary"
  durable "$temporary"
  attempt "cannot rename $temporary to $target" mv -f -T -- "$temporary" "$target"
  temporary=""
  durable "$dir"
}

# install_file SOURCE TARGET MODE: copies when the content or mode differs.
install_file() {
  local source=$1 target=$destdir$2 mode=$3 stale removed=0
  for stale in "$(dirname "$target")/.$(basename "$target").install-"??????; do
    [ -f "$stale" ] || continue
    if [ "$dry_run" -eq 1 ]; then
      echo "would: remove ${stale#"$destdir"} (left by an interrupted install)"
    else
      rm -f -- "$stale" && removed=1 && echo "removed: ${stale#"$destdir"} (left by an interrupted install)"
    fi
  done
  [ "$removed" -eq 0 ] || durable "$(dirname "$target")"
  if [ -f "$target" ] && cmp -s "$source" "$target" && [ "$(stat -c %a "$target")" = "$mode" ]; then
    # Written before, perhaps by a copy that never synced it: make sure it is on the disk.
    [ "$dry_run" -eq 1 ] || durable "$target" "$(dirname "$target")"
    echo "unchanged: $2"
  else
    run "installed: $2" put "$source" "$target" "$mode"
  fi
}

remove() {
  local target=$destdir$1
  if [ -e "$target" ] || [ -L "$target" ]; then
    run "removed: $1" remove_durably "$target"
  else
    echo "absent: $1"
  fi
}
remove_durably() {
  attempt "cannot remove $1" rm -rf -- "$1"
  durable "$(dirname "$1")"
}

if [ "$uninstall" -eq 1 ]; then
  if [ -f "$destdir/etc/systemd/system/thunderstorm.service" ]; then
    systemctl_ disable --now thunderstorm.service
    sync_wants
  fi
  remove /etc/systemd/system/thunderstorm.service
  remove /usr/local/bin/thunderstorm
  remove /etc/thunderstorm
  if [ "$purge" -eq 1 ]; then
    # DynamicUser keeps the state in /var/lib/private/thunderstorm behind a symlink.
    remove /var/lib/thunderstorm
    remove /var/lib/private/thunderstorm
  else
    echo "kept: /var/lib/thunderstorm (settings and places; --purge removes them)"
  fi
  systemctl_ daemon-reload
  echo "install.sh: uninstalled$([ "$dry_run" -eq 1 ] && echo " (dry run: nothing changed)")"
  exit 0
fi

for file in "$binary" "$board" "$unit"; do
  [ -f "$file" ] || { echo "install.sh: $file does not exist (build first: swift build -c release --static-swift-stdlib --traits Hardware --product thunderstorm)" >&2; exit 66; }
done

# The board file is checked by the binary that will read it, when it can run here.
if "$binary" --help >/dev/null 2>&1; then
  if ! "$binary" board check "$board"; then
    echo "install.sh: $board is not a valid board file; nothing was installed" >&2
    exit 65
  fi
else
  echo "note: $binary does not run on this machine; the board file was not checked here"
fi

install_file "$binary" /usr/local/bin/thunderstorm 755
install_file "$board" /etc/thunderstorm/board.json 644
install_file "$unit" /etc/systemd/system/thunderstorm.service 644
echo "state: /var/lib/thunderstorm (systemd makes it at the first start and keeps it)"

if [ "$changed" -eq 1 ]; then
  systemctl_ daemon-reload
  systemctl_ enable thunderstorm.service
  sync_wants
  systemctl_ restart thunderstorm.service
  echo "install.sh: installed$([ "$dry_run" -eq 1 ] && echo " (dry run: nothing changed)")"
else
  systemctl_ enable thunderstorm.service
  sync_wants
  systemctl_ start thunderstorm.service
  echo "install.sh: nothing changed"
fi

#!/usr/bin/env bash
# Installs Thunderstorm as a systemd service on this machine (a Raspberry Pi), or into DESTDIR:
#   /usr/local/bin/thunderstorm                  the binary (--binary, default .build/release/thunderstorm)
#   /etc/systemd/system/thunderstorm.service     the unit (board/thunderstorm.service)
#   /etc/thunderstorm/board.json                 the board file (--board, default board/raspberry-pi-4.json),
#                                                checked with `thunderstorm board check` first
#   /var/lib/thunderstorm                        the state (settings, places, weather cache):
#                                                made by systemd (StateDirectory=) at the first start
# then reloads systemd, enables the service and starts it, or restarts it when something changed.
#
#   sudo scripts/install.sh [--binary PATH] [--board FILE] [--dry-run]
#   sudo scripts/install.sh --uninstall [--purge]     (keeps the state unless --purge)
#   DESTDIR=/tmp/pkg scripts/install.sh …             (packaging and tests: files only, no systemctl)
#
# Idempotent: a file that is already there with the same content is left alone, and nothing is
# restarted when nothing changed. Exit status: 0 done, 64 usage, 65 invalid board file, 66 a file
# is missing, 77 not root (without DESTDIR or --dry-run).
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

usage() { echo "usage: install.sh [--binary PATH] [--board FILE] [--dry-run] | --uninstall [--purge]" >&2; exit 64; }
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) [ $# -ge 2 ] || usage; binary=$2; shift ;;
    --board) [ $# -ge 2 ] || usage; board=$2; shift ;;
    --unit) [ $# -ge 2 ] || usage; unit=$2; shift ;;
    --dry-run) dry_run=1 ;;
    --uninstall) uninstall=1 ;;
    --purge) purge=1 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) usage ;;
  esac
  shift
done
[ "$purge" -eq 0 ] || [ "$uninstall" -eq 1 ] || usage

if [ -z "$destdir" ] && [ "$dry_run" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (sudo scripts/install.sh), or set DESTDIR to install into a folder" >&2
  exit 77
fi

run() {  # run DESCRIPTION COMMAND...
  local what=$1; shift
  changed=1
  if [ "$dry_run" -eq 1 ]; then echo "would: $what"; else echo "$what"; "$@"; fi
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

# install_file SOURCE TARGET MODE: copies when the content or mode differs.
install_file() {
  local source=$1 target=$destdir$2 mode=$3
  if [ -f "$target" ] && cmp -s "$source" "$target" && [ "$(stat -c %a "$target")" = "$mode" ]; then
    echo "unchanged: $2"
  else
    run "installed: $2" install -D -m "$mode" "$source" "$target"
  fi
}

remove() {
  local target=$destdir$1
  if [ -e "$target" ] || [ -L "$target" ]; then run "removed: $1" rm -rf "$target"; else echo "absent: $1"; fi
}

if [ "$uninstall" -eq 1 ]; then
  if [ -f "$destdir/etc/systemd/system/thunderstorm.service" ]; then systemctl_ disable --now thunderstorm.service; fi
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
  echo "install.sh: uninstalled"
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
install_file "$unit" /etc/systemd/system/thunderstorm.service 644
install_file "$board" /etc/thunderstorm/board.json 644
echo "state: /var/lib/thunderstorm (systemd makes it at the first start and keeps it)"

if [ "$changed" -eq 1 ]; then
  systemctl_ daemon-reload
  systemctl_ enable thunderstorm.service
  systemctl_ restart thunderstorm.service
  echo "install.sh: installed$([ "$dry_run" -eq 1 ] && echo " (dry run: nothing changed)")"
else
  systemctl_ enable thunderstorm.service
  systemctl_ start thunderstorm.service
  echo "install.sh: nothing changed"
fi

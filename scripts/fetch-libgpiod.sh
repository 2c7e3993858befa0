#!/usr/bin/env bash
# Prints the path of a libgpiod.so.3 (libgpiod 2) for the GPIO tests on a machine that lacks
# one, without installing anything: the system's if it has one, else Debian's libgpiod3 fetched
# with `apt-get download` under a private APT_CONFIG (its own sources list, lists and cache, so
# the machine's apt is untouched) and unpacked with dpkg-deb -x into DIR. On Debian 12 it comes
# from bookworm-backports, on later releases from the release itself.
#
#   THUNDERSTORM_TEST_LIBGPIOD=$(scripts/fetch-libgpiod.sh /tmp/libgpiod) swift test --traits Hardware
#
# Exit status: 0 printed, 64 usage, 69 no libgpiod3 could be had (apt says why on stderr).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 64; }
dir=$1
if system=$(ldconfig -p 2>/dev/null | awk '$1 == "libgpiod.so.3" {print $NF; exit}') && [ -n "$system" ]; then
  echo "$system"
  exit 0
fi
found=$(find "$dir/tree" -name libgpiod.so.3 2>/dev/null | head -n 1 || true)
[ -n "$found" ] && { echo "$found"; exit 0; }
codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release | tr -d "\"'")
suite=$codename
[ "$codename" = bookworm ] && suite=bookworm-backports
# The mirror this machine's apt reads Debian from, else Debian's own.
# shellcheck source=scripts/lib/apt-mirror.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/apt-mirror.sh"
mirror=$(apt_mirror)
mirror=${mirror:-http://deb.debian.org/debian}
mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$dir/debs" "$dir/tree"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${mirror%/} $suite main" >"$dir/sources.list"
cat >"$dir/apt.conf" <<CONF
Dir::Etc::SourceList "$dir/sources.list";
Dir::Etc::SourceParts "/nonexistent";
Dir::State::Lists "$dir/lists";
Dir::Cache::Archives "$dir/archives";
Acquire::Languages "none";
CONF
APT_CONFIG=$dir/apt.conf apt-get update -qq >&2 || exit 69
(cd "$dir/debs" && APT_CONFIG=$dir/apt.conf apt-get download -q libgpiod3 >&2) || exit 69
for deb in "$dir"/debs/libgpiod3_*.deb; do dpkg-deb -x "$deb" "$dir/tree"; done
found=$(find "$dir/tree" -name libgpiod.so.3 | head -n 1)
[ -n "$found" ] || { echo "$0: no libgpiod.so.3 in $(ls "$dir"/debs)" >&2; exit 69; }
echo "$found"

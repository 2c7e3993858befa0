#!/usr/bin/env bash
# Checks a Debian package made by scripts/package-deb.sh, without systemd running:
#   1. lintian: no error and no warning (packaging/deb/lintian-overrides says why for the rest),
#      this machine's and, inside the chroot of each other release, that release's;
#   2. in a Debian 12 and a Debian 13 chroot (debootstrap --variant=minbase, cached; each run on
#      an overlay over the cache, so the cache stays pristine), with apt resolving the Depends
#      from the release's mirror:
#        install   `apt-get install ./DEB`: the groups gpio/i2c/dialout, the enable symlink, the
#                  "choose your board" line, nothing started; `thunderstorm setup raspberry-pi-4`
#                  writes /etc/thunderstorm/board.json, durably (strace, check-sync-order.py)
#        upgrade   a second package, same binary, version V+check1 (package-deb.sh --version):
#                  the board file and the state (/var/lib/private/thunderstorm, as DynamicUser=
#                  leaves it) kept, the new version runs
#        remove    no binary, no unit, no enable symlink, no deb-systemd-helper record; the board
#                  file and the state kept
#        purge     the board file and the state gone; nothing named thunderstorm anywhere
#      Each maintainer script that wrote something called sync(2) (strace on dpkg's children),
#      and what each step left behind outside dpkg's and apt's own files is listed.
#
#   scripts/check-deb.sh [--releases "bookworm trixie"] DEB
#
# The chroot steps need root and the package's architecture to be this machine's (an arm64
# package is checked on the arm64 virtual board); otherwise they are skipped with one line.
# Cache: $DEB_CHROOT_CACHE (default $DEB_CACHE/chroots, DEB_CACHE defaulting to .build-deb): one
# minbase root per release with its apt lists and the dependencies' .debs. Cold, each root is a
# debootstrap (about 70 s here) and an apt-get update plus downloads; warm, the whole check is
# lintian plus about 30 s per release. Exit status: 0 passed, 1 a check failed, 64 usage.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
releases="bookworm trixie"
mirror=${DEB_MIRROR:-http://deb.debian.org/debian}
usage() { echo "usage: check-deb.sh [--releases \"bookworm trixie\"] DEB" >&2; exit 64; }
while [ $# -gt 0 ]; do
  case "$1" in
    --releases) [ $# -ge 2 ] || usage; releases=$2; shift 2 ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] && [ -f "$1" ] || usage
deb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cache=${DEB_CHROOT_CACHE:-${DEB_CACHE:-$here/.build-deb}/chroots}
fail() { echo "check-deb: $*" >&2; exit 1; }
started=$SECONDS

echo "--- lintian $(lintian --version | cut -d' ' -f2) on $(basename "$deb")"
lint=$(lintian --pedantic "$deb" 2>&1 | grep -v '^running with root privileges' || true)
[ -z "$lint" ] || echo "$lint"
! grep -qE '^[EW]: ' <<<"$lint" || fail "lintian reports errors or warnings (above)"
echo "lintian: no errors or warnings ($((SECONDS - started)) s)"

version=$(dpkg-deb -f "$deb" Version)
arch=$(dpkg-deb -f "$deb" Architecture)
if [ "$(id -u)" -ne 0 ]; then echo "skipped: the chroot checks (they need root)"; exit 0; fi
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
  echo "skipped: the chroot checks ($arch package on a $(dpkg --print-architecture) machine; the arm64 virtual board installs it)"
  exit 0
fi

work=$(mktemp -d /var/tmp/check-deb.XXXXXX)
mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" || true; done
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT

# The upgrade: the same binary packaged again with a higher version.
mkdir -p "$work/extract" "$work/debs"
dpkg-deb -x "$deb" "$work/extract"
cp "$deb" "$work/debs/"
newer=$(DEB_COMPRESSION=none bash "$here/scripts/package-deb.sh" --arch "$arch" --binary "$work/extract/usr/bin/thunderstorm" \
  --version "$version+check1" --out "$work/debs" | tail -n 1)
old=$work/debs/$(basename "$deb")

# The packaged unit: as hardened as board/thunderstorm.service (scripts/check-unit.py's limit).
if command -v systemd-analyze >/dev/null; then
  exposure=$(systemd-analyze security --offline=yes "$work/extract/usr/lib/systemd/system/thunderstorm.service" 2>&1 \
    | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
  echo "unit: exposure ${exposure:-?} (systemd-analyze security --offline=yes on the packaged unit; limit 2.0)"
  awk -v e="${exposure:-99}" 'BEGIN { exit !(e <= 2.0) }' || fail "the packaged unit's exposure is ${exposure:-unknown}, above 2.0"
fi

# base RELEASE: the cached minbase root, its apt lists at most a day old.
base() {
  local release=$1 dir=$cache/chroot-$1
  if [ ! -x "$dir/usr/bin/apt-get" ]; then
    echo "cold: debootstrap --variant=minbase $release $dir $mirror"
    rm -rf "$dir"
    mkdir -p "$cache"
    debootstrap --variant=minbase "$release" "$dir" "$mirror" >"$cache/debootstrap-$release.log" 2>&1 \
      || { tail -n 20 "$cache/debootstrap-$release.log"; fail "debootstrap $release failed"; }
  fi
  cp /etc/resolv.conf "$dir/etc/resolv.conf"
  if [ -z "$(find "$dir/var/lib/apt/lists" -maxdepth 1 -name '*_Packages*' -mtime -1 2>/dev/null)" ]; then
    chroot "$dir" apt-get update -qq
  fi
  # The dependencies' .debs (and lintian's, for a release other than this machine's) in the
  # cache's archives, so a warm run downloads nothing.
  cp "$old" "$dir/tmp/thunderstorm.deb"
  chroot "$dir" env DEBIAN_FRONTEND=noninteractive apt-get install -qq -y --download-only /tmp/thunderstorm.deb >/dev/null
  if [ "$release" != "$host_release" ]; then
    chroot "$dir" env DEBIAN_FRONTEND=noninteractive apt-get install -qq -y --download-only --no-install-recommends lintian >/dev/null
  fi
  rm -f "$dir/tmp/thunderstorm.deb"
}

# overlay RELEASE: root= a fresh root for one run, an overlay over the cached base (which is
# never written to), with /proc.
overlay() {
  local release=$1 top=$work/$1
  mkdir -p "$top/upper" "$top/work" "$top/root"
  mount -t overlay overlay -o "lowerdir=$cache/chroot-$release,upperdir=$top/upper,workdir=$top/work" "$top/root"
  mounted+=("$top/root")
  mount -t proc proc "$top/root/proc"
  mounted+=("$top/root/proc")
  mkdir -p "$top/root/debs"
  cp "$old" "$newer" "$top/root/debs/"
  root=$top/root
}

# inside ROOT COMMAND...: COMMAND in the chroot, its syncs and execs traced into $trace if set.
trace=""
inside() {
  local root=$1; shift
  if [ -n "$trace" ]; then
    strace -f -qq -o "$trace" -e trace=sync,syncfs,fsync,fdatasync,execve chroot "$root" "$@"
  else
    chroot "$root" "$@"
  fi
}
apt_() { inside "$1" env DEBIAN_FRONTEND=noninteractive apt-get -y -q -o Dpkg::Use-Pty=0 "${@:2}"; }

# synced_after SCRIPT: after SCRIPT's exec, a process that exec'd sync(1) called sync(2) (the
# scripts end with `sync`; dpkg's own fsyncs do not count).
synced_after() {
  awk -v script="$1" '
    $0 ~ "execve\\(\"[^\"]*" script "\"" { seen = 1 }
    seen && $0 ~ /execve\("[^"]*\/sync"/ { syncer[$1] = 1 }
    seen && ($1 in syncer) && $0 ~ / sync\(\)/ { found = 1 }
    END { exit !found }' "$trace" || fail "$release: $1 wrote files but did not sync them (trace: $trace)"
}

# left ROOT STEP: what STEP added (+), removed (-) and changed (~), outside dpkg's and apt's own
# books, logs, caches, the CA certificate links and rc?.d (compared with the previous listing).
listing() {
  (cd "$1" && find etc var/lib usr run -xdev \
    ! -path 'var/lib/dpkg/*' ! -path 'var/lib/apt/*' ! -path 'var/cache/*' ! -path 'var/log/*' \
    ! -path 'etc/ld.so.cache' ! -path 'usr/share/doc/*' ! -path 'usr/share/man/*' ! -path 'usr/lib/x86_64-linux-gnu/*' \
    ! -path 'etc/ssl/certs/*' ! -path 'etc/rc?.d/*' ! -path 'usr/share/locale/*' -printf '/%p\n' 2>/dev/null | sort) || true
}
left() {
  local root=$1 step=$2 dir=$work/$release
  listing "$root" >"$dir/$step.list"
  echo "  $step left (+ new, - gone, ~ changed; not shown: dpkg's and apt's books, logs, caches, CA links, rc?.d):"
  {
    comm -13 "$dir/previous.list" "$dir/$step.list" | sed 's/^/    + /'
    comm -23 "$dir/previous.list" "$dir/$step.list" | sed 's/^/    - /'
    comm -12 "$dir/previous.list" "$dir/$step.list" | while IFS= read -r path; do
      if [ ! -d "$root$path" ] && [ ! -L "$root$path" ] && [ "$root$path" -nt "$dir/mark" ]; then echo "    ~ $path"; fi
    done
  } | awk '!/^    [+-] \/usr\// || /thunderstorm/' || true
  # Other packages' files under /usr are dpkg -L's business; thunderstorm's are shown.
  touch "$dir/mark"
  cp "$dir/$step.list" "$dir/previous.list"
}

host_release=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
unit_link=etc/systemd/system/multi-user.target.wants/thunderstorm.service
dsh_state=var/lib/systemd/deb-systemd-helper-enabled
for release in $releases; do
  step_started=$SECONDS
  echo "--- $release: install, setup, upgrade, remove, purge ($(basename "$old") → $(basename "$newer"))"
  base "$release"
  overlay "$release"
  touch "$work/$release/mark"
  listing "$root" >"$work/$release/previous.list"

  # Install.
  trace=$work/$release/install.trace
  apt_ "$root" install ./debs/"$(basename "$old")" >"$work/$release/install.log" 2>&1 \
    || { cat "$work/$release/install.log"; fail "$release: apt-get install failed"; }
  grep -q "choose your board: sudo thunderstorm setup raspberry-pi-4 (boards: .*raspberry-pi-4" "$work/$release/install.log" \
    || { cat "$work/$release/install.log"; fail "$release: no \"choose your board\" line"; }
  synced_after postinst
  trace=""
  for group in gpio i2c dialout; do inside "$root" getent group "$group" >/dev/null || fail "$release: no group $group"; done
  # deb-systemd-helper links to /lib/systemd/system/… on a merged-/usr root (its first match).
  [[ "$(readlink "$root/$unit_link")" == */lib/systemd/system/thunderstorm.service ]] || fail "$release: not enabled ($unit_link)"
  [ "$(inside "$root" thunderstorm --version)" = "$version" ] || fail "$release: thunderstorm --version is not $version"
  [ ! -e "$root/etc/thunderstorm" ] || fail "$release: /etc/thunderstorm exists before setup"
  if [ -x "$root/usr/bin/systemd-analyze" ]; then  # systemd came in with the dependencies (trixie)
    verify=$(inside "$root" systemd-analyze verify /usr/lib/systemd/system/thunderstorm.service 2>&1) \
      || fail "$release: systemd-analyze verify: $verify"
    echo "  systemd-analyze verify (systemd $(inside "$root" dpkg-query -W -f '${Version}' systemd)): ${verify:-ok}"
  fi
  echo "  install: $(grep -c '^Unpacking' "$work/$release/install.log") packages unpacked; $(grep 'choose your board' "$work/$release/install.log")"
  echo "  installed by dpkg: $(inside "$root" dpkg -L thunderstorm | grep -vc '/$' || true) paths"
  left "$root" install

  # Choose the board; then the state a started DynamicUser= service would have left.
  strace -f -y -qq -o "$work/$release/setup.trace" -e trace=fsync,fdatasync,rename,renameat,renameat2,unlink,unlinkat,rmdir \
    chroot "$root" thunderstorm setup raspberry-pi-4 >"$work/$release/setup.log" 2>&1 \
    || { cat "$work/$release/setup.log"; fail "$release: thunderstorm setup failed"; }
  sed 's/^/  setup: /' "$work/$release/setup.log"
  # The board file renamed into place after its own fdatasync, then /etc/thunderstorm fsync'd;
  # /etc/thunderstorm itself new, so /etc fsync'd too. strace -y names descriptors by their path
  # outside the chroot, the calls' own paths are the chroot's: the root is cut from the first.
  sed -i "s|<$root/|</|g; s|<$root>|</>|g" "$work/$release/setup.trace"
  python3 "$here/scripts/check-sync-order.py" "$work/$release/setup.trace" --renamed /etc/thunderstorm/board.json --synced /etc \
    || fail "$release: thunderstorm setup did not write /etc/thunderstorm/board.json durably (trace above)"
  echo "  setup: durable (scripts/check-sync-order.py: board.json fdatasync'd, renamed, /etc/thunderstorm and /etc fsync'd)"
  cmp -s "$root/etc/thunderstorm/board.json" "$here/board/raspberry-pi-4.json" || fail "$release: board.json is not raspberry-pi-4.json"
  [ "$(stat -c %a "$root/etc/thunderstorm/board.json")" = 644 ] || fail "$release: board.json is not 0644"
  mkdir -p "$root/var/lib/private/thunderstorm"
  echo state >"$root/var/lib/private/thunderstorm/settings.a"
  ln -sfn private/thunderstorm "$root/var/lib/thunderstorm"
  left "$root" setup

  # Upgrade.
  trace=$work/$release/upgrade.trace
  apt_ "$root" install ./debs/"$(basename "$newer")" >"$work/$release/upgrade.log" 2>&1 \
    || { cat "$work/$release/upgrade.log"; fail "$release: upgrade failed"; }
  synced_after postinst
  trace=""
  ! grep -q "choose your board" "$work/$release/upgrade.log" || fail "$release: the upgrade asks for a board although one is chosen"
  [ "$(inside "$root" thunderstorm --version)" = "$version" ] || true  # same binary: same --version
  [ "$(inside "$root" dpkg-query -W -f '${Version}' thunderstorm)" = "$version+check1" ] || fail "$release: not upgraded"
  cmp -s "$root/etc/thunderstorm/board.json" "$here/board/raspberry-pi-4.json" || fail "$release: the upgrade changed board.json"
  [ "$(cat "$root/var/lib/thunderstorm/settings.a")" = state ] || fail "$release: the upgrade lost the state"
  [ -L "$root/$unit_link" ] || fail "$release: the upgrade disabled the unit"
  echo "  upgrade: $(inside "$root" dpkg-query -W -f '${Version}' thunderstorm); board.json and state kept"
  left "$root" upgrade

  # Remove.
  trace=$work/$release/remove.trace
  apt_ "$root" remove thunderstorm >"$work/$release/remove.log" 2>&1 \
    || { cat "$work/$release/remove.log"; fail "$release: remove failed"; }
  synced_after postrm
  trace=""
  for gone in usr/bin/thunderstorm usr/lib/systemd/system/thunderstorm.service "$unit_link" "$dsh_state/thunderstorm.service.dsh-also" \
    "$dsh_state/multi-user.target.wants/thunderstorm.service" etc/systemd/system/thunderstorm.service; do
    [ ! -e "$root/$gone" ] && [ ! -L "$root/$gone" ] || fail "$release: remove left /$gone"
  done
  [ -f "$root/etc/thunderstorm/board.json" ] && [ -f "$root/var/lib/thunderstorm/settings.a" ] || fail "$release: remove took the board file or the state"
  echo "  remove: $(inside "$root" dpkg-query -W -f '${db:Status-Abbrev}' thunderstorm)(status); board.json and the state kept"
  left "$root" remove

  # Purge.
  trace=$work/$release/purge.trace
  apt_ "$root" purge thunderstorm >"$work/$release/purge.log" 2>&1 \
    || { cat "$work/$release/purge.log"; fail "$release: purge failed"; }
  synced_after postrm
  trace=""
  for gone in etc/thunderstorm var/lib/thunderstorm var/lib/private/thunderstorm; do
    [ ! -e "$root/$gone" ] && [ ! -L "$root/$gone" ] || fail "$release: purge left /$gone"
  done
  leftovers=$(cd "$root" && find . -xdev -name '*thunderstorm*' ! -path './debs/*' ! -path './var/cache/*' ! -path './var/log/*' | head)
  [ -z "$leftovers" ] || fail "$release: purge left $leftovers"
  inside "$root" dpkg-query -W thunderstorm >/dev/null 2>&1 && fail "$release: dpkg still knows thunderstorm after purge"
  echo "  purge: nothing named thunderstorm left; the groups gpio, i2c stay (system groups are not removed)"
  left "$root" purge

  # That release's lintian too (the host's ran above): a newer lintian knows other tags, and an
  # override of a tag it no longer has is an error there (alien-tag).
  if [ "$release" != "$host_release" ]; then
    apt_ "$root" install --no-install-recommends lintian >"$work/$release/lintian-install.log" 2>&1 \
      || { cat "$work/$release/lintian-install.log"; fail "$release: apt-get install lintian failed"; }
    lint=$(inside "$root" su nobody -s /bin/sh -c "lintian --pedantic --display-info /debs/$(basename "$old")" 2>&1 || true)
    echo "  lintian $(inside "$root" lintian --version | cut -d' ' -f2) ($release):${lint:+$'\n'}${lint:- nothing}" | sed '2,$s/^/    /'
    ! grep -qE '^[EW]: ' <<<"$lint" || fail "$release: lintian reports errors or warnings (above)"
  fi
  echo "$release: passed ($((SECONDS - step_started)) s)"
done
echo "check-deb: passed ($((SECONDS - started)) s)"

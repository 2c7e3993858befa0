#!/usr/bin/env bash
# Builds the Debian package from a release binary and the files in packaging/deb:
#   /usr/bin/thunderstorm                          the binary, stripped (strip, or the ARCH's strip)
#   /usr/lib/systemd/system/thunderstorm.service   board/thunderstorm.service with ExecStart= at
#                                                  /usr/bin and ConditionPathExists= the board file
#   /usr/share/thunderstorm/boards/*.json          board/*.json (`thunderstorm setup NAME`)
#   /usr/lib/thunderstorm/setup-pi.sh              scripts/setup-pi.sh (`setup` runs it on a Pi)
#   /usr/lib/udev/rules.d/60-thunderstorm.rules    gpiochip* → gpio, i2c-* → i2c, 0660
#   /usr/lib/modules-load.d/thunderstorm.conf      i2c-dev at boot
#   /usr/share/man/man1/thunderstorm.1.gz, /usr/share/doc/thunderstorm/{copyright,changelog.gz},
#   /usr/share/lintian/overrides/thunderstorm (each override says why)
# and the maintainer scripts packaging/deb/{postinst,prerm,postrm}.
#
#   scripts/package-deb.sh --arch amd64|arm64 --binary PATH [--version V] --out DIR
#
# Prints the path of DIR/thunderstorm_V_ARCH.deb last. The version is Sources/thunderstorm/
# Version.swift's unless --version is given. Depends are read from the binary: each NEEDED
# library is mapped to its package (an unknown one fails), libc6's version is the binary's newest
# GLIBC_ symbol version and libstdc++6's the GCC that introduced its newest GLIBCXX_ version;
# libssl.so.3 and libz.so.1 are dlopen'd, so they are named by hand. File dates are
# SOURCE_DATE_EPOCH (default: the last commit's date), so one binary gives the same .deb twice.
# Exit status: 0 built, 64 usage, 65 the binary is not for ARCH or needs an unknown library,
# 66 a file is missing, 69 no strip for ARCH.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
pkg=$here/packaging/deb
arch="" binary="" version="" out=""

usage() { echo "usage: package-deb.sh --arch amd64|arm64 --binary PATH [--version V] --out DIR" >&2; exit 64; }
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) [ $# -ge 2 ] || usage; arch=$2; shift ;;
    --binary) [ $# -ge 2 ] || usage; binary=$2; shift ;;
    --version) [ $# -ge 2 ] || usage; version=$2; shift ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) usage ;;
  esac
  shift
done
[ -n "$arch" ] && [ -n "$binary" ] && [ -n "$out" ] || usage
fail() { echo "package-deb.sh: $2" >&2; exit "$1"; }
[ -f "$binary" ] || fail 66 "$binary does not exist (scripts/build-deb.sh $arch builds it)"

if [ -z "$version" ]; then
  version=$(sed -n 's/^let thunderstormVersion = "\(.*\)"$/\1/p' "$here/Sources/thunderstorm/Version.swift")
  [ -n "$version" ] || fail 66 "no version in Sources/thunderstorm/Version.swift"
fi
[[ "$version" =~ ^[0-9][A-Za-z0-9.+~-]*$ ]] || fail 64 "version \"$version\" is not a Debian version"

case "$arch" in
  amd64) machine="X86-64"; cross_strip=(x86_64-linux-gnu-strip) ;;
  arm64) machine="AArch64"; cross_strip=(aarch64-linux-gnu-strip llvm-strip llvm-strip-19 llvm-strip-17 llvm-strip-16 llvm-strip-14) ;;
  *) usage ;;
esac
header=$(readelf -h "$binary")
grep -q "Machine: .*$machine" <<<"$header" || fail 65 "$binary is not an $arch binary: $(sed -n 's/^ *Machine: *//p' <<<"$header")"

# --- Depends, from the binary ---------------------------------------------------------------
newest() { readelf -V "$binary" | grep -o "$1[0-9.]*" | sed "s/^$1//" | sort -uV | tail -n 1; }
glibc=$(newest GLIBC_)
glibcxx=$(newest GLIBCXX_)
depends=()
for library in $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
  case "$library" in
    libc.so.6 | libm.so.6 | libanl.so.1 | libdl.so.2 | libpthread.so.0 | librt.so.1 | ld-linux-*.so.*) package="libc6 (>= $glibc)" ;;
    libstdc++.so.6)
      # GLIBCXX_3.4.N → the GCC that brought it (libstdc++'s symbol versioning table).
      case "$glibcxx" in
        3.4.2[0-8] | 3.4.1* | 3.4 | 3.4.[0-9]) package="libstdc++6" ;;
        3.4.29) package="libstdc++6 (>= 11)" ;;
        3.4.30) package="libstdc++6 (>= 12)" ;;
        3.4.31) package="libstdc++6 (>= 13)" ;;
        3.4.32 | 3.4.33) package="libstdc++6 (>= 14)" ;;
        *) fail 65 "libstdc++ symbol version GLIBCXX_$glibcxx is newer than this script knows; add it" ;;
      esac
      ;;
    libgcc_s.so.1) package="libgcc-s1" ;;
    libi2c.so.0) package="libi2c0" ;;
    *) fail 65 "$binary needs $library, which this script cannot name a package for; add it" ;;
  esac
  [[ " ${depends[*]-} " == *" $package,"* ]] || depends+=("$package,")
done
# dlopen'd at run time (CTLS), the unit's ExecReload=/bin/kill (procps), the weather over HTTPS
# (ca-certificates) and local time (tzdata).
depends+=("libssl3 | libssl3t64," "zlib1g," "ca-certificates," "tzdata," "procps")
depends_line="${depends[*]}"

# --- The tree -------------------------------------------------------------------------------
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH=$epoch
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
install -d -m 755 "$root/DEBIAN" "$root/usr/bin" "$root/usr/lib/systemd/system" "$root/usr/share/thunderstorm/boards" \
  "$root/usr/lib/thunderstorm" "$root/usr/lib/udev/rules.d" "$root/usr/lib/modules-load.d" \
  "$root/usr/share/doc/thunderstorm" "$root/usr/share/man/man1" "$root/usr/share/lintian/overrides"

install -m 755 "$binary" "$root/usr/bin/thunderstorm"
# dh_strip's flags for an executable: no symbol table, no .comment or .note sections. A binary
# stripped already (scripts/build-deb.sh strips its copy) is taken as it is, so packaging an arm64
# binary needs no arm64 strip here.
stripped=0
# (readelf's whole output first: with pipefail, grep -q quitting early would fail the pipeline.)
sections=$(readelf -S "$binary")
if ! grep -qE '\] \.(symtab|comment) ' <<<"$sections"; then stripped=1; fi
for tool in strip "${cross_strip[@]}"; do
  [ "$stripped" -eq 0 ] || break
  command -v "$tool" >/dev/null || continue
  if "$tool" --remove-section=.comment --remove-section=.note "$root/usr/bin/thunderstorm" 2>/dev/null; then stripped=1; break; fi
done
[ "$stripped" -eq 1 ] || fail 69 "no strip here handles $arch binaries (tried strip ${cross_strip[*]}; apt install binutils-aarch64-linux-gnu)"

unit=$root/usr/lib/systemd/system/thunderstorm.service
sed -e 's|/usr/local/bin/thunderstorm|/usr/bin/thunderstorm|g' \
  -e 's|^# Installed by scripts/install.sh as /etc/systemd/system/thunderstorm.service, with the binary$|# Installed by the Debian package (scripts/package-deb.sh makes it from board/thunderstorm.service),|' \
  -e 's|^# at /usr/bin/thunderstorm and the board file at /etc/thunderstorm/board.json.$|# with the binary at /usr/bin/thunderstorm; it starts once `thunderstorm setup BOARD` has written\n# /etc/thunderstorm/board.json.|' \
  -e 's|^After=network.target time-sync.target$|&\nConditionPathExists=/etc/thunderstorm/board.json|' \
  "$here/board/thunderstorm.service" >"$unit"
grep -q '^ExecStart=/usr/bin/thunderstorm run ' "$unit" && grep -q '^ConditionPathExists=/etc/thunderstorm/board.json$' "$unit" \
  && ! grep -q /usr/local "$unit" || fail 65 "board/thunderstorm.service changed shape: ExecStart or After= not found; update package-deb.sh"

for board in "$here"/board/*.json; do install -m 644 "$board" "$root/usr/share/thunderstorm/boards/"; done
sed '1s|^#!/usr/bin/env bash$|#!/bin/bash|' "$here/scripts/setup-pi.sh" >"$root/usr/lib/thunderstorm/setup-pi.sh"
chmod 755 "$root/usr/lib/thunderstorm/setup-pi.sh"
install -m 644 "$pkg/udev.rules" "$root/usr/lib/udev/rules.d/60-thunderstorm.rules"
install -m 644 "$pkg/modules-load.conf" "$root/usr/lib/modules-load.d/thunderstorm.conf"
install -m 644 "$pkg/copyright" "$root/usr/share/doc/thunderstorm/copyright"
date=$(date -u -R -d "@$epoch")
# A native package (the packaging lives in the project's repository, versions have no Debian
# revision): its changelog is changelog.gz (Policy 12.7).
sed -e "s/@VERSION@/$version/" -e "s/@DATE@/$date/" "$pkg/changelog" | gzip -9n >"$root/usr/share/doc/thunderstorm/changelog.gz"
sed "s/@VERSION@/$version/" "$pkg/thunderstorm.1" | gzip -9n >"$root/usr/share/man/man1/thunderstorm.1.gz"
install -m 644 "$pkg/lintian-overrides" "$root/usr/share/lintian/overrides/thunderstorm"
chmod 644 "$root/usr/share/doc/thunderstorm/changelog.gz" "$root/usr/share/man/man1/thunderstorm.1.gz"
for script in postinst prerm postrm; do install -m 755 "$pkg/$script" "$root/DEBIAN/$script"; done

(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
chmod 644 "$root/DEBIAN/md5sums"
installed_size=$(du -s -k --apparent-size "$root/usr" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
  -e "s/@DEPENDS@/$depends_line/" "$pkg/control.in" >"$root/DEBIAN/control"
find "$root" -exec touch --no-dereference --date="@$epoch" {} +

mkdir -p "$out"
deb=$(cd "$out" && pwd)/thunderstorm_${version}_${arch}.deb
# Owned by root whoever builds it; xz as Debian's own packages are (DEB_COMPRESSION=none for a
# package only a test installs: check-deb.sh's upgrade).
dpkg-deb --root-owner-group "-Z${DEB_COMPRESSION:-xz}" --build "$root" "$deb" >/dev/null
echo "$deb"

#!/usr/bin/env bash
# The release Hardware binary for a Raspberry Pi (arm64) or a PC (amd64), built from Debian's
# packages only, checked to need glibc <= 2.36 (Debian 12 / Raspberry Pi OS bookworm), then
# packaged: dist/thunderstorm_VERSION_ARCH.deb. The route and its pitfalls: notes/arm64.md.
#
#   scripts/build-deb.sh arm64   sid's Swift pair: the amd64 compiler in a sid chroot, sid's arm64
#                                runtime (swiftlang:arm64, unpacked, never installed), linked against
#                                a bookworm arm64 sysroot through a Swift SDK bundle, plus a small
#                                shim for the four glibc 2.38 symbols the runtime archives want
#                                (scripts/deb/glibc238-shim.c); run once under qemu-aarch64-static.
#   scripts/build-deb.sh amd64   this machine's Swift (the build .ci/run makes for the soak, same
#                                scratch path .build-release, so CI compiles it once).
#
# Both strip a copy of the binary for the package (the unstripped one stays in the cache), print
# the Swift version used, the newest GLIBC/GLIBCXX/CXXABI versions and NEEDED, fail naming every
# symbol that needs glibc > 2.36, then call scripts/package-deb.sh and print the .deb path last.
#
# Cache: ${DEB_CACHE:-.build-deb} (ignored by git), each part keyed on what it came from:
#   sid-amd64/            the compiler: debootstrap --variant=minbase sid + swiftlang git libc6-dev
#                         (reused while its swiftlang matches sid's arm64 one; upgraded when sid moves)
#   arm64/runtime-VER/    usr/libexec/swift/lib/{swift,swift_static,clang} of swiftlang_VER_arm64.deb
#   arm64/sysroot/        bookworm arm64 libc6, libc6-dev, linux-libc-dev, libgcc-12-dev, libgcc-s1,
#                         libstdc++-12-dev, libstdc++6, libi2c-dev, libi2c0 (dpkg -x; rebuilt when a
#                         version changes: arm64/sysroot.stamp)
#   arm64/sdks/           the Swift SDK bundle (thunderstorm-arm64.artifactbundle) and the shim object
#   arm64/scratch/        SwiftPM's scratch path for the cross build
#   out/arm64/            thunderstorm (unstripped), thunderstorm.stripped
#   apt-sid/, apt-bookworm/  private apt lists (this machine's apt setup is untouched)
# The mirror is the one this machine's apt uses; DEB_SID_MIRROR overrides it for sid (e.g. a
# snapshot.debian.org URL, to pin the compiler). Delete the folder to start again.
#
# Needs root (debootstrap, chroot, bind mounts; unmounted on every exit), ~7 GB of disk for arm64,
# the network for a cold arm64 run (~0.6 GB: sid's arm64 swiftlang alone is ~508 MB) and
# /opt/swift-packages (the package's dependencies; git's url.insteadOf from this machine is
# replicated inside the chroot). Environment: DEB_JOBS (default 2), DEB_SKIP_QEMU=1.
#
# Costs measured (2-core x86-64 Debian 12, load average 9-18 from other builds and two TCG VMs;
# wall times are inflated by that load, CPU times are not):
#   arm64 cold, empty cache: 35 min 34 s in all = sid chroot 715 s (debootstrap) + sid lists 61 s
#     + swiftlang:arm64 download and runtime unpack 92 s + bookworm lists 11 s + sysroot 3 s
#     + build 1243 s wall (311 s CPU; 1,220,444 KiB peak RSS of all the build's processes)
#     + checks, strip, qemu simulate 3-5 s. Cache afterwards: 4.7 GB (chroot 4.0 GB, arm64 0.5 GB).
#   arm64 warm, nothing changed: 28-31 s (apt lists 13 + 6 s, build 2-7 s, qemu 3 s).
#   amd64 cold (.build-release empty): build 909 s wall, the script's CPU 228 s; warm: 17-46 s.
#   The binary: arm64 19,912,968 bytes stripped (46 MB unstripped), newest GLIBC_2.35,
#   GLIBCXX_3.4.30, CXXABI_1.3.11; amd64 21,839,736 bytes, GLIBC_2.35, GLIBCXX_3.4.29.
#
# Exit: 0 built and packaged, 64 usage, 69 a tool or package cannot be had, 70 the build or a
# check of the binary failed.
set -euo pipefail
prog=build-deb.sh
cd "$(dirname "$0")/.."
repo=$(pwd)
cache=${DEB_CACHE:-$repo/.build-deb}
jobs=${DEB_JOBS:-2}

# The glibc of Debian 12 / Raspberry Pi OS bookworm: the oldest system the package installs on.
glibc_max=2.36
# The bookworm arm64 packages the sysroot is made of (link time: headers, crt files, .so links).
sysroot_packages=(libc6 libc6-dev linux-libc-dev libgcc-12-dev libgcc-s1 libstdc++-12-dev libstdc++6 libi2c-dev libi2c0)
build_flags=(-c release --static-swift-stdlib --traits Hardware --product thunderstorm)

say() { echo "$prog: $*" >&2; }
die() { say "$2"; exit "$1"; }
usage() { die 64 "usage: $prog arm64|amd64"; }

[ $# -eq 1 ] || usage
arch=$1
case $arch in arm64 | amd64) ;; *) usage ;; esac

stage_started=0
stage() { stage_started=$SECONDS; say "$*"; }
stage_done() { say "$1: $((SECONDS - stage_started)) s"; }
# The CPU seconds (user + system) of this script's finished children, from bash's `times` (run
# in this shell: a subshell has no children's times), into the variable cpu.
children_cpu() {
  local file
  file=$(mktemp)
  times >"$file"
  cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%d\n", t }' "$file")
  rm -f "$file"
}

# shellcheck source=scripts/lib/apt-mirror.sh
. "$repo/scripts/lib/apt-mirror.sh"
mirror() {  # the mirror this machine's apt reads Debian from
  local uri
  uri=$(apt_mirror)
  [ -n "$uri" ] || die 69 "no Debian mirror in this machine's apt sources"
  echo "$uri"
}

need_tools() {  # need_tools COMMAND:PACKAGE…
  local missing=() pair
  for pair in "$@"; do command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}"); done
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; } \
      || die 69 "cannot install ${missing[*]}"
  fi
}

# ---------------------------------------------------------------------------------------------
# The checks both architectures share.

# check_binary FILE: the newest symbol versions, NEEDED, and no glibc symbol newer than glibc_max.
check_binary() {
  local bin=$1 versions too_new newest
  versions=$(readelf -W --dyn-syms "$bin" | awk '$7 == "UND" && $8 ~ /@/ {sub(/ \([0-9]+\)$/, "", $8); print $8}' | sort -u)
  for family in GLIBC GLIBCXX CXXABI; do
    newest=$(sed -n "s/.*@${family}_\([0-9.]*\)\$/\1/p" <<<"$versions" | sort -V | tail -1)
    say "newest $family: ${newest:-none}"
  done
  say "NEEDED: $(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
  too_new=$(awk -v max="$glibc_max" '
    function newer(v, m,   a, b, i, n) {
      n = split(v, a, "."); split(m, b, ".")
      for (i = 1; i <= n || i <= 2; i++) { if ((a[i] + 0) != (b[i] + 0)) return (a[i] + 0) > (b[i] + 0) }
      return 0
    }
    match($0, /@GLIBC_[0-9.]+$/) { v = substr($0, RSTART + 7); if (newer(v, max)) printf "%s ", $0 }' <<<"$versions")
  [ -z "$too_new" ] || die 70 "$(basename "$bin") needs glibc > $glibc_max for: ${too_new% }"
  say "size: $(stat -c %s "$bin") bytes"
}

package() {  # package STRIPPED_BINARY: scripts/package-deb.sh prints the .deb's path last
  local deb
  [ -x scripts/package-deb.sh ] || die 69 "scripts/package-deb.sh is missing: it writes the .deb"
  mkdir -p dist
  deb=$(scripts/package-deb.sh --arch "$arch" --binary "$1" --out dist/ | tail -1) || die 70 "scripts/package-deb.sh failed"
  [ -f "$deb" ] || die 70 "scripts/package-deb.sh wrote no .deb (it printed: ${deb:-nothing})"
  realpath "$deb"
}

# measured LABEL LOG COMMAND…: runs the build, its output also in LOG, and says its wall time, its
# CPU time and its peak memory (all its processes together, sampled once a second).
measured() {
  local label=$1 log=$2 status=0 peak=0 sum cpu cpu_before
  shift 2
  children_cpu; cpu_before=$cpu
  "$@" > >(tee "$log") 2>&1 &
  build_pid=$!
  while kill -0 "$build_pid" 2>/dev/null; do
    sum=$(ps -eo pid=,ppid=,rss= | awk -v root="$build_pid" '
      { parent[$1] = $2; rss[$1] = $3 }
      END { for (p in parent) { q = p; while (q != "" && q != 0 && q != 1) { if (q == root) { t += rss[p]; break } q = parent[q] } } print t + 0 }')
    [ "$sum" -gt "$peak" ] && peak=$sum
    sleep 1
  done
  wait "$build_pid" || status=$?
  build_pid=
  stage_done "$label"
  children_cpu
  say "$label: CPU time (user + system) $((cpu - cpu_before)) s, peak RSS of all its processes together $peak KiB"
  return "$status"
}

# ---------------------------------------------------------------------------------------------
# amd64: this machine's toolchain.

build_amd64() {
  command -v swift >/dev/null || die 69 "no swift on this machine (the amd64 package is built with the host's toolchain)"
  need_tools readelf:binutils strip:binutils
  say "Swift: $(swift --version 2>&1 | head -1)"
  stage "swift build ${build_flags[*]} --scratch-path .build-release"
  mkdir -p "$cache"
  measured "amd64 build" "$cache/build-amd64.log" swift build "${build_flags[@]}" --scratch-path .build-release \
    || die 70 "the amd64 build failed with $(swift --version 2>&1 | head -1) (the errors are above; log: $cache/build-amd64.log)"
  local bin=.build-release/release/thunderstorm out=$cache/out/amd64
  mkdir -p "$out"
  cp "$bin" "$out/thunderstorm"
  strip --remove-section=.comment --remove-section=.note -o "$out/thunderstorm.stripped" "$out/thunderstorm"
  check_binary "$out/thunderstorm.stripped"
  say "amd64 binary: $out/thunderstorm (unstripped), $out/thunderstorm.stripped; $SECONDS s so far"
  package "$out/thunderstorm.stripped"
}

# ---------------------------------------------------------------------------------------------
# arm64: sid's Swift pair and a bookworm sysroot.

root=$cache/sid-amd64
x=$cache/arm64          # seen as /x inside the chroot
mounts=()
build_pid=

cleanup() {
  if [ -n "$build_pid" ]; then kill "$build_pid" 2>/dev/null || true; wait "$build_pid" 2>/dev/null || true; fi
  unmount_all
}

unmount_all() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" 2>/dev/null || say "cannot unmount ${mounts[i]}"
  done
  mounts=()
}
trap cleanup EXIT
trap 'exit 130' INT TERM

bind() {  # bind SOURCE TARGET [ro]
  mkdir -p "$2"
  mount --bind "$1" "$2" || die 69 "cannot bind-mount $1 on $2"
  mounts+=("$2")
  if [ "${3:-}" = ro ]; then mount -o remount,bind,ro "$2" || die 69 "cannot make $2 read-only"; fi
}

# A private apt for one suite and architecture (own sources, lists and cache).
private_apt() {  # private_apt NAME SUITE MIRROR ARCHITECTURES… → apt.conf path
  local suite=$2 uri=$3 dir=$cache/apt-$1
  shift 3
  mkdir -p "$dir/lists/partial" "$dir/archives/partial"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main" >"$dir/sources.list"
  {
    echo "Dir::Etc::SourceList \"$dir/sources.list\";"
    echo 'Dir::Etc::SourceParts "/nonexistent";'
    echo "Dir::State::Lists \"$dir/lists\";"
    echo 'Dir::State::status "/dev/null";'
    echo "Dir::Cache::Archives \"$dir/archives\";"
    echo "APT::Architecture \"$1\";"
    echo "APT::Architectures { $(printf '"%s"; ' "$@")};"
    echo 'Acquire::Languages "none";'
    echo 'APT::Sandbox::User "root";'
    case $uri in *snapshot.debian.org*) echo 'Acquire::Check-Valid-Until "false";' ;; esac
  } >"$dir/apt.conf"
  echo "$dir/apt.conf"
}

chroot_swift_version() {
  # shellcheck disable=SC2016 # dpkg-query's fields, not the shell's
  chroot "$root" dpkg-query -W -f='${Status} ${Version}' swiftlang 2>/dev/null | awk '$3 == "installed" {print $4}'
}

make_chroot() {
  [ -n "$(chroot_swift_version 2>/dev/null)" ] && return 0
  stage "debootstrap sid (the compiler: swiftlang, git, libc6-dev) into $root"
  rm -rf "$root"; mkdir -p "$cache"
  debootstrap --variant=minbase --include=swiftlang,git,libc6-dev,ca-certificates sid "$root" "$sid_mirror" \
    >"$cache/debootstrap-sid.log" 2>&1 || { tail -20 "$cache/debootstrap-sid.log" >&2; die 69 "debootstrap sid failed (log: $cache/debootstrap-sid.log)"; }
  [ -n "$(chroot_swift_version)" ] || die 69 "the sid chroot has no swiftlang installed"
  stage_done "sid chroot"
}

# The compiler and the arm64 runtime must be the very same swiftlang build. When sid has moved on,
# the chroot's swiftlang is upgraded to it (and the new runtime fetched), and that is said.
match_sid() {
  local conf sid_arm64 sid_amd64
  compiler_version=$(chroot_swift_version)
  conf=$(private_apt sid sid "$sid_mirror" arm64 amd64)
  sid_conf=$conf
  local started=$SECONDS
  if ! APT_CONFIG=$conf apt-get update -qq 2>"$cache/apt-sid.err"; then
    if [ -f "$x/runtime-$compiler_version/done" ]; then
      say "apt cannot read sid ($(head -1 "$cache/apt-sid.err")); building with the cached swiftlang $compiler_version"
      runtime_version=$compiler_version; return 0
    fi
    die 69 "apt cannot read sid: $(head -1 "$cache/apt-sid.err")"
  fi
  local versions
  versions=$(APT_CONFIG=$conf apt-cache show --no-all-versions swiftlang:arm64 swiftlang:amd64 2>/dev/null \
    | awk '/^Version:/ {v = $2} /^Architecture:/ {a = $2} /^$/ {if (v != "") print a, v; v = ""} END {if (v != "") print a, v}')
  sid_arm64=$(awk '$1 == "arm64" {print $2}' <<<"$versions")
  sid_amd64=$(awk '$1 == "amd64" {print $2}' <<<"$versions")
  say "sid's package lists: $((SECONDS - started)) s"
  [ -n "$sid_arm64" ] || die 69 "sid has no swiftlang for arm64 any more"
  say "swiftlang: compiler (sid chroot, amd64) $compiler_version; sid today: amd64 ${sid_amd64:-none}, arm64 $sid_arm64"
  if [ "$compiler_version" != "$sid_arm64" ]; then
    [ "$sid_amd64" = "$sid_arm64" ] \
      || die 69 "sid's swiftlang differs between amd64 (${sid_amd64:-none}) and arm64 ($sid_arm64): the compiler and the runtime must match; wait for sid or pin DEB_SID_MIRROR to a snapshot"
    stage "sid's Swift moved from $compiler_version to $sid_arm64: upgrading the chroot's swiftlang"
    { chroot "$root" apt-get update -qq && DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq --no-install-recommends swiftlang; } \
      >"$cache/apt-chroot.log" 2>&1 || { tail -20 "$cache/apt-chroot.log" >&2; die 69 "cannot upgrade the chroot's swiftlang to $sid_arm64"; }
    compiler_version=$(chroot_swift_version)
    [ "$compiler_version" = "$sid_arm64" ] || die 69 "the chroot's swiftlang is $compiler_version after the upgrade, sid's arm64 one $sid_arm64"
    stage_done "chroot upgrade"
  fi
  runtime_version=$sid_arm64
}

# The target's Swift runtime: only the parts a link needs, from sid's swiftlang:arm64 (not the
# compiler's binaries, the host plugins or the embedded stdlib, ~2.6 GB unpacked).
fetch_runtime() {
  local dir=$x/runtime-$runtime_version
  [ -f "$dir/done" ] && return 0
  stage "downloading sid's swiftlang $runtime_version for arm64 (~508 MB) and unpacking its runtime"
  rm -rf "$dir" "$x/debs-sid"; mkdir -p "$dir" "$x/debs-sid"
  (cd "$x/debs-sid" && APT_CONFIG=$sid_conf apt-get download -q "swiftlang:arm64=$runtime_version") >/dev/null \
    || die 69 "cannot download swiftlang:arm64 $runtime_version from sid"
  dpkg-deb --fsys-tarfile "$x"/debs-sid/swiftlang_*_arm64.deb \
    | tar -x -C "$dir" --wildcards --exclude='*/lib/swift/host/*' --exclude='*/lib/swift/embedded/*' \
      --exclude='*/lib/swift_static/embedded/*' --exclude='*/lib/swift/pm/*' \
      './usr/libexec/swift/lib/swift/*' './usr/libexec/swift/lib/swift_static/*' './usr/libexec/swift/lib/clang/*' \
    || die 69 "cannot unpack swiftlang_${runtime_version}_arm64.deb"
  [ -f "$dir/usr/libexec/swift/lib/swift_static/linux/libswiftCore.a" ] || die 69 "swiftlang $runtime_version for arm64 has no static runtime (swift_static/linux/libswiftCore.a)"
  rm -rf "$x/debs-sid"
  # Other versions' runtimes are this script's own stale caches.
  find "$x" -maxdepth 1 -name 'runtime-*' ! -name "runtime-$runtime_version" -exec rm -rf {} +
  touch "$dir/done"
  stage_done "runtime download and unpack"
}

# The bookworm arm64 sysroot: what the binary is linked against, so it asks only for bookworm's
# glibc. Rebuilt when any of its packages changes version.
make_sysroot() {
  local conf stamp sysroot=$x/sysroot link target
  conf=$(private_apt bookworm bookworm "$(mirror)" arm64)
  local started=$SECONDS
  APT_CONFIG=$conf apt-get update -qq || die 69 "apt cannot read bookworm"
  stamp=$(APT_CONFIG=$conf apt-cache show --no-all-versions "${sysroot_packages[@]/%/:arm64}" 2>/dev/null \
    | awk '/^Package:/ {p = $2} /^Version:/ {print p "=" $2}' | sort)
  say "bookworm's package lists: $((SECONDS - started)) s"
  [ "$(wc -l <<<"$stamp")" = ${#sysroot_packages[@]} ] || die 69 "bookworm lacks one of ${sysroot_packages[*]} for arm64"
  if [ -f "$x/sysroot.stamp" ] && [ "$(cat "$x/sysroot.stamp")" = "$stamp" ]; then return 0; fi
  stage "bookworm arm64 sysroot: ${sysroot_packages[*]}"
  rm -rf "$sysroot" "$x/sysroot.stamp" "$x/debs-bookworm"; mkdir -p "$sysroot" "$x/debs-bookworm"
  local wanted
  mapfile -t wanted <<<"${stamp//=/:arm64=}"
  (cd "$x/debs-bookworm" && APT_CONFIG=$conf apt-get download -q "${wanted[@]}") >/dev/null \
    || die 69 "cannot download the bookworm arm64 packages"
  for deb in "$x"/debs-bookworm/*.deb; do dpkg-deb -x "$deb" "$sysroot"; done
  rm -rf "$x/debs-bookworm"
  # Pitfall: absolute links (libm.so → /lib/aarch64-linux-gnu/libm.so.6) point out of the
  # sysroot; lld then falls back to libm.a and the binary wants errno@GLIBC_PRIVATE.
  while IFS= read -r -d '' link; do
    target=$(readlink "$link")
    case $target in
      /*) ln -sfn "$(realpath -ms --relative-to="$(dirname "$link")" "$sysroot$target")" "$link" ;;
    esac
  done < <(find "$sysroot" -type l -print0)
  echo "$stamp" >"$x/sysroot.stamp"
  stage_done "sysroot"
}

# The Swift SDK bundle: the sysroot with sid's arm64 runtime as its Swift resources, lld, and the
# glibc 2.38 shim linked in.
make_sdk() {
  local sysroot=$x/sysroot bundle=$x/sdks/thunderstorm-arm64.artifactbundle rt=../../../runtime-$runtime_version/usr/libexec/swift/lib
  ln -sfn "$rt/swift" "$sysroot/usr/lib/swift"
  ln -sfn "$rt/swift_static" "$sysroot/usr/lib/swift_static"
  mkdir -p "$bundle/sdk"
  ln -sfn ../../../sysroot "$bundle/sdk/sysroot"
  cat >"$bundle/info.json" <<EOF
{
  "schemaVersion": "1.0",
  "artifacts": {
    "thunderstorm-arm64": {
      "type": "swiftSDK",
      "version": "$runtime_version",
      "variants": [{ "path": "sdk", "supportedTriples": ["x86_64-unknown-linux-gnu", "x86_64-pc-linux-gnu"] }]
    }
  }
}
EOF
  cat >"$bundle/sdk/swift-sdk.json" <<EOF
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "aarch64-unknown-linux-gnu": {
      "sdkRootPath": "sysroot",
      "swiftResourcesPath": "sysroot/usr/lib/swift",
      "swiftStaticResourcesPath": "sysroot/usr/lib/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
EOF
  cat >"$bundle/sdk/toolset.json" <<EOF
{
  "schemaVersion": "1.0",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] },
  "linker": { "extraCLIOptions": ["/x/sdks/glibc238-shim.o"] }
}
EOF
  # The scratch path belongs to one compiler, runtime and sysroot; the link, to one shim (SwiftPM
  # does not see the shim: a new one removes the linked binary).
  local key
  key="swiftlang $runtime_version; $(tr '\n' ' ' <"$x/sysroot.stamp")"
  if [ ! -f "$x/scratch.key" ] || [ "$(cat "$x/scratch.key")" != "$key" ]; then
    rm -rf "$x/scratch"; mkdir -p "$x/scratch"; echo "$key" >"$x/scratch.key"
  fi
  if [ ! -f "$x/sdks/glibc238-shim.o" ] || ! cmp -s scripts/deb/glibc238-shim.c "$x/sdks/glibc238-shim.c"; then
    cp scripts/deb/glibc238-shim.c "$x/sdks/glibc238-shim.c"
    chroot "$root" /usr/libexec/swift/bin/clang --target=aarch64-linux-gnu --sysroot=/x/sysroot -O2 -fPIC -Wall -Werror \
      -c /x/sdks/glibc238-shim.c -o /x/sdks/glibc238-shim.o || { rm -f "$x/sdks/glibc238-shim.c"; die 70 "cannot compile the glibc 2.38 shim"; }
    rm -f "$x/scratch/aarch64-unknown-linux-gnu/release/thunderstorm"
  fi
  # SwiftPM keeps its build plan when only the SDK bundle changes (it kept linking without the
  # shim after toolset.json gained it): a changed bundle removes the plan, not the objects.
  key=$(cat "$bundle/info.json" "$bundle/sdk/swift-sdk.json" "$bundle/sdk/toolset.json" | sha256sum | cut -c1-16)
  if [ ! -f "$x/sdk.key" ] || [ "$(cat "$x/sdk.key")" != "$key" ]; then
    rm -f "$x/scratch/release.yaml" "$x/scratch/aarch64-unknown-linux-gnu/release/description.json" \
      "$x/scratch/aarch64-unknown-linux-gnu/release/thunderstorm"
    echo "$key" >"$x/sdk.key"
  fi
}

# Replicates this machine's git url.*.insteadOf (the Swift packages read from /opt/swift-packages)
# in the chroot's environment, without writing the chroot's git config.
git_env() {
  local n=0 key value
  while read -r key value; do
    [ -n "$key" ] || continue
    echo "GIT_CONFIG_KEY_$n=$key"; echo "GIT_CONFIG_VALUE_$n=$value"
    n=$((n + 1))
  done < <({ git config --system --get-regexp '^url\..*\.insteadof$' || true; git config --global --get-regexp '^url\..*\.insteadof$' || true; } 2>/dev/null)
  echo "GIT_CONFIG_COUNT=$n"
}

build_arm64() {
  [ "$(id -u)" = 0 ] || die 69 "the arm64 build needs root (debootstrap, chroot, bind mounts)"
  need_tools debootstrap:debootstrap readelf:binutils dpkg-deb:dpkg
  sid_mirror=${DEB_SID_MIRROR:-$(mirror)}
  mkdir -p "$x/sdks" "$x/scratch" "$cache/out/arm64"
  make_chroot
  cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true  # for apt and git in the chroot
  match_sid
  fetch_runtime
  make_sysroot

  bind /proc "$root/proc"
  bind /dev "$root/dev"
  bind "$x" "$root/x"
  bind "$repo" "$root/src"
  # The package's dependencies: this machine's copies (git's url.insteadOf), else GitHub.
  if [ -d /opt/swift-packages ]; then bind /opt/swift-packages "$root/opt/swift-packages" ro; fi
  say "Swift: sid swiftlang $compiler_version: $(chroot "$root" swift --version 2>&1 | head -1)"
  stage "the Swift SDK bundle and the glibc 2.38 shim"
  make_sdk
  stage_done "SDK bundle"

  stage "swift build --swift-sdk thunderstorm-arm64 ${build_flags[*]} -j $jobs (sid Swift $compiler_version, in the chroot)"
  local genv status=0
  mapfile -t genv < <(git_env)
  measured "arm64 build" "$x/build.log" chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/bin:/bin LANG=C.UTF-8 "${genv[@]}" \
    swift build "${build_flags[@]}" -j "$jobs" --package-path /src --scratch-path /x/scratch \
    --swift-sdks-path /x/sdks --swift-sdk thunderstorm-arm64 || status=$?
  if [ "$status" != 0 ]; then
    # What a moved sid most likely breaks: its runtime wanting glibc symbols bookworm lacks.
    local missing
    missing=$(sed -n 's/.*undefined symbol: \([^ ]*\).*/\1/p' "$x/build.log" | sort -u | tr '\n' ' ')
    [ -z "$missing" ] || die 70 "the arm64 link failed with sid swiftlang $compiler_version: undefined ${missing% } (newer than bookworm's glibc? then add them to scripts/deb/glibc238-shim.c)"
    die 70 "the arm64 build failed with sid swiftlang $compiler_version (the errors are above; log: $x/build.log)"
  fi

  local out=$cache/out/arm64
  cp "$x/scratch/aarch64-unknown-linux-gnu/release/thunderstorm" "$out/thunderstorm"
  bind "$out" "$root/out"
  chroot "$root" /usr/libexec/swift/bin/llvm-objcopy --strip-all --remove-section=.comment --remove-section=.note /out/thunderstorm /out/thunderstorm.stripped \
    || die 70 "cannot strip the arm64 binary (llvm-objcopy --strip-all)"
  unmount_all
  check_binary "$out/thunderstorm.stripped"
  smoke_arm64 "$out/thunderstorm.stripped"
  say "arm64 binary: $out/thunderstorm (unstripped), $out/thunderstorm.stripped; $SECONDS s so far"
  package "$out/thunderstorm.stripped"
}

# The binary runs: `simulate` for ten simulated minutes under qemu-aarch64, against the sysroot's
# bookworm libraries.
smoke_arm64() {
  if [ "${DEB_SKIP_QEMU:-0}" = 1 ] || ! command -v qemu-aarch64-static >/dev/null; then
    say "not run under qemu-aarch64-static (DEB_SKIP_QEMU=1 or qemu-user-static missing)"; return 0
  fi
  stage "qemu-aarch64-static: thunderstorm simulate --headless --duration 600"
  qemu-aarch64-static -L "$x/sysroot" "$1" simulate --headless --duration 600 >/dev/null \
    || die 70 "the arm64 binary failed under qemu-aarch64-static (simulate --headless --duration 600)"
  stage_done "qemu simulate"
}

case $arch in
  amd64) build_amd64 ;;
  arm64) build_arm64 ;;
esac

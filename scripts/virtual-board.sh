#!/usr/bin/env bash
# The virtual board: the daemon on a real Linux kernel in a QEMU VM, with the board's parts at
# the far ends of the kernel's own subsystems (notes: ../shared/notes/virtual-board.md):
#   buttons  gpio-sim lines labelled like the Pi's header (pinctrl-bcm2711 / pinctrl-rp1, GPIO0…57),
#            pressed by moving the simulated pull, with contact bounce
#   GPS      the guest's /dev/ttyS1 (a 16550; on arm64 /dev/ttyAMA0, the PL011 as on a Pi) fed
#            from the host, paced to the baud rate
#   I²C      a real /dev/i2c-N: the kernel's i2c-tiny-usb driver bound to an emulated adapter
#            through USB/IP's vhci-hcd, the panel and the BME280 behind it, every transaction logged
#   systemd  PID 1; on x86-64 the project's setup-pi.sh and install.sh with the shipped unit; on
#            arm64 the Debian package, `apt install ./thunderstorm_VERSION_arm64.deb` and
#            `thunderstorm setup BOARD`
#
# Roots: bookworm, trixie (x86-64, q35) and arm64-bookworm, arm64-trixie (the Pi's architecture:
# qemu-system-aarch64 -M virt -cpu max, TCG; Debian's arm64 kernel; slow, a few times x86-64's).
#
#   scripts/virtual-board.sh build [ROOT…]    fetch and cache the kernels and the roots (default:
#                                             bookworm trixie)
#   scripts/virtual-board.sh test [ROOT…]     run the scenarios (Tools/virtual-board/test_*.py) on
#                                             each root (default: bookworm trixie). x86-64 roots:
#                                             the release binary (VBOARD_BINARY, else built here).
#                                             arm64 roots: the package VBOARD_DEB (the upgrade test
#                                             also VBOARD_DEB_NEXT, a higher version); without one,
#                                             VBOARD_BINARY_ARM64 through install.sh (not the
#                                             package: for trying the board before it exists)
#   scripts/virtual-board.sh shell ROOT       boot ROOT and run the lines read from standard input
#                                             in it (with VBOARD_BINARY, that binary is in
#                                             /opt/vboard/thunderstorm; VBOARD_DEB is in /opt/vboard)
# VBOARD_PYTEST_ARGS is passed to pytest (VBOARD_PYTEST_ARGS_ARM64, when set, instead of it for
# the arm64 roots): `-m ci_arm64` is the arm64 subset CI runs.
#
# Cache: $VBOARD_CACHE (default .build-vboard/, ignored by git): the kernels' packages, the
# roots, the initramfs images. A built root is reused; delete its folder to start again. The
# Debian mirror is the one this machine's apt uses. Needs root, ~1.5 GB of disk per root, QEMU
# and debootstrap (installed when missing). TCG (software emulation) unless VBOARD_KVM=1 (x86-64).
# Exit: 0 every scenario passed, 1 one failed, 64 usage, 69 a tool or package cannot be had.
set -euo pipefail
prog=virtual-board.sh
cd "$(dirname "$0")/.."
repo=$(pwd)
cache=${VBOARD_CACHE:-$repo/.build-vboard}

# The kernel: Debian's trixie-backports 7.x, the first Debian kernel with gpio-sim (and, like
# every 7.x package, without the GPIO v1 uAPI). Pinned; if backports has moved on, the current
# one is taken and said.
kernel_abi=${VBOARD_KERNEL_ABI:-7.3.4+deb13-amd64}
kernel_abi_arm64=${VBOARD_KERNEL_ABI_ARM64:-7.3.4+deb13-arm64}
roots_default=(bookworm trixie)
# In each root: systemd as PID 1, udev, the tools the scenarios drive (gpiod, i2c-tools,
# dmsetup), python3 for the guest agent and the I²C adapter, and what the daemon needs at run
# time is NOT here: setup-pi.sh installs it (the roots are made with it already present because
# the VM has no network; setup-pi.sh then finds them installed and says so).
root_packages="systemd-sysv,udev,kmod,libnss-systemd,dbus,python3,procps,dmsetup,e2fsprogs,initramfs-tools,busybox,gpiod,i2c-tools,libi2c0,zlib1g,tzdata,ca-certificates,libstdc++6,coreutils,util-linux"
declare -A root_extra=([bookworm]=libssl3 [trixie]=libssl3t64,libgpiod3)

# The two architectures, in one table. A root is named RELEASE (x86-64: q35) or arm64-RELEASE
# (the Pi's architecture: QEMU's `virt` board, TCG): the same Debian release, the same kernel
# package built for arm64, the same parts. What differs:
#   kernel     $cache/kernel (amd64, as before) or $cache/kernel-arm64
#   initramfs  amd64: mkinitramfs in the trixie root; arm64: made here from busybox-static:arm64
#              and the kernel's modules (no arm64 program runs on this machine)
#   root       amd64: debootstrap; arm64: debootstrap --foreign here, its second stage inside the
#              arm64 VM itself (no binfmt_misc needed), without initramfs-tools, with the
#              package's run-time dependencies (libgpiod3 on trixie): the VM has no network, so
#              `apt install ./thunderstorm_…_arm64.deb` must find them installed
#   devices    amd64: console ttyS0, GPS ttyS1 (16550); arm64: console hvc0 (virtio), GPS
#              ttyAMA0 (the PL011, the Pi's own UART driver): Tools/virtual-board/vboard.py ARCHES
declare -A kernel_dir=([amd64]=kernel [arm64]=kernel-arm64)
declare -A initrd_of=([amd64]=initrd.img [arm64]=initrd-arm64.img)
declare -A root_extra_arm64=([bookworm]=libssl3 [trixie]=libssl3t64,libgpiod3)
arm64_initrd_modules="virtio_pci virtio_blk virtio_console ext4"
arch_of() { case $1 in arm64-*) echo arm64 ;; *) echo amd64 ;; esac; }
release_of() { echo "${1#arm64-}"; }

say() { echo "$prog: $*" >&2; }
die() { say "$2"; exit "$1"; }

# shellcheck source=scripts/lib/apt-mirror.sh
. "$repo/scripts/lib/apt-mirror.sh"
mirror() {  # the mirror this machine's apt reads Debian from
  local uri
  uri=$(apt_mirror)
  [ -n "$uri" ] || die 69 "no Debian mirror in this machine's apt sources"
  echo "$uri"
}

need_tools() {  # need_tools ARCH…
  local missing=() arch
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  command -v mkfs.ext4 >/dev/null || missing+=(e2fsprogs)
  command -v cpio >/dev/null || missing+=(cpio)
  for arch in "$@"; do
    case $arch in
      amd64) command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86) ;;
      arm64) command -v qemu-system-aarch64 >/dev/null || missing+=(qemu-system-arm)
             command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)  # the host's `glass`
             command -v update-binfmts >/dev/null || missing+=(binfmt-support)
             command -v xz >/dev/null || missing+=(xz-utils) ;;
    esac
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || die 69 "cannot install ${missing[*]}"
  fi
}

# A private apt for trixie-backports (own sources, lists and cache), so this machine's apt
# setup is untouched. kernel_apt ARCH: arm64's also reads trixie main (busybox-static).
kernel_apt() {
  local arch=$1 dir=$cache/apt
  [ "$arch" = amd64 ] || dir=$cache/apt-$arch
  mkdir -p "$dir/lists/partial" "$dir/archives/partial"
  {
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(mirror) trixie-backports main"
    [ "$arch" = amd64 ] || echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(mirror) trixie main"
  } >"$dir/sources.list"
  cat >"$dir/apt.conf" <<EOF
Dir::Etc::SourceList "$dir/sources.list";
Dir::Etc::SourceParts "/nonexistent";
Dir::State::Lists "$dir/lists";
Dir::Cache::Archives "$dir/archives";
APT::Architecture "$arch";
APT::Architectures { "$arch"; };
APT::Default-Release "trixie-backports";
Acquire::Languages "none";
EOF
  echo "$dir/apt.conf"
}

fetch_kernel() {  # fetch_kernel ARCH
  local arch=$1 dir=$cache/${kernel_dir[$1]} want=$kernel_abi
  [ "$arch" = amd64 ] || want=$kernel_abi_arm64
  [ -f "$dir/done" ] && return 0
  local conf
  conf=$(kernel_apt "$arch")
  APT_CONFIG=$conf apt-get update -qq || die 69 "apt cannot read trixie-backports"
  if ! APT_CONFIG=$conf apt-cache show "linux-binary-$want" >/dev/null 2>&1; then
    local current
    current=$(APT_CONFIG=$conf apt-cache depends "linux-image-$arch" | awk '/Depends: linux-image-/ {sub("linux-image-", "", $2); print $2; exit}')
    [ -n "$current" ] || die 69 "trixie-backports has no linux-image-$arch"
    say "kernel $want is gone from trixie-backports; taking the current one, $current"
    want=$current
  fi
  rm -rf "$dir"; mkdir -p "$dir/debs"
  (cd "$dir/debs" && APT_CONFIG=$conf apt-get download -q "linux-binary-$want" "linux-modules-$want" "linux-base-$want") \
    || die 69 "cannot download the kernel $want"
  mkdir -p "$dir/tree"
  for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/tree"; done
  cp "$dir/tree/usr/lib/modules/$want/vmlinuz" "$dir/vmlinuz"
  echo "$want" >"$dir/abi"
  touch "$dir/done"
}

abi() { cat "$cache/${kernel_dir[${1:-amd64}]}/abi"; }

finish_root() {  # finish_root ROOT RELEASE ARCH: what every root gets after debootstrap
  local root=$1 release=$2 arch=$3 name=vboard-$2
  [ "$arch" = amd64 ] || name=vboard-$arch-$release
  # No network, no login: root logs in on the console without a password (a test VM only).
  echo "$name" >"$root/etc/hostname"
  passwd -R "$root" -d root >/dev/null 2>&1 || sed -i 's/^root:[^:]*:/root::/' "$root/etc/shadow"
  printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' >"$root/etc/fstab"
  # Journald keeps the log on disk so a boot after a power cut can read the one before.
  mkdir -p "$root/var/log/journal"
}

copy_modules() {  # copy_modules ROOT ARCH: the kernel's modules, where the root's kmod looks (/lib is /usr/lib on both)
  local root=$1 arch=$2
  mkdir -p "$root/usr/lib/modules"
  cp -a "$cache/${kernel_dir[$arch]}/tree/usr/lib/modules/$(abi "$arch")" "$root/usr/lib/modules/"
  rm -f "$root/usr/lib/modules/$(abi "$arch")/vmlinuz"
}

make_root() {  # make_root RELEASE
  local release=$1 root=$cache/roots/$1
  [ -f "$root/.vboard-done" ] && return 0
  rm -rf "$root"; mkdir -p "$(dirname "$root")"
  say "debootstrap $release (about a minute)"
  debootstrap --variant=minbase --include="$root_packages,${root_extra[$release]}" "$release" "$root" "$(mirror)" \
    >"$cache/debootstrap-$release.log" 2>&1 || { tail -20 "$cache/debootstrap-$release.log" >&2; die 69 "debootstrap $release failed"; }
  copy_modules "$root" amd64
  chroot "$root" depmod "$(abi)"
  finish_root "$root" "$release" amd64
  touch "$root/.vboard-done"
}

# Can this machine run arm64 programs through qemu-user (binfmt_misc)? Mounts binfmt_misc and
# registers qemu-aarch64 (qemu-user-static's binfmt entry) when needed; says no when the kernel
# or the sandbox refuses. Then debootstrap's second stage runs in a chroot here: by hand on
# this 2-core machine (debootstrap --arch arm64 --variant=minbase bookworm with systemd-sysv,
# udev, kmod, python3), 2 min 35 s of CPU and 13 min 49 s of wall time while four builds loaded
# the machine, where the second stage in an arm64 VM under TCG took 32 minutes. This function's
# path through make_root_arm64 has not yet been run to the end.
arm64_binfmt() {
  [ -e /proc/sys/fs/binfmt_misc/register ] \
    || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || return 1
  [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] \
    || update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || return 1
  grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null
}

# The arm64 root: with binfmt_misc, an ordinary debootstrap --arch arm64 whose second stage
# runs its arm64 programs through qemu-user here. Without it: debootstrap's first stage here
# (download and unpack), the second inside an arm64 VM booted on the root's own disk image,
# then the image's files back into the cache.
make_root_arm64() {  # make_root_arm64 RELEASE
  local release=$1 name=arm64-$1
  local root=$cache/roots/$name work=$cache/work-$name
  [ -f "$root/.vboard-done" ] && return 0
  local t0=$SECONDS
  if arm64_binfmt; then
    rm -rf "$root" "$work"; mkdir -p "$(dirname "$root")"
    say "debootstrap --arch arm64 $release (second stage through qemu-user)"
    debootstrap --arch arm64 --variant=minbase \
      --include="${root_packages/initramfs-tools,/},${root_extra_arm64[$release]}" \
      "$release" "$root" "$(mirror)" >"$cache/debootstrap-$name.log" 2>&1 \
      || { tail -20 "$cache/debootstrap-$name.log" >&2; die 69 "debootstrap $name failed"; }
    copy_modules "$root" arm64
    chroot "$root" depmod "$(abi arm64)"
    rm -rf "$work"
    finish_root "$root" "$release" arm64
    say "root $name made in $((SECONDS - t0)) s"
    touch "$root/.vboard-done"
    return 0
  fi
  say "no binfmt_misc for arm64 here: debootstrap's second stage runs in an arm64 VM (TCG; tens of minutes)"
  # A second stage that finished (tens of minutes under TCG) is not run again if what came
  # after it failed: $work/second-stage.done.
  if [ ! -f "$work/second-stage.done" ]; then
  rm -rf "$root" "$work"; mkdir -p "$(dirname "$root")" "$work"
  say "debootstrap --arch arm64 --foreign $release (first stage)"
  debootstrap --arch arm64 --foreign --variant=minbase \
    --include="${root_packages/initramfs-tools,/},${root_extra_arm64[$release]}" \
    "$release" "$work/root" "$(mirror)" >"$cache/debootstrap-$name.log" 2>&1 \
    || { tail -20 "$cache/debootstrap-$name.log" >&2; die 69 "debootstrap $name (first stage) failed"; }
  copy_modules "$work/root" arm64
  cat >"$work/root/vboard-second-stage" <<'EOF'
#!/bin/sh
# PID 1 of the arm64 VM that finishes the root (scripts/virtual-board.sh): then power off.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys
/debootstrap/debootstrap --second-stage && depmod -a "$(ls /usr/lib/modules)"
echo "$?" >/vboard-second-stage.rc
sync; mount -o remount,ro /; sync
echo b >/proc/sysrq-trigger
EOF
  chmod 755 "$work/root/vboard-second-stage"
  mkfs.ext4 -q -F -L vboard -d "$work/root" "$work/root.img" 2G
  # cache=unsafe: dpkg's many fsyncs stay in this machine's page cache (the VM syncs and
  # remounts read-only before it stops; no power cut is tested here).
  say "debootstrap $name: second stage in the arm64 VM (TCG; minutes)"
  timeout 3600 qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -smp 2 -m 1024 -accel tcg,thread=multi \
    -nodefaults -display none -no-reboot \
    -kernel "$cache/${kernel_dir[arm64]}/vmlinuz" -initrd "$cache/${initrd_of[arm64]}" \
    -append "root=/dev/vda rw console=hvc0 panic=-1 init=/vboard-second-stage" \
    -drive "file=$work/root.img,if=virtio,format=raw,cache=unsafe" \
    -device virtio-serial-pci -chardev "file,id=console,path=$cache/second-stage-$name.log" \
    -device virtconsole,chardev=console -nic none </dev/null >"$work/qemu.log" 2>&1 \
    || die 69 "the arm64 VM of $name's second stage failed: $(tail -5 "$work/qemu.log")"
  local rc
  rc=$(debugfs -R "cat /vboard-second-stage.rc" "$work/root.img" 2>/dev/null | tr -dc 0-9)
  [ "$rc" = 0 ] || { tail -30 "$cache/second-stage-$name.log" >&2; die 69 "debootstrap $name (second stage) failed: rc '$rc'"; }
  touch "$work/second-stage.done"
  fi
  # The image's files back into a folder, as the x86-64 roots are (vboard.Disk makes each
  # scenario's disk from it with mkfs.ext4 -d). The guest's last remount read-only can find /
  # busy, so its journal is replayed here first (a read-only loop device cannot replay it);
  # e2fsck exits 1 when it corrected something, which is expected.
  local fsck=0
  e2fsck -fy "$work/root.img" >"$work/e2fsck.log" 2>&1 || fsck=$?
  [ "$fsck" -le 1 ] || die 69 "e2fsck of $name's image: $(tail -3 "$work/e2fsck.log")"
  rm -rf "$root"; mkdir -p "$work/mnt" "$root"
  mount -o loop,ro "$work/root.img" "$work/mnt" || die 69 "cannot mount $name's image (a loop device is needed)"
  cp -a "$work/mnt/." "$root/" && umount "$work/mnt" || { umount "$work/mnt"; die 69 "cannot copy $name out of its image"; }
  rm -f "$root/vboard-second-stage" "$root/vboard-second-stage.rc"
  rm -rf "$work"
  finish_root "$root" "$release" arm64
  say "root $name made in $((SECONDS - t0)) s"
  touch "$root/.vboard-done"
}

make_initrd() {
  local out=$cache/initrd.img
  [ -f "$out" ] && return 0
  local root=$cache/roots/trixie
  # Only what mounting the root needs: the disk and the file system.
  cat >"$root/etc/initramfs-tools/modules" <<'EOF'
virtio_pci
virtio_blk
ext4
EOF
  sed -i 's/^MODULES=.*/MODULES=list/' "$root/etc/initramfs-tools/initramfs.conf"
  chroot "$root" mkinitramfs -o /tmp/initrd.img "$(abi)" >"$cache/mkinitramfs.log" 2>&1 \
    || { tail -20 "$cache/mkinitramfs.log" >&2; die 69 "mkinitramfs failed"; }
  mv "$root/tmp/initrd.img" "$out"
}

# The arm64 initramfs, made on this machine: busybox-static:arm64, the modules that mounting
# the root needs (with their dependencies from modules.dep, in order, decompressed for
# busybox's insmod) and an /init that loads them, mounts root= and runs init= (default
# /sbin/init, systemd) with switch_root.
make_initrd_arm64() {
  local out=$cache/${initrd_of[arm64]}
  [ -f "$out" ] && return 0
  local kdir=$cache/${kernel_dir[arm64]} abi
  abi=$(abi arm64)
  local work=$cache/work-initrd-arm64
  rm -rf "$work"; mkdir -p "$work/debs" "$work/tree/bin" "$work/tree/lib/modules" "$work/tree/dev" \
    "$work/tree/proc" "$work/tree/sys" "$work/tree/root"
  local conf
  conf=$(kernel_apt arm64)
  (cd "$work/debs" && APT_CONFIG=$conf apt-get download -q busybox-static) || die 69 "cannot download busybox-static:arm64"
  dpkg-deb -x "$work"/debs/busybox-static_*.deb "$work/bb"
  cp "$work/bb/usr/bin/busybox" "$work/tree/bin/busybox" 2>/dev/null || cp "$work/bb/bin/busybox" "$work/tree/bin/busybox"
  ln -s busybox "$work/tree/bin/sh"
  python3 - "$kdir/tree/usr/lib/modules/$abi" $arm64_initrd_modules >"$work/order" <<'EOF' || die 69 "a module the arm64 initramfs needs is missing"
import lzma, os, re, sys
# The package has no modules.dep (depmod makes it at install, and this machine may have no
# kmod): each module's dependencies are read from its own .modinfo ("depends=a,b").
base, wanted = sys.argv[1], sys.argv[2:]
deps, paths = {}, {}
for folder, _, files in os.walk(os.path.join(base, "kernel")):
    for file in files:
        if ".ko" in file:
            name = file.split(".ko")[0].replace("-", "_")
            paths[name] = os.path.relpath(os.path.join(folder, file), base)
def depends(name):
    if name not in deps:
        path = os.path.join(base, paths[name])
        data = lzma.open(path).read() if path.endswith(".xz") else open(path, "rb").read()
        m = re.search(rb"\0depends=([^\0]*)\0", data)
        deps[name] = [d.replace("-", "_") for d in m.group(1).decode().split(",") if d] if m else []
    return deps[name]
builtin = {os.path.basename(l.strip()).split(".ko")[0].replace("-", "_")
           for l in open(os.path.join(base, "modules.builtin"))}
order = []
def visit(name):
    if name in order or name in builtin:
        return
    if name not in paths:
        sys.exit("no module %s" % name)
    for d in depends(name):
        visit(d)
    order.append(name)
for name in wanted:
    visit(name.replace("-", "_"))
for name in order:
    print(paths[name])
EOF
  local path file
  : >"$work/tree/modules"
  while read -r path; do
    file=$(basename "$path")
    cp "$kdir/tree/usr/lib/modules/$abi/$path" "$work/tree/lib/modules/$file"
    case $file in
      *.xz) xz -d "$work/tree/lib/modules/$file"; file=${file%.xz} ;;
      *.zst) zstd -q -d --rm "$work/tree/lib/modules/$file"; file=${file%.zst} ;;
      *.gz) gzip -d "$work/tree/lib/modules/$file"; file=${file%.gz} ;;
    esac
    echo "$file" >>"$work/tree/modules"
  done <"$work/order"
  cat >"$work/tree/init" <<'EOF'
#!/bin/sh
# The arm64 virtual board's initramfs (scripts/virtual-board.sh): load the disk, console and
# file system modules, mount root=, run init=.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t devtmpfs devtmpfs /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
while read -r m; do insmod "/lib/modules/$m" || echo "initramfs: insmod $m failed"; done </modules
root=/dev/vda init=/sbin/init
for arg in $(cat /proc/cmdline); do
  case $arg in root=*) root=${arg#root=} ;; init=*) init=${arg#init=} ;; esac
done
i=0
while [ ! -b "$root" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
if ! mount -o rw "$root" /root; then
  echo "initramfs: cannot mount $root"; ls /dev; sleep 2; echo b >/proc/sysrq-trigger
fi
umount /proc /sys
mount --move /dev /root/dev
exec switch_root /root "$init"
EOF
  chmod 755 "$work/tree/init"
  (cd "$work/tree" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp" && mv "$out.tmp" "$out"
  rm -rf "$work"
}

build() {  # build [ROOT…]: the kernels, initramfs and roots these roots need
  [ "$(id -u)" -eq 0 ] || die 77 "run as root (debootstrap and the roots need it)"
  local wanted=("$@"); [ ${#wanted[@]} -gt 0 ] || wanted=("${roots_default[@]}")
  local archs=() root arch
  for root in "${wanted[@]}"; do
    arch=$(arch_of "$root")
    [[ " ${archs[*]} " == *" $arch "* ]] || archs+=("$arch")
  done
  need_tools "${archs[@]}"
  mkdir -p "$cache"
  local started=$SECONDS
  for arch in "${archs[@]}"; do fetch_kernel "$arch"; done
  # The arm64 initramfs is needed to make the arm64 roots; amd64's is made from a made root.
  [[ " ${archs[*]} " == *" arm64 "* ]] && make_initrd_arm64
  local pids=()
  for root in "${wanted[@]}"; do
    case $(arch_of "$root") in
      amd64) make_root "$root" & pids+=($!) ;;
      arm64) make_root_arm64 "$(release_of "$root")" & pids+=($!) ;;
    esac
  done
  for pid in "${pids[@]}"; do wait "$pid" || exit $?; done
  if [[ " ${archs[*]} " == *" amd64 "* ]]; then
    # Made from the trixie root (built when it is not among the roots asked for).
    make_root trixie
    make_initrd
  fi
  say "built in $((SECONDS - started)) s: roots ${wanted[*]} in $cache"
}

release_binary() {
  # The Hardware build as the guide (docs/guide/build-and-install.md) tells a user to make it on Debian 12.
  swift build -c release --static-swift-stdlib --traits Hardware --product thunderstorm \
    --scratch-path "$repo/.build-release" >&2
  echo "$repo/.build-release/release/thunderstorm"
}

case "${1:-}" in
  build) shift; build "$@" ;;
  test)
    shift
    roots=("$@"); [ ${#roots[@]} -gt 0 ] || roots=("${roots_default[@]}")
    build "${roots[@]}"
    binary=
    for root in "${roots[@]}"; do
      if [ "$(arch_of "$root")" = amd64 ]; then binary=${VBOARD_BINARY:-$(release_binary)}; break; fi
    done
    python3 -m pytest --version >/dev/null 2>&1 || pip install -q pytest
    # One pytest per root, side by side (VBOARD_PARALLEL=0: one after the other): much of a
    # scenario is waiting on the guest (a paced GPS, a held button, a boot), so two VMs share
    # the machine's cores well. Each root's log is printed whole when it is done.
    status=0 pids=() started=$SECONDS
    for root in "${roots[@]}"; do
      run_root() {
        local t0=$SECONDS arch
        arch=$(arch_of "$1")
        if [ "$arch" = amd64 ]; then
          VBOARD_CACHE=$cache VBOARD_BINARY=$binary VBOARD_DEB= VBOARD_DEB_NEXT= VBOARD_KERNEL_ABI=$(abi amd64) VBOARD_ROOTS=$1 \
            python3 -m pytest -v -p no:cacheprovider Tools/virtual-board ${VBOARD_PYTEST_ARGS:-}
        else
          VBOARD_CACHE=$cache VBOARD_BINARY=${VBOARD_BINARY_ARM64:-} VBOARD_DEB=${VBOARD_DEB:-} \
            VBOARD_DEB_NEXT=${VBOARD_DEB_NEXT:-} VBOARD_KERNEL_ABI=$(abi "$arch") VBOARD_ROOTS=$1 \
            python3 -m pytest -v -p no:cacheprovider Tools/virtual-board ${VBOARD_PYTEST_ARGS_ARM64-${VBOARD_PYTEST_ARGS:-}}
        fi
        local rc=$?
        echo "virtual board, $1 root: $((SECONDS - t0)) s"
        return $rc
      }
      if [ "${VBOARD_PARALLEL:-1}" = 1 ]; then
        run_root "$root" >"$cache/test-$root.log" 2>&1 & pids+=($!)
      else
        run_root "$root" 2>&1 | tee "$cache/test-$root.log" || status=1
      fi
    done
    for i in "${!pids[@]}"; do
      wait "${pids[$i]}" || status=1
      cat "$cache/test-${roots[$i]}.log"
    done
    echo "virtual board: $((SECONDS - started)) s for ${roots[*]}"
    exit $status
    ;;
  shell)
    [ $# -eq 2 ] || die 64 "usage: $prog shell ROOT"
    build "$2"
    # The binary is optional here (VBOARD_BINARY): a shell is for trying the parts by hand.
    VBOARD_CACHE=$cache VBOARD_KERNEL_ABI=$(abi "$(arch_of "$2")") python3 Tools/virtual-board/vboard.py shell "$2"
    ;;
  *) sed -n '2,35p' "$0" >&2; exit 64 ;;
esac

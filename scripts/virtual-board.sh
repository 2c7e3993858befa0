#!/usr/bin/env bash
# The virtual board: the daemon on a real Linux kernel in a QEMU VM, with the board's parts at
# the far ends of the kernel's own subsystems (notes: ../shared/notes/virtual-board.md):
#   buttons  gpio-sim lines labelled like the Pi's header (pinctrl-bcm2711 / pinctrl-rp1, GPIO0…57),
#            pressed by moving the simulated pull, with contact bounce
#   GPS      the guest's /dev/ttyS1 (a 16550) fed from the host, paced to the baud rate
#   I²C      a real /dev/i2c-N: the kernel's i2c-tiny-usb driver bound to an emulated adapter
#            through USB/IP's vhci-hcd, the panel and the BME280 behind it, every transaction logged
#   systemd  PID 1; the project's setup-pi.sh and install.sh, the shipped unit unchanged
#
#   scripts/virtual-board.sh build            fetch and cache the kernel and the Debian 12/13 roots
#   scripts/virtual-board.sh test [ROOT…]     build the release binary, then run the scenarios
#                                             (Tools/virtual-board/test_*.py) on each root
#                                             (default: bookworm trixie)
#   scripts/virtual-board.sh shell ROOT       boot ROOT and run the lines read from standard input
#                                             in it (with VBOARD_BINARY, that binary is in
#                                             /opt/vboard/thunderstorm)
#
# Cache: $VBOARD_CACHE (default .build-vboard/, ignored by git): the kernel's packages, the two
# roots, the initramfs. A built root is reused; delete the folder to start again. The Debian
# mirror is the one this machine's apt uses. Needs root, ~1.5 GB of disk, QEMU and debootstrap
# (installed when missing). TCG (software emulation) unless VBOARD_KVM=1.
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
roots_default=(bookworm trixie)
# In each root: systemd as PID 1, udev, the tools the scenarios drive (gpiod, i2c-tools,
# dmsetup), python3 for the guest agent and the I²C adapter, and what the daemon needs at run
# time is NOT here: setup-pi.sh installs it (the roots are made with it already present because
# the VM has no network; setup-pi.sh then finds them installed and says so).
root_packages="systemd-sysv,udev,kmod,libnss-systemd,dbus,python3,procps,dmsetup,e2fsprogs,initramfs-tools,busybox,gpiod,i2c-tools,libi2c0,zlib1g,tzdata,ca-certificates,libstdc++6,coreutils,util-linux"
declare -A root_extra=([bookworm]=libssl3 [trixie]=libssl3t64,libgpiod3)

say() { echo "$prog: $*" >&2; }
die() { say "$2"; exit "$1"; }

mirror() {
  # The mirror this machine's apt reads Debian from (deb822 or one-line format).
  local uri
  uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [ -n "$uri" ] || uri=$(awk '$1 == "deb" && $0 ~ /debian/ {for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) {print $i; exit}}' /etc/apt/sources.list 2>/dev/null || true)
  [ -n "$uri" ] || die 69 "no Debian mirror in this machine's apt sources"
  echo "${uri%/}"
}

need_tools() {
  local missing=()
  command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  command -v mkfs.ext4 >/dev/null || missing+=(e2fsprogs)
  command -v cpio >/dev/null || missing+=(cpio)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || die 69 "cannot install ${missing[*]}"
  fi
}

# A private apt for trixie-backports (own sources, lists and cache), so this machine's apt
# setup is untouched.
kernel_apt() {
  local dir=$cache/apt
  mkdir -p "$dir/lists/partial" "$dir/archives/partial"
  cat >"$dir/sources.list" <<EOF
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(mirror) trixie-backports main
EOF
  cat >"$dir/apt.conf" <<EOF
Dir::Etc::SourceList "$dir/sources.list";
Dir::Etc::SourceParts "/nonexistent";
Dir::State::Lists "$dir/lists";
Dir::Cache::Archives "$dir/archives";
APT::Architecture "amd64";
Acquire::Languages "none";
EOF
  echo "$dir/apt.conf"
}

fetch_kernel() {
  local dir=$cache/kernel
  [ -f "$dir/done" ] && return 0
  local conf
  conf=$(kernel_apt)
  APT_CONFIG=$conf apt-get update -qq || die 69 "apt cannot read trixie-backports"
  if ! APT_CONFIG=$conf apt-cache show "linux-binary-$kernel_abi" >/dev/null 2>&1; then
    local current
    current=$(APT_CONFIG=$conf apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-/ {sub("linux-image-", "", $2); print $2; exit}')
    [ -n "$current" ] || die 69 "trixie-backports has no linux-image-amd64"
    say "kernel $kernel_abi is gone from trixie-backports; taking the current one, $current"
    kernel_abi=$current
  fi
  rm -rf "$dir"; mkdir -p "$dir/debs"
  (cd "$dir/debs" && APT_CONFIG=$conf apt-get download -q "linux-binary-$kernel_abi" "linux-modules-$kernel_abi" "linux-base-$kernel_abi") \
    || die 69 "cannot download the kernel $kernel_abi"
  mkdir -p "$dir/tree"
  for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/tree"; done
  cp "$dir/tree/usr/lib/modules/$kernel_abi/vmlinuz" "$dir/vmlinuz"
  echo "$kernel_abi" >"$dir/abi"
  touch "$dir/done"
}

abi() { cat "$cache/kernel/abi"; }

make_root() {  # make_root RELEASE
  local release=$1 root=$cache/roots/$1
  [ -f "$root/.vboard-done" ] && return 0
  rm -rf "$root"; mkdir -p "$(dirname "$root")"
  say "debootstrap $release (about a minute)"
  debootstrap --variant=minbase --include="$root_packages,${root_extra[$release]}" "$release" "$root" "$(mirror)" \
    >"$cache/debootstrap-$release.log" 2>&1 || { tail -20 "$cache/debootstrap-$release.log" >&2; die 69 "debootstrap $release failed"; }
  # The kernel's modules, where this root's kmod looks for them (/lib is /usr/lib on both).
  mkdir -p "$root/usr/lib/modules"
  cp -a "$cache/kernel/tree/usr/lib/modules/$(abi)" "$root/usr/lib/modules/"
  rm -f "$root/usr/lib/modules/$(abi)/vmlinuz"
  chroot "$root" depmod "$(abi)"
  # No network, no login: root logs in on the console without a password (a test VM only).
  echo "vboard-$release" >"$root/etc/hostname"
  passwd -R "$root" -d root >/dev/null 2>&1 || sed -i 's/^root:[^:]*:/root::/' "$root/etc/shadow"
  printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' >"$root/etc/fstab"
  # Journald keeps the log on disk so a boot after a power cut can read the one before.
  mkdir -p "$root/var/log/journal"
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

build() {
  [ "$(id -u)" -eq 0 ] || die 77 "run as root (debootstrap and the roots need it)"
  need_tools
  mkdir -p "$cache"
  local started=$SECONDS
  fetch_kernel
  local pids=() release
  for release in "${roots_default[@]}"; do make_root "$release" & pids+=($!); done
  for pid in "${pids[@]}"; do wait "$pid" || exit $?; done
  make_initrd
  say "built in $((SECONDS - started)) s: kernel $(abi), roots ${roots_default[*]} in $cache"
}

release_binary() {
  # The Hardware build as the guide (docs/guide/build-and-install.md) tells a user to make it on Debian 12.
  swift build -c release --static-swift-stdlib --traits Hardware --product thunderstorm \
    --scratch-path "$repo/.build-release" >&2
  echo "$repo/.build-release/release/thunderstorm"
}

case "${1:-}" in
  build) build ;;
  test)
    shift
    build
    binary=${VBOARD_BINARY:-$(release_binary)}
    roots=("$@"); [ ${#roots[@]} -gt 0 ] || roots=("${roots_default[@]}")
    python3 -m pytest --version >/dev/null 2>&1 || pip install -q pytest
    # One pytest per root, side by side (VBOARD_PARALLEL=0: one after the other): much of a
    # scenario is waiting on the guest (a paced GPS, a held button, a boot), so two VMs share
    # the machine's cores well. Each root's log is printed whole when it is done.
    status=0 pids=() started=$SECONDS
    for root in "${roots[@]}"; do
      run_root() {
        local t0=$SECONDS
        VBOARD_CACHE=$cache VBOARD_BINARY=$binary VBOARD_KERNEL_ABI=$(abi) VBOARD_ROOTS=$1 \
          python3 -m pytest -v -p no:cacheprovider Tools/virtual-board ${VBOARD_PYTEST_ARGS:-}
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
    build
    # The binary is optional here (VBOARD_BINARY): a shell is for trying the parts by hand.
    VBOARD_CACHE=$cache VBOARD_KERNEL_ABI=$(abi) python3 Tools/virtual-board/vboard.py shell "$2"
    ;;
  *) sed -n '2,24p' "$0" >&2; exit 64 ;;
esac

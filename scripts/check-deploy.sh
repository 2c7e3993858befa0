#!/usr/bin/env bash
# CI's check of the deployment scripts, in fake roots on a machine that is not a Pi:
#   setup-pi.sh   the package names for a bookworm, a trixie and an unknown release (from the fake
#                 root's os-release and dpkg status); --dry-run changes nothing and lists the
#                 changes; --root edits a Pi 4's (bookworm) and a Pi 5's (trixie) boot files as
#                 expected, durably (fsync before and after each rename, in an strace log) and
#                 with no temporary file left; a plain Debian root gets one "skipped:" line each
#                 for the boot configuration, the serial console and raspi-config; the udev rule
#                 file only for what no existing rule covers; a second run changes nothing
#   install.sh    DESTDIR: the binary, unit and board land with their modes, identical to their
#                 sources, each fsync'd before its rename and its directory after, no temporary
#                 file left (and one left by a cut is removed); the board is checked (an invalid
#                 one installs nothing); a second run changes nothing; a write that fails is exit
#                 74; --uninstall syncs its removals and keeps the state, --purge removes it
#   deploy.sh     --dry-run prints the plan; with SSH/SCP stand-ins that run "remotely" in a fake
#                 root it copies, installs and reports the service's status line
#
#   scripts/check-deploy.sh BINARY
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-deploy: $*" >&2; exit 1; }
expect() {  # expect FILE TEXT: FILE contains the line fragment TEXT
  grep -qF -- "$2" "$1" || { echo "--- $1"; cat "$1"; fail "expected \"$2\""; }
}
refute() { ! grep -qF -- "$2" "$1" || { echo "--- $1"; cat "$1"; fail "did not expect \"$2\""; }; }
no_temporary_files() {  # no_temporary_files DIR: nothing that write_file or put left behind
  local left
  left=$(find "$1" -name '.*.setup-*' -o -name '.*.install-*' -o -name '*.new-content')
  [ -z "$left" ] || fail "temporary files left behind: $left"
}
# traced DIR COMMAND...: runs COMMAND under strace (the file system calls, with paths), log in DIR.trace
skipped_traces=0
traced() {
  local log=$1.trace; shift
  if command -v strace >/dev/null; then
    strace -f -y -qq -o "$log" -e trace=fsync,fdatasync,rename,renameat,renameat2,unlink,unlinkat,rmdir "$@"
  else
    "$@"; : >"$log"
  fi
}
sync_order() {  # sync_order TRACE ARGS...: scripts/check-sync-order.py, or a skip without strace
  if command -v strace >/dev/null; then
    python3 "$here/scripts/check-sync-order.py" "$@" || fail "$(basename "$1" .trace): not durable (above)"
  else
    skipped_traces=$((skipped_traces + 1))
  fi
}
os_release() {  # os_release DIR VERSION CODENAME: /etc/os-release as Debian (and Raspberry Pi OS) write it
  mkdir -p "$1/etc"
  printf 'PRETTY_NAME="Debian GNU/Linux %s (%s)"\nVERSION_ID="%s"\nVERSION_CODENAME=%s\nID=debian\n' "$2" "$3" "$2" "$3" >"$1/etc/os-release"
}

# A Pi's boot partition as Raspberry Pi OS ships it; Raspberry Pi OS's udev rule when asked.
fake_pi() {  # fake_pi DIR MODEL VERSION CODENAME [with-99-com]
  mkdir -p "$1/boot/firmware" "$1/proc/device-tree" "$1/etc/modules-load.d"
  os_release "$1" "$3" "$4"
  printf '%s\0' "$2" >"$1/proc/device-tree/model"
  printf '# For more options see http://rptl.io/configtxt\n#dtparam=i2c_arm=on\ndtparam=audio=on\n[cm5]\ndtoverlay=dwc2,dr_mode=host' >"$1/boot/firmware/config.txt"
  printf 'console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes rootwait\n' >"$1/boot/firmware/cmdline.txt"
  printf '# /etc/modules\n' >"$1/etc/modules"
  ln -s ../modules "$1/etc/modules-load.d/modules.conf"
  if [ "${5:-}" = with-99-com ]; then
    mkdir -p "$1/etc/udev/rules.d"
    printf 'SUBSYSTEM=="i2c-dev", GROUP="i2c", MODE="0660"\nSUBSYSTEM=="bcm2835-gpiomem", GROUP="gpio", MODE="0660"\nSUBSYSTEM=="gpio", GROUP="gpio", MODE="0660"\n' >"$1/etc/udev/rules.d/99-com.rules"
  fi
}
udev_file=etc/udev/rules.d/60-thunderstorm-gpio-i2c.rules
gpio_rule='SUBSYSTEM=="gpio", KERNEL=="gpiochip[0-9]*", GROUP="gpio", MODE="0660"'
i2c_rule='SUBSYSTEM=="i2c-dev", KERNEL=="i2c-[0-9]*", GROUP="i2c", MODE="0660"'

echo "--- setup-pi.sh"
# The run-time libraries by release: libgpiod 2 (libgpiod3) on trixie, none on bookworm (only
# libgpiod 1.6 there, which the daemon does not use).
for pi in "4:Raspberry Pi 4 Model B Rev 1.5:12:bookworm:libssl3:with-99-com" "5:Raspberry Pi 5 Model B Rev 1.0:13:trixie:libgpiod3 libssl3t64:"; do
  IFS=: read -r n model version codename libraries rules <<<"$pi"
  root="$work/pi-$n"
  fake_pi "$root" "$model" "$version" "$codename" "$rules"
  cp -a "$root" "$root.before"
  bash "$here/scripts/setup-pi.sh" --dry-run --build-deps --root "$root" >"$work/dry.out"
  diff -r "$root.before" "$root" >/dev/null || fail "setup-pi.sh --dry-run changed files under $root"
  expect "$work/dry.out" "release: $codename ($root/etc/os-release)"
  expect "$work/dry.out" "packages: libi2c0 $libraries zlib1g tzdata ca-certificates procps i2c-tools gpiod libi2c-dev"
  if [ "$codename" = bookworm ]; then refute "$work/dry.out" "libgpiod"; fi
  expect "$work/dry.out" "would change: add dtparam=i2c_arm=on to $root/boot/firmware/config.txt"
  expect "$work/dry.out" "would change: add enable_uart=1"
  expect "$work/dry.out" "would change: remove the serial console from $root/boot/firmware/cmdline.txt"
  expect "$work/dry.out" "would change: load i2c-dev at boot ($root/etc/modules-load.d/thunderstorm.conf)"
  traced "$work/setup-pi-$n" bash "$here/scripts/setup-pi.sh" --root "$root" >"$work/setup.out"
  expect "$work/setup.out" "reboot for I²C and the UART to appear"
  grep -qx "dtparam=i2c_arm=on" "$root/boot/firmware/config.txt" || fail "I²C not enabled in config.txt"
  grep -qx "enable_uart=1" "$root/boot/firmware/config.txt" || fail "UART not enabled in config.txt"
  # The last filter was [cm5]: the lines go under [all], and the last line was not cut.
  sed -n '/^\[cm5\]/,$p' "$root/boot/firmware/config.txt" | tr '\n' '|' | grep -q '^\[cm5\]|dtoverlay=dwc2,dr_mode=host|\[all\]|dtparam=i2c_arm=on|enable_uart=1|' \
    || { cat "$root/boot/firmware/config.txt"; fail "config.txt: the lines are not in an [all] section after [cm5]"; }
  [ "$(cat "$root/boot/firmware/cmdline.txt")" = "console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes rootwait" ] \
    || fail "cmdline.txt: $(cat "$root/boot/firmware/cmdline.txt"), expected only the serial console gone"
  [ "$(cat "$root/etc/modules-load.d/thunderstorm.conf")" = i2c-dev ] || fail "i2c-dev not in modules-load.d/thunderstorm.conf"
  if [[ "$model" == *"Pi 5"* ]]; then
    grep -qx "dtparam=uart0=on" "$root/boot/firmware/config.txt" || fail "Pi 5: UART0 not enabled"
    { grep -qxF "$gpio_rule" "$root/$udev_file" && grep -qxF "$i2c_rule" "$root/$udev_file"; } || fail "Pi 5 without udev rules: $udev_file incomplete"
    sync_order "$work/setup-pi-$n.trace" --renamed "$root/$udev_file"
  else
    grep -q "uart0" "$root/boot/firmware/config.txt" && fail "Pi 4: uart0 is a Pi 5 setting"
    [ ! -e "$root/$udev_file" ] || fail "Pi 4 with 99-com.rules: wrote $udev_file anyway"
    expect "$work/setup.out" "ok: /dev/gpiochip* belong to gpio ($root/etc/udev/rules.d/99-com.rules)"
  fi
  sync_order "$work/setup-pi-$n.trace" --renamed "$root/boot/firmware/config.txt" --renamed "$root/boot/firmware/cmdline.txt" \
    --renamed "$root/etc/modules-load.d/thunderstorm.conf"
  no_temporary_files "$root"
  bash "$here/scripts/setup-pi.sh" --root "$root" >"$work/again.out"
  expect "$work/again.out" "setup-pi.sh: nothing to change"
  echo "ok: ${model%% Model*}, $codename"
done

# Plain Debian trixie (the virtual board): no boot files, no model; only i2c-tools' udev rule.
root="$work/debian"
os_release "$root" 13 trixie
mkdir -p "$root/usr/lib/udev/rules.d"
printf 'SUBSYSTEM=="i2c-dev",KERNEL=="i2c-[0-9]*", GROUP="i2c", MODE="0660"\n' >"$root/usr/lib/udev/rules.d/60-i2c-tools.rules"
traced "$work/setup-debian" bash "$here/scripts/setup-pi.sh" --root "$root" >"$work/debian.out"
expect "$work/debian.out" "packages: libi2c0 libgpiod3 libssl3t64 zlib1g tzdata ca-certificates procps i2c-tools gpiod"
for what in "skipped: boot configuration (dtparam=i2c_arm=on, enable_uart=1): not a Raspberry Pi" \
  "skipped: removing the serial console from cmdline.txt: not a Raspberry Pi" "skipped: raspi-config: not a Raspberry Pi"; do
  [ "$(grep -cF -- "$what" "$work/debian.out")" -eq 1 ] || { cat "$work/debian.out"; fail "expected one line \"$what\""; }
done
refute "$work/debian.out" "reboot"
[ ! -e "$root/boot" ] || fail "setup-pi.sh made $root/boot on a machine that is not a Pi"
expect "$work/debian.out" "ok: /dev/i2c-* belong to i2c ($root/usr/lib/udev/rules.d/60-i2c-tools.rules)"
[ "$(grep -v '^#' "$root/$udev_file")" = "$gpio_rule" ] || { cat "$root/$udev_file"; fail "plain Debian: $udev_file should hold the gpio rule only"; }
sync_order "$work/setup-debian.trace" --renamed "$root/$udev_file" --renamed "$root/etc/modules-load.d/thunderstorm.conf"
no_temporary_files "$root"
bash "$here/scripts/setup-pi.sh" --root "$root" >"$work/again.out"
expect "$work/again.out" "setup-pi.sh: nothing to change"
echo "ok: plain Debian trixie (skipped lines, the gpio udev rule only)"

# A release that is neither: the name comes from what dpkg knows in the fake root's status (not
# the host's: a bookworm host has libssl3, and every host has one of the two).
root="$work/other"
os_release "$root" 14 forky
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
printf 'Package: libssl3t64\nStatus: install ok installed\nArchitecture: arm64\nVersion: 3.5.4-1\nDescription: SSL\n\n' >"$root/var/lib/dpkg/status"
bash "$here/scripts/setup-pi.sh" --dry-run --root "$root" >"$work/other.out"
expect "$work/other.out" "release: forky is neither bookworm nor trixie; OpenSSL 3 is libssl3t64 (dpkg-query: installed)"
expect "$work/other.out" "packages: libi2c0 libssl3t64 zlib1g"
# libgpiod 2 too, when dpkg knows it.
printf 'Package: libgpiod3\nStatus: install ok installed\nArchitecture: arm64\nVersion: 2.2.1-2\nDescription: GPIO\n\n' >>"$root/var/lib/dpkg/status"
bash "$here/scripts/setup-pi.sh" --dry-run --root "$root" >"$work/other.out"
expect "$work/other.out" "packages: libi2c0 libgpiod3 libssl3t64 zlib1g"
: >"$root/var/lib/dpkg/status"
bash "$here/scripts/setup-pi.sh" --dry-run --root "$root" >"$work/other.out"
expect "$work/other.out" "release: forky is neither bookworm nor trixie, and dpkg under $root knows neither libssl3t64 nor libssl3"
expect "$work/other.out" "packages: libi2c0 zlib1g"
echo "ok: an unknown release (forky) chose by the root's dpkg"

bash "$here/scripts/setup-pi.sh" --dry-run >"$work/host.out"  # the real system, changing nothing
expect "$work/host.out" "packages: libi2c0 libssl3"
expect "$work/host.out" "(dry run: nothing changed)"

echo "--- install.sh"
dest="$work/dest"
installed="/usr/local/bin/thunderstorm:755:$binary /etc/thunderstorm/board.json:644:$here/board/desk-simulated.json /etc/systemd/system/thunderstorm.service:644:$here/board/thunderstorm.service"
# As `systemctl --root enable` would leave it: install.sh syncs the .wants directory.
mkdir -p "$dest/etc/systemd/system/multi-user.target.wants"
ln -s /etc/systemd/system/thunderstorm.service "$dest/etc/systemd/system/multi-user.target.wants/thunderstorm.service"
DESTDIR="$dest" traced "$work/install" bash "$here/scripts/install.sh" --binary "$binary" --board "$here/board/desk-simulated.json" >"$work/install.out"
no_temporary_files "$dest"
for file in $installed; do
  IFS=: read -r path mode source <<<"$file"
  [ -f "$dest$path" ] || fail "install.sh did not install $path"
  [ "$(stat -c %a "$dest$path")" = "$mode" ] || fail "$path has mode $(stat -c %a "$dest$path"), expected $mode"
  cmp -s "$source" "$dest$path" || fail "$path differs from $source"
  sync_order "$work/install.trace" --renamed "$dest$path"
done
sync_order "$work/install.trace" --synced "$dest/etc/systemd/system/multi-user.target.wants"
expect "$work/install.out" "skipped (DESTDIR): systemctl restart thunderstorm.service"
DESTDIR="$dest" bash "$here/scripts/install.sh" --binary "$binary" --board "$here/board/desk-simulated.json" >"$work/again.out"
expect "$work/again.out" "install.sh: nothing changed"
refute "$work/again.out" "installed:"
# A changed board file is the only change; a temporary file left by a cut is removed.
touch "$dest/etc/thunderstorm/.board.json.install-Ab12Cd"
DESTDIR="$dest" bash "$here/scripts/install.sh" --binary "$binary" --board "$here/board/raspberry-pi-5.json" >"$work/board.out"
expect "$work/board.out" "installed: /etc/thunderstorm/board.json"
expect "$work/board.out" "unchanged: /usr/local/bin/thunderstorm"
expect "$work/board.out" "removed: /etc/thunderstorm/.board.json.install-Ab12Cd (left by an interrupted install)"
cmp -s "$here/board/raspberry-pi-5.json" "$dest/etc/thunderstorm/board.json" || fail "the changed board file was not installed as it is"
no_temporary_files "$dest"
# An invalid board file installs nothing.
printf '{ "schema": 1 }\n' >"$work/bad.json"
status=0
DESTDIR="$work/dest-bad" bash "$here/scripts/install.sh" --binary "$binary" --board "$work/bad.json" >"$work/bad.out" 2>&1 || status=$?
[ "$status" -eq 65 ] || fail "an invalid board file: exit $status, expected 65"
[ ! -e "$work/dest-bad/usr/local/bin/thunderstorm" ] || fail "an invalid board file still installed the binary"
# A file that cannot be written (its directory is a file) is exit 74, one line, nothing left over.
mkdir -p "$work/dest-io/etc" && touch "$work/dest-io/etc/thunderstorm"
status=0
DESTDIR="$work/dest-io" bash "$here/scripts/install.sh" --binary "$binary" --board "$here/board/desk-simulated.json" >"$work/io.out" 2>"$work/io.err" || status=$?
{ [ "$status" -eq 74 ] && [ "$(wc -l <"$work/io.err")" -eq 1 ]; } || { cat "$work/io.err"; fail "an unwritable target: exit $status, expected 74 and one line"; }
expect "$work/io.err" "install.sh: cannot create $work/dest-io/etc/thunderstorm"
no_temporary_files "$work/dest-io"
# Uninstall syncs its removals and keeps the state; --purge removes it.
mkdir -p "$dest/var/lib/private/thunderstorm" && ln -s private/thunderstorm "$dest/var/lib/thunderstorm"
echo data >"$dest/var/lib/private/thunderstorm/store.a"
DESTDIR="$dest" traced "$work/uninstall" bash "$here/scripts/install.sh" --uninstall >"$work/uninstall.out"
for path in /usr/local/bin/thunderstorm /etc/systemd/system/thunderstorm.service /etc/thunderstorm; do
  [ ! -e "$dest$path" ] || fail "--uninstall left $path behind"
done
sync_order "$work/uninstall.trace" --removed "$dest/usr/local/bin/thunderstorm" --removed "$dest/etc/thunderstorm" \
  --removed "$dest/etc/systemd/system/thunderstorm.service"
[ -f "$dest/var/lib/private/thunderstorm/store.a" ] || fail "--uninstall removed the state"
expect "$work/uninstall.out" "install.sh: uninstalled"
DESTDIR="$dest" traced "$work/purge" bash "$here/scripts/install.sh" --uninstall --purge >"$work/purge.out"
{ [ ! -e "$dest/var/lib/private/thunderstorm" ] && [ ! -L "$dest/var/lib/thunderstorm" ]; } || fail "--purge kept the state"
sync_order "$work/purge.trace" --removed "$dest/var/lib/private/thunderstorm" --removed "$dest/var/lib/thunderstorm"
echo "ok: install (durable, identical, no temporary files), idempotence, a changed board, a cut's leftover, an invalid board, exit 74, uninstall, purge"

echo "--- deploy.sh"
bash "$here/scripts/deploy.sh" pi@weather.local --binary "$binary" --dry-run >"$work/plan.out"
expect "$work/plan.out" "+ scp $binary pi@weather.local:/tmp/thunderstorm-deploy/thunderstorm"
expect "$work/plan.out" "sudo bash /tmp/thunderstorm-deploy/scripts/install.sh"
# Stand-ins for ssh and scp: "the Pi" is a fake root here; its sudo and systemctl are shims.
remote="$work/remote"
mkdir -p "$remote/bin"
printf '#!/bin/sh\nexec "$@"\n' >"$remote/bin/sudo"
printf '#!/bin/sh\ncase "$*" in\n  is-active*) echo active ;;\n  show*) echo "GPS 3D fix, 8 sat · Net ok, 14:05 · Store ok, 0 places" ;;\nesac\n' >"$remote/bin/systemctl"
chmod +x "$remote/bin/"*
# shellcheck disable=SC2016  # the stand-ins expand their own arguments
printf '#!/bin/sh\nshift\nif [ "$1" = "uname" ]; then uname -m; exit; fi\nPATH="%s:$PATH" DESTDIR="%s" exec sh -c "$*"\n' "$remote/bin" "$remote/root" >"$work/ssh"
# shellcheck disable=SC2016
printf '#!/bin/sh\nexec cp "$1" "${2#*:}"\n' >"$work/scp"
chmod +x "$work/ssh" "$work/scp"
SSH="$work/ssh" SCP="$work/scp" bash "$here/scripts/deploy.sh" pi@weather.local --binary "$binary" \
  --board "$here/board/desk-simulated.json" >"$work/deploy.out"
expect "$work/deploy.out" "thunderstorm on pi@weather.local: active — GPS 3D fix"
[ -x "$remote/root/usr/local/bin/thunderstorm" ] || fail "deploy.sh did not install the binary on the host"
cmp -s "$here/board/desk-simulated.json" "$remote/root/etc/thunderstorm/board.json" || fail "deploy.sh installed another board file"
echo "ok: deploy plan, copy, remote install, status line"
if [ "$skipped_traces" -gt 0 ]; then
  echo "check-deploy: passed, but SKIPPED $skipped_traces fsync-order checks: strace is not installed"
else
  echo "check-deploy: all passed"
fi

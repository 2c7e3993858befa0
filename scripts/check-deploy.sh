#!/usr/bin/env bash
# CI's check of the deployment scripts, in fake roots on a machine that is not a Pi:
#   setup-pi.sh   --dry-run changes nothing and lists the changes; --root edits a Pi 4's and a
#                 Pi 5's boot files as expected; a second run changes nothing
#   install.sh    DESTDIR: the binary, unit and board land with their modes; the board is checked
#                 (an invalid one installs nothing); a second run changes nothing; --uninstall
#                 keeps the state, --purge removes it
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

# A Pi's boot partition as Raspberry Pi OS bookworm ships it.
fake_pi() {  # fake_pi DIR MODEL
  mkdir -p "$1/boot/firmware" "$1/proc/device-tree" "$1/etc"
  printf '%s\0' "$2" >"$1/proc/device-tree/model"
  printf '# For more options see http://rptl.io/configtxt\n#dtparam=i2c_arm=on\ndtparam=audio=on\n[all]\n' >"$1/boot/firmware/config.txt"
  printf 'console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes rootwait\n' >"$1/boot/firmware/cmdline.txt"
  printf '# /etc/modules\n' >"$1/etc/modules"
}

echo "--- setup-pi.sh"
for model in "Raspberry Pi 4 Model B Rev 1.5" "Raspberry Pi 5 Model B Rev 1.0"; do
  root="$work/pi-${model:13:1}"
  fake_pi "$root" "$model"
  cp -r "$root" "$root.before"
  bash "$here/scripts/setup-pi.sh" --dry-run --root "$root" >"$work/dry.out"
  diff -r "$root.before" "$root" >/dev/null || fail "setup-pi.sh --dry-run changed files under $root"
  expect "$work/dry.out" "would change: add dtparam=i2c_arm=on to $root/boot/firmware/config.txt"
  expect "$work/dry.out" "would change: add enable_uart=1"
  expect "$work/dry.out" "would change: remove the serial console from $root/boot/firmware/cmdline.txt"
  expect "$work/dry.out" "would change: load i2c-dev at boot"
  bash "$here/scripts/setup-pi.sh" --root "$root" >"$work/setup.out"
  expect "$work/setup.out" "reboot for I²C and the UART to appear"
  grep -qx "dtparam=i2c_arm=on" "$root/boot/firmware/config.txt" || fail "I²C not enabled in config.txt"
  grep -qx "enable_uart=1" "$root/boot/firmware/config.txt" || fail "UART not enabled in config.txt"
  grep -q "console=serial0" "$root/boot/firmware/cmdline.txt" && fail "the serial console is still in cmdline.txt"
  grep -q "console=tty1 root=PARTUUID=1234-02" "$root/boot/firmware/cmdline.txt" || fail "cmdline.txt lost more than the serial console"
  grep -qx "i2c-dev" "$root/etc/modules" || fail "i2c-dev not in /etc/modules"
  if [[ "$model" == *"Pi 5"* ]]; then
    grep -qx "dtparam=uart0=on" "$root/boot/firmware/config.txt" || fail "Pi 5: UART0 not enabled"
  else
    grep -q "uart0" "$root/boot/firmware/config.txt" && fail "Pi 4: uart0 is a Pi 5 setting"
  fi
  bash "$here/scripts/setup-pi.sh" --root "$root" >"$work/again.out"
  expect "$work/again.out" "setup-pi.sh: nothing to change"
  echo "ok: ${model%% Model*}"
done
bash "$here/scripts/setup-pi.sh" --dry-run >"$work/host.out"  # the real system, changing nothing
expect "$work/host.out" "(dry run: nothing changed)"

echo "--- install.sh"
dest="$work/dest"
DESTDIR="$dest" bash "$here/scripts/install.sh" --binary "$binary" --board "$here/board/desk-simulated.json" >"$work/install.out"
for file in /usr/local/bin/thunderstorm:755 /etc/systemd/system/thunderstorm.service:644 /etc/thunderstorm/board.json:644; do
  path=${file%%:*}
  mode=${file##*:}
  [ -f "$dest$path" ] || fail "install.sh did not install $path"
  [ "$(stat -c %a "$dest$path")" = "$mode" ] || fail "$path has mode $(stat -c %a "$dest$path"), expected $mode"
done
cmp -s "$here/board/thunderstorm.service" "$dest/etc/systemd/system/thunderstorm.service" || fail "the unit differs from board/thunderstorm.service"
expect "$work/install.out" "skipped (DESTDIR): systemctl restart thunderstorm.service"
DESTDIR="$dest" bash "$here/scripts/install.sh" --binary "$binary" --board "$here/board/desk-simulated.json" >"$work/again.out"
expect "$work/again.out" "install.sh: nothing changed"
refute "$work/again.out" "installed:"
# A changed board file is the only change.
DESTDIR="$dest" bash "$here/scripts/install.sh" --binary "$binary" --board "$here/board/raspberry-pi-5.json" >"$work/board.out"
expect "$work/board.out" "installed: /etc/thunderstorm/board.json"
expect "$work/board.out" "unchanged: /usr/local/bin/thunderstorm"
# An invalid board file installs nothing.
printf '{ "schema": 1 }\n' >"$work/bad.json"
status=0
DESTDIR="$work/dest-bad" bash "$here/scripts/install.sh" --binary "$binary" --board "$work/bad.json" >"$work/bad.out" 2>&1 || status=$?
[ "$status" -eq 65 ] || fail "an invalid board file: exit $status, expected 65"
[ ! -e "$work/dest-bad/usr/local/bin/thunderstorm" ] || fail "an invalid board file still installed the binary"
# Uninstall keeps the state; --purge removes it.
mkdir -p "$dest/var/lib/private/thunderstorm" && ln -s private/thunderstorm "$dest/var/lib/thunderstorm"
echo data >"$dest/var/lib/private/thunderstorm/store.a"
DESTDIR="$dest" bash "$here/scripts/install.sh" --uninstall >"$work/uninstall.out"
[ ! -e "$dest/usr/local/bin/thunderstorm" ] && [ ! -e "$dest/etc/systemd/system/thunderstorm.service" ] && [ ! -e "$dest/etc/thunderstorm" ] \
  || fail "--uninstall left files behind"
[ -f "$dest/var/lib/private/thunderstorm/store.a" ] || fail "--uninstall removed the state"
DESTDIR="$dest" bash "$here/scripts/install.sh" --uninstall --purge >"$work/purge.out"
[ ! -e "$dest/var/lib/private/thunderstorm" ] && [ ! -L "$dest/var/lib/thunderstorm" ] || fail "--purge kept the state"
echo "ok: install, idempotence, a changed board, an invalid board, uninstall, purge"

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
printf '#!/bin/sh\nshift\nif [ "$1" = "uname" ]; then uname -m; exit; fi\nPATH="%s:$PATH" DESTDIR="%s" exec sh -c "$*"\n' "$remote/bin" "$remote/root" >"$work/ssh"
printf '#!/bin/sh\nexec cp "$1" "${2#*:}"\n' >"$work/scp"
chmod +x "$work/ssh" "$work/scp"
SSH="$work/ssh" SCP="$work/scp" bash "$here/scripts/deploy.sh" pi@weather.local --binary "$binary" \
  --board "$here/board/desk-simulated.json" >"$work/deploy.out"
expect "$work/deploy.out" "thunderstorm on pi@weather.local: active — GPS 3D fix"
[ -x "$remote/root/usr/local/bin/thunderstorm" ] || fail "deploy.sh did not install the binary on the host"
cmp -s "$here/board/desk-simulated.json" "$remote/root/etc/thunderstorm/board.json" || fail "deploy.sh installed another board file"
echo "ok: deploy plan, copy, remote install, status line"
echo "check-deploy: all passed"

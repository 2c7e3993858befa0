#!/usr/bin/env bash
# Prepares a Raspberry Pi (Raspberry Pi OS bookworm, or Debian on a Pi) for Thunderstorm:
#   - the run-time libraries (libgpiod, libi2c, OpenSSL, zlib, tzdata, CA certificates, procps for
#     the unit's /bin/kill) and the
#     tools that help with wiring (i2c-tools, gpiod); --build-deps adds the -dev packages that
#     building with `--traits Hardware` on the Pi needs;
#   - the groups gpio, i2c and dialout (the service joins them; USER too, for running
#     `thunderstorm hal probe` and friends by hand);
#   - I²C on (dtparam=i2c_arm=on, the i2c-dev module), the UART hardware on (enable_uart=1; on a
#     Pi 5 also dtparam=uart0=on, which makes GPIO14/15 /dev/ttyAMA0), and the serial console
#     off (no console= on the UART in cmdline.txt), so the GPS has the UART to itself.
#
#   sudo scripts/setup-pi.sh [--dry-run] [--build-deps] [--user USER] [--root DIR]
#
# Idempotent: each step says "ok" when there is nothing to do, "change" when it does something;
# a second run changes nothing. --dry-run prints every change it would make and makes none.
# --root DIR edits the boot files and reads the model under DIR instead of / (for tests; it
# skips packages, groups and raspi-config, which belong to the running system). Exit status: 0
# done, 64 usage, 77 not root (without --dry-run or --root).
set -euo pipefail

dry_run=0
build_deps=0
root=""
user=${SUDO_USER:-}
changes=0
reboot=0

usage() { echo "usage: setup-pi.sh [--dry-run] [--build-deps] [--user USER] [--root DIR]" >&2; exit 64; }
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --build-deps) build_deps=1 ;;
    --user) [ $# -ge 2 ] || usage; user=$2; shift ;;
    --root) [ $# -ge 2 ] || usage; root=${2%/}; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) usage ;;
  esac
  shift
done

if [ "$dry_run" -eq 0 ] && [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then
  echo "setup-pi.sh: run as root (sudo scripts/setup-pi.sh), or with --dry-run to see what it would do" >&2
  exit 77
fi

ok() { echo "ok: $*"; }
change() {  # change DESCRIPTION COMMAND...
  local what=$1; shift
  changes=$((changes + 1))
  if [ "$dry_run" -eq 1 ]; then
    echo "would change: $what"
  else
    echo "change: $what"
    "$@"
  fi
}

# --- Packages -------------------------------------------------------------------------------
packages=(libgpiod2 libi2c0 libssl3 zlib1g tzdata ca-certificates procps i2c-tools gpiod)
[ "$build_deps" -eq 1 ] && packages+=(libgpiod-dev libi2c-dev)
if [ -n "$root" ]; then
  echo "skipped: packages, groups and raspi-config (--root edits files only)"
else
  missing=()
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    ok "packages ${packages[*]} are installed"
  else
    change "install ${missing[*]}" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing[*]}"
  fi

  # --- Groups -------------------------------------------------------------------------------
  for group in gpio i2c dialout; do
    if getent group "$group" >/dev/null; then ok "group $group exists"; else change "create group $group" groupadd --system "$group"; fi
    if [ -n "$user" ] && [ "$user" != root ] && ! id "$user" >/dev/null 2>&1; then
      echo "skipped: adding $user to $group (no such user)"
    elif [ -n "$user" ] && [ "$user" != root ]; then
      if id -nG "$user" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
        ok "$user is in $group"
      else
        change "add $user to $group (log in again for it to count)" usermod -aG "$group" "$user"
      fi
    fi
  done
fi

# --- Boot configuration ---------------------------------------------------------------------
boot="$root/boot/firmware"
[ -f "$boot/config.txt" ] || boot="$root/boot"
config="$boot/config.txt"
cmdline="$boot/cmdline.txt"
model=$(tr -d '\0' 2>/dev/null <"$root/proc/device-tree/model" || true)
echo "board: ${model:-unknown (no $root/proc/device-tree/model)}; boot files in $boot"

# A line `key=value` in config.txt, added (or uncommented) unless it is there already.
config_line() {
  local line=$1
  if [ ! -f "$config" ]; then
    echo "skipped: $line ($config does not exist: not a Raspberry Pi boot partition)"
  elif grep -qx "$line" "$config"; then
    ok "$line in $config"
  else
    reboot=1
    change "add $line to $config" sh -c "printf '%s\n' '$line' >>'$config'"
  fi
}

# raspi-config does the same, and also keeps its own bookkeeping: use it when it is the
# running system's (not under --root); the file edits are the fallback and what tests see.
use_raspi_config=0
if [ -z "$root" ] && command -v raspi-config >/dev/null; then use_raspi_config=1; fi

if [ "$use_raspi_config" -eq 1 ]; then
  # get_* answer 0 when the interface is on (raspi-config's convention).
  if [ "$(raspi-config nonint get_i2c)" = 0 ]; then ok "I²C is on"; else reboot=1; change "turn I²C on" raspi-config nonint do_i2c 0; fi
  if [ "$(raspi-config nonint get_serial_cons)" = 1 ]; then ok "no login console on the UART"; else reboot=1; change "turn the serial console off" raspi-config nonint do_serial_cons 1; fi
  if [ "$(raspi-config nonint get_serial_hw)" = 0 ]; then ok "the UART is on"; else reboot=1; change "turn the UART on" raspi-config nonint do_serial_hw 0; fi
else
  config_line "dtparam=i2c_arm=on"
  config_line "enable_uart=1"
  modules="$root/etc/modules"
  if [ -f "$modules" ] && ! grep -qx "i2c-dev" "$modules"; then
    change "load i2c-dev at boot ($modules)" sh -c "echo i2c-dev >>'$modules'"
  elif [ -f "$modules" ]; then
    ok "i2c-dev in $modules"
  fi
  if [ -f "$cmdline" ] && grep -qE 'console=(serial0|ttyAMA0|ttyS0)(,[0-9]+)? ?' "$cmdline"; then
    reboot=1
    change "remove the serial console from $cmdline" \
      sed -i -E 's/ ?console=(serial0|ttyAMA0|ttyS0)(,[0-9]+)?//g' "$cmdline"
  elif [ -f "$cmdline" ]; then
    ok "no serial console in $cmdline"
  fi
fi
case "$model" in
  *"Raspberry Pi 5"*) config_line "dtparam=uart0=on" ;;  # GPIO14/15 as /dev/ttyAMA0
esac

if [ "$dry_run" -eq 1 ]; then
  echo "setup-pi.sh: $changes change(s) would be made (dry run: nothing changed)"
elif [ "$changes" -eq 0 ]; then
  echo "setup-pi.sh: nothing to change"
else
  if [ "$reboot" -eq 1 ]; then
    echo "setup-pi.sh: $changes change(s) made; reboot for I²C and the UART to appear"
  else
    echo "setup-pi.sh: $changes change(s) made"
  fi
fi

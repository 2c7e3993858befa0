#!/usr/bin/env bash
# Prepares a machine for Thunderstorm: a Raspberry Pi on Raspberry Pi OS trixie (Debian 13) or
# bookworm (Debian 12), or plain Debian elsewhere (the virtual board), doing what applies:
#   - the run-time packages, named for the release in /etc/os-release: libi2c0, OpenSSL 3
#     (libssl3 on bookworm, libssl3t64 on trixie; dlopen'd as libssl.so.3), zlib1g, tzdata,
#     ca-certificates, procps (the unit's /bin/kill), the wiring tools i2c-tools and gpiod, and
#     libgpiod 2 (libgpiod3, dlopen'd as libgpiod.so.3 for GPIO) on trixie and later releases
#     that have it; bookworm has only libgpiod 1.6, which the daemon does not use (GPIO goes
#     through the kernel's uAPI v2 there). --build-deps adds libi2c-dev. Only missing ones are
#     installed: with all of them there, apt is not run;
#   - the groups gpio, i2c and dialout (the service joins them; USER too, for running
#     `thunderstorm hal probe` and friends by hand);
#   - i2c-dev loaded at boot (/etc/modules-load.d), and udev rules giving /dev/gpiochip* to gpio
#     and /dev/i2c-* to i2c (0660) when no rule does so yet (Raspberry Pi OS has them in
#     raspberrypi-sys-mods' 99-com.rules; plain Debian has none);
#   - on a Raspberry Pi only: I²C on (dtparam=i2c_arm=on), the UART on (enable_uart=1; on a Pi 5
#     also dtparam=uart0=on, which makes GPIO14/15 /dev/ttyAMA0), the serial console off (no
#     console= on the UART in cmdline.txt), so the GPS has the UART to itself; through
#     raspi-config when it is installed. Elsewhere each of these is one "skipped:" line.
#
#   sudo scripts/setup-pi.sh [--dry-run] [--build-deps] [--user USER] [--root DIR]
#
# Idempotent: each step says "ok" when there is nothing to do, "change" when it does something;
# a second run changes nothing. --dry-run prints every change it would make and makes none.
# --root DIR reads the release, the model and the existing rules, and edits the files, under DIR
# instead of / (for tests; it skips installing packages, groups and raspi-config, which belong
# to the running system). Every file it writes is written durably: a temporary file beside it,
# fsync'd, renamed over it, the directory fsync'd (config.txt and cmdline.txt sit on the Pi's
# FAT boot partition, where a half-written cmdline.txt stops the boot). Exit status: 0 done,
# 64 usage, 69 no package for OpenSSL 3 is known, 74 a file could not be written or synced,
# 77 not root (without --dry-run or --root).
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
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    *) usage ;;
  esac
  shift
done

if [ "$dry_run" -eq 0 ] && [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then
  echo "setup-pi.sh: run as root (sudo scripts/setup-pi.sh), or with --dry-run to see what it would do" >&2
  exit 77
fi

ok() { echo "ok: $*"; }
skipped() { echo "skipped: $*"; }
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

# --- Durable writes ---------------------------------------------------------------------------
temporary=""
trap 'if [ -n "$temporary" ]; then rm -f -- "$temporary"; fi' EXIT
io_failed() { echo "setup-pi.sh: $1; fix that and run setup-pi.sh again (the file is the old one or the new one, whole)" >&2; exit 74; }
attempt() {  # attempt WHAT COMMAND...: COMMAND, or one line with WHAT and its reason
  local what=$1 error; shift
  error=$("$@" 2>&1 >/dev/null) || io_failed "$what: ${error##*: }"
}
durable() {  # fsync(2) each path (coreutils sync PATH: open read-only, fsync)
  local error
  error=$(sync -- "$@" 2>&1) || io_failed "cannot sync to the disk: ${error#sync: }"
}
# write_file TARGET: standard input becomes TARGET through a temporary file beside it, fsync'd and
# renamed over it, then the directory fsync'd. FAT has fsync for files and directories
# (fs/fat/file.c, fs/fat/dir.c: fat_file_fsync); its mount options fix owner and mode, so
# copying them from the old file may fail there, and that is fine.
write_file() {
  local target=$1 dir
  dir=$(dirname "$target")
  if [ ! -d "$dir" ]; then
    attempt "cannot create $dir" mkdir -p -- "$dir"
    durable "$(dirname "$dir")"
  fi
  temporary=$(mktemp -- "$dir/.$(basename "$target").setup-XXXXXX" 2>&1) || io_failed "cannot create a file in $dir: ${temporary##*: }"
  cat >"$temporary" || io_failed "cannot write $temporary"
  if [ -e "$target" ]; then
    chmod --reference="$target" -- "$temporary" 2>/dev/null || true
    chown --reference="$target" -- "$temporary" 2>/dev/null || true
  else
    chmod 644 -- "$temporary" 2>/dev/null || true
  fi
  durable "$temporary"
  attempt "cannot rename $temporary to $target" mv -f -T -- "$temporary" "$target"
  temporary=""
  durable "$dir"
}

# --- The release and its package names --------------------------------------------------------
os_release="$root/etc/os-release"
[ -f "$os_release" ] || os_release="$root/usr/lib/os-release"
codename=$(sed -n 's/^VERSION_CODENAME=//p' "$os_release" 2>/dev/null | tr -d "\"'" | head -n 1 || true)

dpkg_installed() {
  dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}
apt_candidate() {  # the running system's apt has an installable version (not under --root)
  [ -z "$root" ] && command -v apt-cache >/dev/null && apt-cache policy "$1" 2>/dev/null | grep -q '^  Candidate: [^(]'
}

# OpenSSL 3's run-time library was renamed for the 64-bit time_t transition (libssl3t64 from
# trixie on); the file is libssl.so.3 in both.
openssl=""
case "$codename" in
  bookworm) openssl=libssl3; echo "release: bookworm ($os_release)" ;;
  trixie) openssl=libssl3t64; echo "release: trixie ($os_release)" ;;
  *)
    for candidate in libssl3t64 libssl3; do
      if dpkg_installed "$candidate"; then
        openssl=$candidate; how="dpkg-query: installed"; break
      elif apt_candidate "$candidate"; then
        openssl=$candidate; how="apt-cache policy: installable"; break
      fi
    done
    if [ -n "$openssl" ]; then
      echo "release: ${codename:-unknown} is neither bookworm nor trixie; OpenSSL 3 is $openssl ($how)"
    elif [ -n "$root" ]; then
      echo "release: ${codename:-unknown} is neither bookworm nor trixie, and dpkg under $root knows neither libssl3t64 nor libssl3"
    else
      echo "setup-pi.sh: release ${codename:-unknown} ($os_release): neither libssl3t64 nor libssl3 is installed or known to apt; run apt-get update and try again. Nothing was changed." >&2
      exit 69
    fi
    ;;
esac
# libgpiod 2 (libgpiod.so.3, package libgpiod3): the daemon loads it for GPIO where it is there.
# bookworm has only libgpiod 1.6 (libgpiod2, another API), so none there: the daemon speaks the
# kernel's uAPI v2 itself. Another release gets it when dpkg or apt knows it (Ubuntu 24.04 on).
libgpiod=""
case "$codename" in
  bookworm) ;;
  trixie) libgpiod=libgpiod3 ;;
  *) if dpkg_installed libgpiod3 || apt_candidate libgpiod3; then libgpiod=libgpiod3; fi ;;
esac
packages=(libi2c0 ${libgpiod:+"$libgpiod"} ${openssl:+"$openssl"} zlib1g tzdata ca-certificates procps i2c-tools gpiod)
[ "$build_deps" -eq 1 ] && packages+=(libi2c-dev)
echo "packages: ${packages[*]}"

# --- Packages and groups (the running system only) ---------------------------------------------
if [ -n "$root" ]; then
  skipped "installing packages and creating groups (--root edits files only; they belong to the running system)"
else
  missing=()
  for package in "${packages[@]}"; do
    dpkg_installed "$package" || missing+=("$package")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    ok "the packages are installed"
  else
    change "install ${missing[*]}" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing[*]}"
  fi

  group_changes=$changes
  for group in gpio i2c dialout; do
    if getent group "$group" >/dev/null; then ok "group $group exists"; else change "create group $group" groupadd --system "$group"; fi
    if [ -n "$user" ] && [ "$user" != root ] && ! id "$user" >/dev/null 2>&1; then
      skipped "adding $user to $group (no such user)"
    elif [ -n "$user" ] && [ "$user" != root ]; then
      if id -nG "$user" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
        ok "$user is in $group"
      else
        change "add $user to $group (log in again for it to count)" usermod -aG "$group" "$user"
      fi
    fi
  done
  # groupadd and usermod fsync /etc/group and /etc/gshadow before renaming them (shadow's
  # commonio.c) but not /etc, which holds the renames.
  if [ "$dry_run" -eq 0 ] && [ "$changes" -gt "$group_changes" ]; then durable /etc; fi
fi

# --- Boot configuration (a Raspberry Pi only) -------------------------------------------------
boot="$root/boot/firmware"
[ -f "$boot/config.txt" ] || boot="$root/boot"
config="$boot/config.txt"
cmdline="$boot/cmdline.txt"
model=$(tr -d '\0' 2>/dev/null <"$root/proc/device-tree/model" || true)
is_pi=0
if [ -f "$config" ] || [[ "$model" == *"Raspberry Pi"* ]]; then is_pi=1; fi
echo "board: ${model:-unknown (no $root/proc/device-tree/model)}; boot files in $boot"

# A line `key=value` appended to config.txt unless it is there; under an [all] filter, since a
# line after [pi4] or [cm5] applies to that model only (config.txt's conditional filters).
config_line() {
  local line=$1 section
  if [ ! -f "$config" ]; then
    skipped "$line ($config does not exist: not a Raspberry Pi boot partition)"
  elif grep -qxF -- "$line" "$config"; then
    ok "$line in $config"
  else
    reboot=1
    section=$(grep -E '^[[:space:]]*\[' "$config" | tail -n 1 | tr -d '[:space:]' || true)
    change "add $line to $config" append_config "$line" "$section"
  fi
}
append_config() {
  write_file "$config" < <(awk 1 "$config"; if [ -n "$2" ] && [ "$2" != "[all]" ]; then echo "[all]"; fi; printf '%s\n' "$1")
}

serial_console='console=(serial0|ttyAMA0|ttyS0)(,[0-9]+)?'
remove_serial_console() { write_file "$cmdline" < <(sed -E "s/ ?$serial_console//g; s/^ +//" "$cmdline"); }

if [ "$is_pi" -eq 0 ]; then
  why="not a Raspberry Pi: no config.txt in $root/boot/firmware or $root/boot, and ${model:+the model \"$model\" is not one}${model:-no $root/proc/device-tree/model}"
  skipped "boot configuration (dtparam=i2c_arm=on, enable_uart=1): $why"
  skipped "removing the serial console from cmdline.txt: $why"
  skipped "raspi-config: $why"
elif [ -z "$root" ] && command -v raspi-config >/dev/null; then
  # raspi-config does the same, and also keeps its own bookkeeping. get_* answer 0 when the
  # interface is on (raspi-config's convention). It edits with sed -i, which does not sync.
  before=$changes
  if [ "$(raspi-config nonint get_i2c)" = 0 ]; then ok "I²C is on"; else reboot=1; change "turn I²C on" raspi-config nonint do_i2c 0; fi
  if [ "$(raspi-config nonint get_serial_cons)" = 1 ]; then ok "no login console on the UART"; else reboot=1; change "turn the serial console off" raspi-config nonint do_serial_cons 1; fi
  if [ "$(raspi-config nonint get_serial_hw)" = 0 ]; then ok "the UART is on"; else reboot=1; change "turn the UART on" raspi-config nonint do_serial_hw 0; fi
  if [ "$dry_run" -eq 0 ] && [ "$changes" -gt "$before" ]; then
    for file in "$config" "$cmdline" /etc/modules; do [ ! -f "$file" ] || durable "$file"; done
    durable "$boot" /etc
  fi
else
  if [ -n "$root" ]; then skipped "raspi-config (--root edits the files themselves)"; fi
  config_line "dtparam=i2c_arm=on"
  config_line "enable_uart=1"
  if [ -f "$cmdline" ] && grep -qE "$serial_console" "$cmdline"; then
    reboot=1
    change "remove the serial console from $cmdline" remove_serial_console
  elif [ -f "$cmdline" ]; then
    ok "no serial console in $cmdline"
  fi
fi
case "$model" in
  *"Raspberry Pi 5"*) config_line "dtparam=uart0=on" ;;  # GPIO14/15 as /dev/ttyAMA0
esac

# --- i2c-dev at boot (modules-load.d(5); Debian's /etc/modules is read through it too) ---------
modules_conf="$root/etc/modules-load.d/thunderstorm.conf"
listed=$(grep -lsE '^[[:space:]]*i2c[-_]dev([[:space:]]|$)' "$root/etc/modules" "$root"/etc/modules-load.d/*.conf \
  "$root"/run/modules-load.d/*.conf "$root"/usr/lib/modules-load.d/*.conf "$root"/lib/modules-load.d/*.conf | head -n 1 || true)
if [ -n "$listed" ]; then
  ok "i2c-dev loads at boot ($listed)"
else
  change "load i2c-dev at boot ($modules_conf)" write_file "$modules_conf" <<<"i2c-dev"
fi
if [ -z "$root" ] && [ ! -d /sys/class/i2c-dev ]; then
  if modprobe -n -q i2c-dev 2>/dev/null; then
    change "load i2c-dev now" modprobe i2c-dev
  else
    skipped "loading i2c-dev now (modprobe has no i2c-dev for kernel $(uname -r) here)"
  fi
fi

# --- udev: the device nodes for the service's groups ------------------------------------------
# The unit has DevicePolicy=closed and SupplementaryGroups=gpio i2c dialout: the nodes must be
# the groups' (0660). A rule counts when it sets the group, a group-rw mode, and matches the node.
udev_rules="$root/etc/udev/rules.d/60-thunderstorm-gpio-i2c.rules"
rule_files=()
for dir in "$root/etc/udev/rules.d" "$root/run/udev/rules.d" "$root/usr/lib/udev/rules.d" "$root/lib/udev/rules.d"; do
  for file in "$dir"/*.rules; do
    if [ -f "$file" ] && [ "$file" != "$udev_rules" ]; then rule_files+=("$file"); fi
  done
done
covering_rule() {  # covering_rule GROUP MATCH: the first rules file with such a rule
  [ ${#rule_files[@]} -gt 0 ] || return 0
  awk -v group="GROUP:?=\"$1\"" -v match_="$2" \
    '!/^[[:space:]]*#/ && $0 ~ group && $0 ~ /MODE:?="0?[0-7][67][0-7]"/ && $0 ~ match_ { print FILENAME; exit }' \
    "${rule_files[@]}"
}
wanted=""
gpio_rule=$(covering_rule gpio '(SUBSYSTEM=="gpio"|KERNEL=="gpiochip)')
if [ -n "$gpio_rule" ]; then ok "/dev/gpiochip* belong to gpio ($gpio_rule)"; else
  wanted+='SUBSYSTEM=="gpio", KERNEL=="gpiochip[0-9]*", GROUP="gpio", MODE="0660"'$'\n'
fi
i2c_rule=$(covering_rule i2c '(SUBSYSTEM=="i2c-dev"|KERNEL=="i2c-)')
if [ -n "$i2c_rule" ]; then ok "/dev/i2c-* belong to i2c ($i2c_rule)"; else
  wanted+='SUBSYSTEM=="i2c-dev", KERNEL=="i2c-[0-9]*", GROUP="i2c", MODE="0660"'$'\n'
fi
write_udev_rules() {
  write_file "$udev_rules" <<<"$rules"
  if [ -z "$root" ] && command -v udevadm >/dev/null && [ -S /run/udev/control ]; then
    udevadm control --reload && udevadm trigger --action=change --subsystem-match=gpio --subsystem-match=i2c-dev \
      || echo "note: udevadm could not apply the rules now; they apply at the next boot"
  fi
}
if [ -n "$wanted" ]; then
  rules="# Written by Thunderstorm's scripts/setup-pi.sh, because no other rule gave these nodes to the
# groups the service joins (SupplementaryGroups=gpio i2c, DevicePolicy=closed). Raspberry Pi OS
# has the same in raspberrypi-sys-mods' 99-com.rules.
${wanted%$'\n'}"
  if [ -f "$udev_rules" ] && [ "$(cat "$udev_rules")" = "$rules" ]; then
    ok "udev rules in $udev_rules"
  else
    change "write $udev_rules (gpiochip → gpio, i2c-* → i2c, 0660)" write_udev_rules
  fi
fi

if [ "$dry_run" -eq 1 ]; then
  echo "setup-pi.sh: $changes change(s) would be made (dry run: nothing changed)"
elif [ "$changes" -eq 0 ]; then
  echo "setup-pi.sh: nothing to change"
elif [ "$reboot" -eq 1 ]; then
  echo "setup-pi.sh: $changes change(s) made; reboot for I²C and the UART to appear"
else
  echo "setup-pi.sh: $changes change(s) made"
fi

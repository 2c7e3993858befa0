#!/usr/bin/env bash
# Prepares a Raspberry Pi OS (bookworm) or Debian board for Thunderstorm: the runtime and build
# libraries for GPIO and I²C, the groups that may open /dev/gpiochip*, /dev/i2c-* and the UART,
# and (on Raspberry Pi OS) I²C on and the serial console off with the UART hardware on.
# Run as root: sudo scripts/setup-pi.sh [USER]
set -euo pipefail
user=${1:-${SUDO_USER:-$(id -un)}}

if [ "$(id -u)" -ne 0 ]; then
  echo "setup-pi.sh: run as root (sudo scripts/setup-pi.sh)" >&2
  exit 77
fi

apt-get update -qq
apt-get install -y -qq libgpiod-dev libi2c-dev i2c-tools gpiod

for group in gpio i2c dialout; do
  getent group "$group" >/dev/null || groupadd --system "$group"
  usermod -aG "$group" "$user"
done

if command -v raspi-config >/dev/null; then
  raspi-config nonint do_i2c 0           # 0 = enable
  raspi-config nonint do_serial_cons 1   # no login shell on the UART
  raspi-config nonint do_serial_hw 0     # but the UART hardware on
  echo "setup-pi.sh: I²C and the UART are enabled; reboot for them to appear"
else
  echo "setup-pi.sh: not Raspberry Pi OS: enable I²C and the UART for your board by hand"
fi
echo "setup-pi.sh: $user is in gpio, i2c and dialout (log in again for it to take effect)"

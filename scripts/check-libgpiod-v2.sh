#!/usr/bin/env bash
# Proves that the CLinuxHardware shim also compiles and works against libgpiod 2.x (API v2),
# while the machine keeps libgpiod 1.6 installed for the Swift build.
#
# libgpiod 2.x ships in Debian 13 (trixie) and in bookworm-backports. The .debs are fetched with
# `apt-get download` and unpacked with `dpkg -x` into a cache directory, never installed. Then:
#   1. every shim .c file is checked with gcc -fsyntax-only -Werror against the v2 headers;
#   2. the GPIO half of the shim is linked with the v2 static library and a tiny program checks
#      that the v2 branch was taken and behaves (version, errno mapping, bias values).
# Needs root only if it has to add the bookworm-backports source. Exits non-zero on any failure.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shim="$root/Sources/CLinuxHardware"
cache="${LIBGPIOD_V2_CACHE:-${TMPDIR:-/tmp}/thunderstorm-libgpiod-v2}"
say() { printf 'check-libgpiod-v2: %s\n' "$*"; }

for tool in gcc apt-get apt-cache dpkg; do
    command -v "$tool" >/dev/null || { say "needs $tool"; exit 1; }
done

# The highest libgpiod-dev 2.x the configured sources offer, if any.
v2_candidate() {
    apt-cache madison libgpiod-dev 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2)} $2 ~ /^2\./ {print $2; exit}'
}

if [[ ! -f "$cache/usr/include/gpiod.h" || ! -f "$cache/usr/lib/$(gcc -print-multiarch)/libgpiod.a" ]]; then
    version="$(v2_candidate)"
    if [[ -z "$version" ]]; then
        . /etc/os-release
        if [[ "${VERSION_CODENAME:-}" != bookworm ]]; then
            say "no libgpiod-dev 2.x in the apt sources of ${PRETTY_NAME:-this system}"; exit 1
        fi
        [[ $(id -u) -eq 0 ]] || { say "run as root to add bookworm-backports"; exit 1; }
        # The Debian mirror already configured; backports has priority 100, so nothing installed
        # from the main suite is ever upgraded from it.
        mirror="$(awk '/^URIs:/ && $2 ~ /debian\/?$/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)"
        mirror="${mirror:-http://deb.debian.org/debian}"
        cat >/etc/apt/sources.list.d/bookworm-backports.sources <<EOF
Types: deb
URIs: $mirror
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
        say "added bookworm-backports from $mirror"
        apt-get update -qq -o Dir::Etc::sourcelist=/dev/null \
            -o Dir::Etc::sourceparts=- \
            -o Dir::Etc::sourcelist=/etc/apt/sources.list.d/bookworm-backports.sources \
            -o APT::Get::List-Cleanup=0
        version="$(v2_candidate)"
        [[ -n "$version" ]] || { say "bookworm-backports has no libgpiod-dev 2.x"; exit 1; }
    fi
    say "fetching libgpiod-dev $version (not installing)"
    debs="$(mktemp -d)"
    chmod 0777 "$debs"  # apt-get download runs as _apt when it can
    (cd "$debs" && apt-get download -qq "libgpiod-dev=$version" "libgpiod3=$version")
    rm -rf "$cache" && mkdir -p "$cache"
    for deb in "$debs"/*.deb; do dpkg -x "$deb" "$cache"; done
    rm -rf "$debs"
fi

include="$cache/usr/include"
lib="$cache/usr/lib/$(gcc -print-multiarch)"
grep -q GPIOD_API "$include/gpiod.h" && { say "$include/gpiod.h is the v1 header"; exit 1; }

cflags=(-std=c11 -Wall -Wextra -Werror -I"$include" -I"$shim/include")
for source in "$shim"/*.c; do
    if [[ "$source" == */i2c_* && ! -f /usr/include/i2c/smbus.h ]]; then
        say "skipping $(basename "$source"): libi2c-dev not installed"; continue
    fi
    gcc "${cflags[@]}" -fsyntax-only "$source"
    say "syntax ok: $(basename "$source")"
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/main.c" <<'EOF'
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "CLinuxHardware.h"

static int failures;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "FAILED: %s\n", #cond); failures++; } } while (0)

int main(void) {
    CHECK(th_gpiod_api() == 2);
    CHECK(strncmp(th_gpiod_version(), "2.", 2) == 0);
    errno = 0;
    CHECK(th_gpio_chip_open_path("/nonexistent/gpiochip0") == NULL && errno == ENOENT);
    errno = 0;
    CHECK(th_gpio_chip_open_label("/nonexistent", "pinctrl-rp1") == NULL && errno == ENOENT);
    errno = 0;
    unsigned int offset = 0;
    CHECK(th_gpio_chip_open_line_name("/proc/self", "GPIO17", &offset) == NULL && errno == ENOENT);
    th_gpio_edge edges[TH_GPIO_V1_EVENT_BATCH];
    errno = 0;
    CHECK(th_gpio_v1_read_event_fd(0, 0, edges, TH_GPIO_V1_EVENT_BATCH) == -1 && errno == EOPNOTSUPP);
    CHECK(th_gpio_bias_library_value(TH_GPIO_BIAS_AS_IS) == 1);      /* GPIOD_LINE_BIAS_AS_IS */
    CHECK(th_gpio_bias_library_value(TH_GPIO_BIAS_DISABLED) == 3);   /* GPIOD_LINE_BIAS_DISABLED */
    CHECK(th_gpio_bias_library_value(TH_GPIO_BIAS_PULL_UP) == 4);    /* GPIOD_LINE_BIAS_PULL_UP */
    CHECK(th_gpio_bias_library_value(TH_GPIO_BIAS_PULL_DOWN) == 5);  /* GPIOD_LINE_BIAS_PULL_DOWN */
    printf("libgpiod %s, API v%d: %s\n", th_gpiod_version(), th_gpiod_api(), failures ? "FAILED" : "ok");
    return failures != 0;
}
EOF
gcc "${cflags[@]}" -o "$work/check" "$work/main.c" "$shim"/gpio_*.c "$lib/libgpiod.a"
"$work/check" | sed 's/^/check-libgpiod-v2: /'

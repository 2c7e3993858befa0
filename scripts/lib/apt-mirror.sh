# Sourced by build-deb.sh, virtual-board.sh and fetch-libgpiod.sh: the Debian mirror this
# machine's apt reads from (deb822 .sources or the one-line sources.list), without a trailing
# slash, or nothing when apt names none (the caller decides: fail, or take deb.debian.org).
apt_mirror() {
  local uri
  uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [ -n "$uri" ] || uri=$(awk '$1 == "deb" && $0 ~ /debian/ {for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) {print $i; exit}}' /etc/apt/sources.list 2>/dev/null || true)
  echo "${uri%/}"
}

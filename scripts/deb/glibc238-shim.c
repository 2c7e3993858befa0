// The four glibc 2.38 symbols that Debian sid's Swift runtime archives (swift_static, built
// against sid's glibc) reference, defined here so that the arm64 binary links against
// Debian 12's glibc 2.36 and needs nothing newer (scripts/build-deb.sh, notes/arm64.md):
//
//   __isoc23_sscanf, __isoc23_strtol, __isoc23_strtoll   glibc 2.38 routes sscanf/strtol/strtoll
//       here when compiling for C23 or with _GNU_SOURCE; the only difference from the old
//       functions is that they accept C23's "0b" binary prefix for base 0 (and %b), which
//       nothing in Thunderstorm or the Swift runtime's callers parses.
//   strlcpy   new in glibc 2.38 (BSD's); written out below with BSD's semantics.
//
// They are hidden, so the binary neither exports them nor asks the dynamic linker for them; the
// linker takes these before it would look for versioned ones in libc.so.6. If a newer sid
// runtime wants another symbol, scripts/build-deb.sh fails naming it (the readelf check), and
// it belongs here.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIDDEN __attribute__((visibility("hidden")))

HIDDEN int __isoc23_sscanf(const char *restrict s, const char *restrict format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int count = vsscanf(s, format, arguments);
    va_end(arguments);
    return count;
}

HIDDEN long __isoc23_strtol(const char *restrict s, char **restrict end, int base) {
    return strtol(s, end, base);
}

HIDDEN long long __isoc23_strtoll(const char *restrict s, char **restrict end, int base) {
    return strtoll(s, end, base);
}

HIDDEN size_t strlcpy(char *restrict destination, const char *restrict source, size_t size) {
    size_t length = strlen(source);
    if (size > 0) {
        size_t copied = length < size - 1 ? length : size - 1;
        memcpy(destination, source, copied);
        destination[copied] = '\0';
    }
    return length;
}

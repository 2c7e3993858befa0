// The one dlopen routine of the C shims that load a library at run time (CCurl: libcurl; CTLS:
// libssl and libz; CLinuxHardware: libgpiod 2). It exists so that the steps every one of them needs (the name check, the
// process-wide cache under one mutex, dlopen, the "apt install" message, the table, the first
// missing symbol, closing again on failure) are written once; each shim keeps only its table of
// function pointers and the `bind` that fills it. No Swift code imports this module.
#ifndef CDYNAMICLIBRARY_H
#define CDYNAMICLIBRARY_H

#include <stddef.h>

/// What a `bind` returns.
enum {
    /// Every symbol was found (and the library initialised): the table is cached and returned.
    CDL_BOUND = 1,
    /// A symbol is missing or initialisation failed: the table is freed and the library closed.
    CDL_FAILED = 0,
    /// Initialisation failed after the library may have registered atexit handlers: the table is
    /// freed, the library is left open.
    CDL_FAILED_KEEP_OPEN = -1,
};

/// Longest library name, terminating NUL included; a longer one is refused before dlopen.
#define CDL_NAME_CAPACITY 128

/// dlsym(handle, symbol). When it is missing and `*missing` is still 0, sets `*missing` and writes
/// "<library_name> lacks <symbol>: not a <kind>" into `error`, so the first missing symbol is the
/// one reported. Returns the symbol or NULL.
void *cdl_take(void *handle, const char *symbol, const char *library_name, const char *kind, char *error,
               size_t error_size, int *missing);

/// Fills a zeroed `table` of `table_size` bytes from `handle`, and runs the library's global
/// initialisation, if it has one, once all symbols are there; returns CDL_BOUND, CDL_FAILED or
/// CDL_FAILED_KEEP_OPEN with one line in `error`. Called with the cache's mutex held: it must not
/// call cdl_open_cached.
typedef int (*cdl_bind)(void *table, void *handle, const char *library_name, char *error, size_t error_size);

/// Opens `library_name` with dlopen(RTLD_NOW | RTLD_LOCAL), allocates `table_size` zeroed bytes
/// and has `bind` fill them. Thread-safe: one process-wide cache keyed by (library_name, bind), so
/// a library bound once is returned again and never closed. On failure it returns NULL and writes
/// one line into `error`: "library name too long: …", "more than 20 libraries opened; <name> is
/// refused" (the cache is full; a new name would leak), "<name> not found: apt install <apt_package>"
/// (with dlerror's reason in parentheses unless it is only "No such file"), "out of memory opening
/// <name>", or what `bind` wrote.
const void *cdl_open_cached(const char *library_name, const char *apt_package, size_t table_size, cdl_bind bind,
                            char *error, size_t error_size);

#endif

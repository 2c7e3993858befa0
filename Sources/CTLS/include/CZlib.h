// zlib's inflate, loaded at run time with dlopen("libz.so.1"): the gzip content coding of HTTP
// (RFC 9110 §8.4.1.3, a gzip file as RFC 1952 defines it) and "deflate" (§8.4.1.2, a zlib stream,
// RFC 1950). z_stream's layout lives in czlib.c only; Swift sees an opaque stream.
#ifndef CZLIB_H
#define CZLIB_H

#include <stddef.h>
#include <stdint.h>

/// An opened libz. Never closed.
typedef struct CZlibLibrary CZlibLibrary;
/// A z_stream set up by inflateInit2_, on the heap.
typedef struct CZlibStream CZlibStream;

enum {
    // Return codes of zlib.h.
    CZ_OK = 0,
    CZ_STREAM_END = 1,
    CZ_NEED_DICT = 2,
    CZ_ERRNO = -1,
    CZ_STREAM_ERROR = -2,
    CZ_DATA_ERROR = -3,
    CZ_MEM_ERROR = -4,
    CZ_BUF_ERROR = -5,
    CZ_VERSION_ERROR = -6,
    /// inflateInit2's windowBits for a gzip wrapper only: 15 (a 32 KiB window) + 16 (zlib.h).
    CZ_WINDOW_GZIP = 15 + 16,
    /// … for a zlib wrapper (the "deflate" coding).
    CZ_WINDOW_ZLIB = 15,
};

/// Opens libz by file name ("libz.so.1") and takes zlibVersion, inflateInit2_, inflate,
/// inflateReset and inflateEnd. Thread-safe; a library opened once is returned again. On failure
/// NULL and one line in `error` ("libz.so.1 not found: apt install zlib1g").
const CZlibLibrary *czlib_open(const char *library_name, char *error, size_t error_size);
/// zlibVersion(): "1.2.13".
const char *czlib_version(const CZlibLibrary *library);

/// A stream ready to inflate with `window_bits` (CZ_WINDOW_GZIP or CZ_WINDOW_ZLIB); NULL with the
/// zlib code in `*code` on failure.
CZlibStream *czlib_inflate_new(const CZlibLibrary *library, int window_bits, int *code);
/// inflate(strm, Z_NO_FLUSH) from `input` into `output`: how much of each was used goes to
/// `*consumed` and `*produced`. Returns zlib's code (CZ_STREAM_END at the end of a gzip member).
int czlib_inflate(const CZlibLibrary *library, CZlibStream *stream, const uint8_t *input, size_t input_count,
                  uint8_t *output, size_t output_capacity, size_t *consumed, size_t *produced);
/// inflateReset(3): ready for another gzip member (RFC 1952 §2.2: a file is a series of members).
int czlib_inflate_reset(const CZlibLibrary *library, CZlibStream *stream);
/// zlib's message for the last error ("incorrect header check"), or NULL.
const char *czlib_message(const CZlibStream *stream);
/// inflateEnd and free.
void czlib_inflate_free(const CZlibLibrary *library, CZlibStream *stream);

#endif

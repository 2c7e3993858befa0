// dlopen/dlsym glue for zlib's inflate (see include/CZlib.h). No zlib header is included: the
// z_stream below is zlib.h's (1.2.x and 1.3.x share it), checked by inflateInit2_ itself, which
// refuses a stream_size that is not its own sizeof(z_stream).
#include "CZlib.h"

#include <limits.h>
#include <stdlib.h>

#include "CDynamicLibrary.h"

// zlib.h's z_stream: uInt is unsigned int, uLong unsigned long, Bytef unsigned char.
typedef struct {
    const unsigned char *next_in;
    unsigned int avail_in;
    unsigned long total_in;
    unsigned char *next_out;
    unsigned int avail_out;
    unsigned long total_out;
    const char *msg;
    void *state;
    void *(*zalloc)(void *opaque, unsigned int items, unsigned int size);
    void (*zfree)(void *opaque, void *address);
    void *opaque;
    int data_type;
    unsigned long adler;
    unsigned long reserved;
} z_stream_abi;

// 112 bytes on LP64 (x86_64, aarch64), 56 on ILP32 (armhf): what sizeof(z_stream) is there.
_Static_assert(sizeof(z_stream_abi) == (sizeof(void *) == 8 ? 112 : 56), "z_stream layout of zlib.h");

#define CZ_NO_FLUSH 0  // Z_NO_FLUSH

struct CZlibStream {
    z_stream_abi z;
};

struct CZlibLibrary {
    const char *(*version)(void);
    int (*inflate_init2)(z_stream_abi *stream, int window_bits, const char *version, int stream_size);
    int (*inflate)(z_stream_abi *stream, int flush);
    int (*inflate_reset)(z_stream_abi *stream);
    int (*inflate_end)(z_stream_abi *stream);
};

// cdl_open_cached's bind: takes the functions (zlib needs no initialisation).
static int czlib_bind(void *table, void *h, const char *n, char *e, size_t s) {
    struct CZlibLibrary *l = table;
    int m = 0;
#define TAKE(symbol) cdl_take(h, symbol, n, "zlib", e, s, &m)
    l->inflate_init2 = TAKE("inflateInit2_");
    l->version = TAKE("zlibVersion");
    l->inflate = TAKE("inflate");
    l->inflate_reset = TAKE("inflateReset");
    l->inflate_end = TAKE("inflateEnd");
#undef TAKE
    return m ? CDL_FAILED : CDL_BOUND;
}

const CZlibLibrary *czlib_open(const char *library_name, char *error, size_t error_size) {
    return cdl_open_cached(library_name, "zlib1g", sizeof(CZlibLibrary), czlib_bind, error, error_size);
}

const char *czlib_version(const CZlibLibrary *library) { return library->version(); }

CZlibStream *czlib_inflate_new(const CZlibLibrary *library, int window_bits, int *code) {
    CZlibStream *stream = calloc(1, sizeof *stream);  // zalloc, zfree, opaque NULL: zlib's malloc.
    if (stream == NULL) {
        *code = CZ_MEM_ERROR;
        return NULL;
    }
    // inflateInit2 is a macro over inflateInit2_(strm, bits, ZLIB_VERSION, sizeof(z_stream)); zlib
    // compares only the major version's digit, so the library's own version string is passed.
    *code = library->inflate_init2(&stream->z, window_bits, library->version(), (int)sizeof stream->z);
    if (*code != CZ_OK) {
        free(stream);
        return NULL;
    }
    return stream;
}

int czlib_inflate(const CZlibLibrary *library, CZlibStream *stream, const uint8_t *input, size_t input_count,
                  uint8_t *output, size_t output_capacity, size_t *consumed, size_t *produced) {
    // avail_in and avail_out are 32-bit: feed at most UINT_MAX at a time; the caller loops.
    unsigned int in = input_count > UINT_MAX ? UINT_MAX : (unsigned int)input_count;
    unsigned int out = output_capacity > UINT_MAX ? UINT_MAX : (unsigned int)output_capacity;
    stream->z.next_in = input;
    stream->z.avail_in = in;
    stream->z.next_out = output;
    stream->z.avail_out = out;
    int code = library->inflate(&stream->z, CZ_NO_FLUSH);
    *consumed = in - stream->z.avail_in;
    *produced = out - stream->z.avail_out;
    stream->z.next_in = NULL;
    stream->z.next_out = NULL;
    return code;
}

int czlib_inflate_reset(const CZlibLibrary *library, CZlibStream *stream) { return library->inflate_reset(&stream->z); }

const char *czlib_message(const CZlibStream *stream) { return stream->z.msg; }

void czlib_inflate_free(const CZlibLibrary *library, CZlibStream *stream) {
    if (stream == NULL) return;
    library->inflate_end(&stream->z);
    free(stream);
}

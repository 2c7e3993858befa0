// dlopen/dlsym glue for zlib's inflate (see include/CZlib.h). No zlib header is included: the
// z_stream below is zlib.h's (1.2.x and 1.3.x share it), checked by inflateInit2_ itself, which
// refuses a stream_size that is not its own sizeof(z_stream).
#include "CZlib.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    char name[128];
    void *handle;
    const char *(*version)(void);
    int (*inflate_init2)(z_stream_abi *stream, int window_bits, const char *version, int stream_size);
    int (*inflate)(z_stream_abi *stream, int flush);
    int (*inflate_reset)(z_stream_abi *stream);
    int (*inflate_end)(z_stream_abi *stream);
};

#define CZLIB_MAX_LIBRARIES 4

static pthread_mutex_t zlib_opened_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CZlibLibrary *zlib_opened[CZLIB_MAX_LIBRARIES];

const CZlibLibrary *czlib_open(const char *library_name, char *error, size_t error_size) {
    if (error_size > 0) error[0] = 0;
    if (strlen(library_name) >= sizeof(((struct CZlibLibrary *)0)->name)) {
        snprintf(error, error_size, "library name too long: %.40s...", library_name);
        return NULL;
    }
    pthread_mutex_lock(&zlib_opened_lock);
    for (int i = 0; i < CZLIB_MAX_LIBRARIES && zlib_opened[i]; i++) {
        if (strcmp(zlib_opened[i]->name, library_name) == 0) {
            struct CZlibLibrary *found = zlib_opened[i];
            pthread_mutex_unlock(&zlib_opened_lock);
            return found;
        }
    }
    struct CZlibLibrary *library = NULL;
    void *handle = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        if (reason == NULL || strstr(reason, "No such file") != NULL) {
            snprintf(error, error_size, "%s not found: apt install zlib1g", library_name);
        } else {
            snprintf(error, error_size, "%s not found: apt install zlib1g (%s)", library_name, reason);
        }
        goto done;
    }
    library = calloc(1, sizeof *library);
    if (library == NULL) {
        snprintf(error, error_size, "out of memory opening %s", library_name);
        dlclose(handle);
        goto done;
    }
    strcpy(library->name, library_name);
    library->handle = handle;
    const char *symbols[] = {"inflateInit2_", "zlibVersion", "inflate", "inflateReset", "inflateEnd"};
    void *found[5];
    for (int i = 0; i < 5; i++) {
        found[i] = dlsym(handle, symbols[i]);
        if (found[i] == NULL) {
            snprintf(error, error_size, "%s lacks %s: not a zlib", library_name, symbols[i]);
            free(library);
            library = NULL;
            dlclose(handle);
            goto done;
        }
    }
    library->inflate_init2 = found[0];
    library->version = found[1];
    library->inflate = found[2];
    library->inflate_reset = found[3];
    library->inflate_end = found[4];
    for (int i = 0; i < CZLIB_MAX_LIBRARIES; i++) {
        if (zlib_opened[i] == NULL) {
            zlib_opened[i] = library;
            break;
        }
    }
done:
    pthread_mutex_unlock(&zlib_opened_lock);
    return library;
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

// Counting heap allocations per thread, for the tests' "no allocation in steady state" checks
// (docs/design/architecture.md#the-loop). The test executable defines malloc and its relatives, so the dynamic
// linker binds every library's calls (the Swift runtime's swift_slowAlloc included) here; each
// forwards to glibc's own implementation (__libc_malloc and friends, exported for exactly this
// use) and counts when the calling thread asked to. A thread-local flag keeps tests that run in
// parallel on other threads out of the count. This is what ordo-one/malloc-interposer does for
// Benchmarks/, reduced to a counter: no hooks on the runtime's retain and release paths.
#include <errno.h>
#include <execinfo.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#include "CMallocCounter.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static __thread int counting;
static __thread long allocations;

static __thread int tracing;

/// With TH_MALLOC_TRACE set in the environment, the stack of every counted allocation goes to
/// standard error (`swift demangle` reads it): how a failing "allocates nothing" test is
/// turned into the line that allocated.
static void trace(void) {
    if (tracing || getenv("TH_MALLOC_TRACE") == NULL) return;
    tracing = 1;
    counting = 0;
    void *frames[24];
    int n = backtrace(frames, 24);
    static const char rule[] = "--- counted allocation\n";
    write(2, rule, sizeof rule - 1);
    backtrace_symbols_fd(frames, n, 2);
    counting = 1;
    tracing = 0;
}

static inline void seen(void) {
    if (counting) {
        allocations++;
        trace();
    }
}

void *malloc(size_t size) {
    seen();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    seen();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    seen();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
    seen();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    seen();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    seen();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *out = pointer;
    return 0;
}

void th_malloc_count_begin(void) {
    allocations = 0;
    counting = 1;
}

long th_malloc_count_end(void) {
    counting = 0;
    return allocations;
}

// A name lookup that respects the request's deadline. getaddrinfo(3) blocks for as long as the
// resolver takes (resolv.conf's timeout × attempts × servers: 10 s and more while Wi-Fi is still
// joining); getaddrinfo_a(3) runs the same lookup on glibc's helper thread and gai_suspend(3)
// waits for it with a time limit. glibc ≥ 2.34 has it in libc; older ones in libanl.
#define _GNU_SOURCE
#include "CTLS.h"

#include <netdb.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__GLIBC__)

// Everything getaddrinfo_a keeps pointers to, in one block, with two owners: the caller and the
// completion callback. A lookup that outlives its caller's deadline still writes into the block
// and then calls back, so the block is freed by whichever of the two lets go last.
struct lookup {
    struct gaicb request;
    struct addrinfo hints;
    atomic_int owners;
    char strings[];  // host NUL service NUL
};

static void release(struct lookup *lookup) {
    if (atomic_fetch_sub(&lookup->owners, 1) == 1) {
        if (lookup->request.ar_result != NULL) freeaddrinfo(lookup->request.ar_result);
        free(lookup);
    }
}

// SIGEV_THREAD: glibc calls this on a thread of its own once the lookup has ended.
static void lookup_ended(union sigval value) { release(value.sival_ptr); }

static long long milliseconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

int ctls_resolve(const char *host, const char *service, int timeout_ms, struct addrinfo **result) {
    *result = NULL;
    size_t host_size = strlen(host) + 1;
    size_t service_size = strlen(service) + 1;
    struct lookup *lookup = calloc(1, sizeof *lookup + host_size + service_size);
    if (lookup == NULL) return EAI_MEMORY;
    memcpy(lookup->strings, host, host_size);
    memcpy(lookup->strings + host_size, service, service_size);
    // No AI_ADDRCONFIG: it hides "localhost" on a machine whose only interface is loopback.
    lookup->hints.ai_family = AF_UNSPEC;
    lookup->hints.ai_socktype = SOCK_STREAM;
    lookup->hints.ai_protocol = IPPROTO_TCP;
    lookup->request.ar_name = lookup->strings;
    lookup->request.ar_service = lookup->strings + host_size;
    lookup->request.ar_request = &lookup->hints;
    atomic_init(&lookup->owners, 2);

    struct sigevent ended;
    memset(&ended, 0, sizeof ended);
    ended.sigev_notify = SIGEV_THREAD;
    ended.sigev_notify_function = lookup_ended;
    ended.sigev_value.sival_ptr = lookup;
    struct gaicb *list[1] = {&lookup->request};
    int code = getaddrinfo_a(GAI_NOWAIT, list, 1, &ended);
    if (code != 0) {
        free(lookup);  // Not queued: no callback will come.
        return code;
    }

    long long deadline = milliseconds_now() + (timeout_ms > 0 ? timeout_ms : 0);
    for (;;) {
        long long left = deadline - milliseconds_now();
        if (left < 0) left = 0;
        struct timespec wait = {.tv_sec = left / 1000, .tv_nsec = (left % 1000) * 1000000};
        code = gai_suspend((const struct gaicb *const *)list, 1, &wait);
        if (code == EAI_INTR) continue;
        if (code != EAI_AGAIN) break;  // 0 or EAI_ALLDONE: the lookup has ended.
        // The time is up. gai_cancel(3) removes a lookup that has not started (then no callback
        // comes); one that runs cannot be stopped and calls back when it ends.
        int cancelled = gai_cancel(&lookup->request);
        if (cancelled == EAI_ALLDONE) break;  // It ended just now: use it.
        if (cancelled == EAI_CANCELED) release(lookup);
        release(lookup);
        return CTLS_RESOLVE_TIMEOUT;
    }
    code = gai_error(&lookup->request);
    if (code == 0) {
        *result = lookup->request.ar_result;
        lookup->request.ar_result = NULL;  // The caller's now; release must not free it.
    }
    release(lookup);
    return code;
}
#else
// Without getaddrinfo_a (musl): a plain lookup, which the deadline cannot cut short.
int ctls_resolve(const char *host, const char *service, int timeout_ms, struct addrinfo **result) {
    (void)timeout_ms;
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_protocol = IPPROTO_TCP;
    *result = NULL;
    return getaddrinfo(host, service, &hints, result);
}
#endif

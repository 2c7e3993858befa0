// dlopen/dlsym glue for libcurl's easy API (see include/CCurl.h). No curl header is included: the
// prototypes below are curl.h's, with CURL * and struct curl_slist * kept opaque.
#include "CCurl.h"

#include <stdio.h>

#include "CDynamicLibrary.h"

struct CCurlLibrary {
    int (*global_init)(long flags);
    char *(*version)(void);
    const char *(*easy_strerror)(int code);
    void *(*easy_init)(void);
    void (*easy_reset)(void *easy);
    void (*easy_cleanup)(void *easy);
    int (*easy_perform)(void *easy);
    int (*easy_setopt)(void *easy, int option, ...);
    int (*easy_getinfo)(void *easy, int info, ...);
    void *(*slist_append)(void *list, const char *line);
    void (*slist_free_all)(void *list);
};

// CURL_GLOBAL_SSL | CURL_GLOBAL_WIN32 = CURL_GLOBAL_DEFAULT.
#define CCURL_GLOBAL_DEFAULT 3L

// cdl_open_cached's bind: takes the functions, then runs curl_global_init (once per library).
static int ccurl_bind(void *table, void *h, const char *n, char *e, size_t s) {
    struct CCurlLibrary *l = table;
    int m = 0;
#define TAKE(symbol) cdl_take(h, symbol, n, "libcurl", e, s, &m)
    l->global_init = TAKE("curl_global_init");
    l->version = TAKE("curl_version");
    l->easy_strerror = TAKE("curl_easy_strerror");
    l->easy_init = TAKE("curl_easy_init");
    l->easy_reset = TAKE("curl_easy_reset");
    l->easy_cleanup = TAKE("curl_easy_cleanup");
    l->easy_perform = TAKE("curl_easy_perform");
    l->easy_setopt = TAKE("curl_easy_setopt");
    l->easy_getinfo = TAKE("curl_easy_getinfo");
    l->slist_append = TAKE("curl_slist_append");
    l->slist_free_all = TAKE("curl_slist_free_all");
#undef TAKE
    if (m) return CDL_FAILED;
    int code = l->global_init(CCURL_GLOBAL_DEFAULT);
    if (code != 0) {
        snprintf(e, s, "%s: curl_global_init failed (curl %d)", n, code);
        return CDL_FAILED;
    }
    return CDL_BOUND;
}

const CCurlLibrary *ccurl_open(const char *library_name, char *error, size_t error_size) {
    return cdl_open_cached(library_name, "libcurl4t64 (Debian 13) or libcurl4 (Debian 12)", sizeof(CCurlLibrary), ccurl_bind, error, error_size);
}

const char *ccurl_version(const CCurlLibrary *library) { return library->version(); }

const char *ccurl_strerror(const CCurlLibrary *library, CCurlCode code) {
    const char *text = library->easy_strerror((int)code);
    return text ? text : "unknown error";
}

CCurlEasy *ccurl_easy_init(const CCurlLibrary *library) { return (CCurlEasy *)library->easy_init(); }
void ccurl_easy_reset(const CCurlLibrary *library, CCurlEasy *easy) { library->easy_reset(easy); }
void ccurl_easy_cleanup(const CCurlLibrary *library, CCurlEasy *easy) { library->easy_cleanup(easy); }
CCurlCode ccurl_easy_perform(const CCurlLibrary *library, CCurlEasy *easy) {
    return (CCurlCode)library->easy_perform(easy);
}

CCurlCode ccurl_setopt_long(const CCurlLibrary *library, CCurlEasy *easy, CCurlOption option, long value) {
    return (CCurlCode)library->easy_setopt(easy, (int)option, value);
}

CCurlCode ccurl_setopt_pointer(const CCurlLibrary *library, CCurlEasy *easy, CCurlOption option, const void *value) {
    return (CCurlCode)library->easy_setopt(easy, (int)option, value);
}

CCurlCode ccurl_setopt_callback(const CCurlLibrary *library, CCurlEasy *easy, CCurlOption option, ccurl_data_callback value) {
    return (CCurlCode)library->easy_setopt(easy, (int)option, value);
}

CCurlCode ccurl_getinfo_long(const CCurlLibrary *library, CCurlEasy *easy, CCurlInfo info, long *value) {
    return (CCurlCode)library->easy_getinfo(easy, (int)info, value);
}

CCurlSList *ccurl_slist_append(const CCurlLibrary *library, CCurlSList *list, const char *line) {
    return (CCurlSList *)library->slist_append(list, line);
}

void ccurl_slist_free_all(const CCurlLibrary *library, CCurlSList *list) { library->slist_free_all(list); }

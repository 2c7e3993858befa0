// dlopen/dlsym glue for libcurl's easy API (see include/CCurl.h). No curl header is included: the
// prototypes below are curl.h's, with CURL * and struct curl_slist * kept opaque.
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct CCurlLibrary {
    char name[128];
    void *handle;
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
#define CCURL_MAX_LIBRARIES 8

static pthread_mutex_t opened_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CCurlLibrary *opened[CCURL_MAX_LIBRARIES];

static void *take(void *handle, const char *symbol, const char *library_name, char *error, size_t error_size, int *missing) {
    void *function = dlsym(handle, symbol);
    if (function == NULL && !*missing) {
        *missing = 1;
        snprintf(error, error_size, "%s lacks %s: not a libcurl", library_name, symbol);
    }
    return function;
}

const CCurlLibrary *ccurl_open(const char *library_name, char *error, size_t error_size) {
    if (error_size > 0) error[0] = 0;
    if (strlen(library_name) >= sizeof(((struct CCurlLibrary *)0)->name)) {
        snprintf(error, error_size, "library name too long: %.40s...", library_name);
        return NULL;
    }
    pthread_mutex_lock(&opened_lock);
    for (int i = 0; i < CCURL_MAX_LIBRARIES && opened[i]; i++) {
        if (strcmp(opened[i]->name, library_name) == 0) {
            struct CCurlLibrary *found = opened[i];
            pthread_mutex_unlock(&opened_lock);
            return found;
        }
    }
    struct CCurlLibrary *library = NULL;
    void *handle = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        if (reason == NULL || strstr(reason, "No such file") != NULL) {
            snprintf(error, error_size, "%s not found: apt install libcurl4", library_name);
        } else {
            snprintf(error, error_size, "%s not found: apt install libcurl4 (%s)", library_name, reason);
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
    int missing = 0;
    library->global_init = take(handle, "curl_global_init", library_name, error, error_size, &missing);
    library->version = take(handle, "curl_version", library_name, error, error_size, &missing);
    library->easy_strerror = take(handle, "curl_easy_strerror", library_name, error, error_size, &missing);
    library->easy_init = take(handle, "curl_easy_init", library_name, error, error_size, &missing);
    library->easy_reset = take(handle, "curl_easy_reset", library_name, error, error_size, &missing);
    library->easy_cleanup = take(handle, "curl_easy_cleanup", library_name, error, error_size, &missing);
    library->easy_perform = take(handle, "curl_easy_perform", library_name, error, error_size, &missing);
    library->easy_setopt = take(handle, "curl_easy_setopt", library_name, error, error_size, &missing);
    library->easy_getinfo = take(handle, "curl_easy_getinfo", library_name, error, error_size, &missing);
    library->slist_append = take(handle, "curl_slist_append", library_name, error, error_size, &missing);
    library->slist_free_all = take(handle, "curl_slist_free_all", library_name, error, error_size, &missing);
    if (missing) {
        free(library);
        library = NULL;
        dlclose(handle);
        goto done;
    }
    int code = library->global_init(CCURL_GLOBAL_DEFAULT);
    if (code != 0) {
        snprintf(error, error_size, "%s: curl_global_init failed (curl %d)", library_name, code);
        free(library);
        library = NULL;
        dlclose(handle);
        goto done;
    }
    for (int i = 0; i < CCURL_MAX_LIBRARIES; i++) {
        if (opened[i] == NULL) {
            opened[i] = library;
            break;
        }
    }
done:
    pthread_mutex_unlock(&opened_lock);
    return library;
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

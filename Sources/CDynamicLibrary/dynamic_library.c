// See include/CDynamicLibrary.h: the dlopen/dlsym routine shared by CCurl and CTLS.
#include "CDynamicLibrary.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Room for every library the shims open in one process: 8 libcurl + 8 libssl + 4 libz names, the
// limits of the three caches this one replaces (libgpiod's one or two names fit in what is left
// over in practice: a process opens one libcurl and one libssl). When full, a new name is refused before dlopen: a
// table handed out uncached would be opened and allocated again on every call, and never freed.
#define CDL_MAX_LIBRARIES 20

struct cdl_entry {
    char name[CDL_NAME_CAPACITY];
    cdl_bind bind;
    void *handle;
    void *table;
};

static pthread_mutex_t opened_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cdl_entry opened[CDL_MAX_LIBRARIES];
static int opened_count;

void *cdl_take(void *handle, const char *symbol, const char *library_name, const char *kind, char *error,
               size_t error_size, int *missing) {
    void *function = dlsym(handle, symbol);
    if (function == NULL && !*missing) {
        *missing = 1;
        snprintf(error, error_size, "%s lacks %s: not a %s", library_name, symbol, kind);
    }
    return function;
}

const void *cdl_open_cached(const char *library_name, const char *apt_package, size_t table_size, cdl_bind bind,
                            char *error, size_t error_size) {
    if (error_size > 0) error[0] = 0;
    if (strlen(library_name) >= CDL_NAME_CAPACITY) {
        snprintf(error, error_size, "library name too long: %.40s...", library_name);
        return NULL;
    }
    pthread_mutex_lock(&opened_lock);
    for (int i = 0; i < opened_count; i++) {
        if (opened[i].bind == bind && strcmp(opened[i].name, library_name) == 0) {
            void *found = opened[i].table;
            pthread_mutex_unlock(&opened_lock);
            return found;
        }
    }
    void *table = NULL;
    if (opened_count >= CDL_MAX_LIBRARIES) {
        snprintf(error, error_size, "more than %d libraries opened; %.60s is refused", CDL_MAX_LIBRARIES, library_name);
        goto done;
    }
    void *handle = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        if (reason == NULL || strstr(reason, "No such file") != NULL) {
            snprintf(error, error_size, "%s not found: apt install %s", library_name, apt_package);
        } else {
            snprintf(error, error_size, "%s not found: apt install %s (%s)", library_name, apt_package, reason);
        }
        goto done;
    }
    table = calloc(1, table_size);
    if (table == NULL) {
        snprintf(error, error_size, "out of memory opening %s", library_name);
        dlclose(handle);
        goto done;
    }
    int bound = bind(table, handle, library_name, error, error_size);
    if (bound != CDL_BOUND) {
        free(table);
        table = NULL;
        if (bound != CDL_FAILED_KEEP_OPEN) dlclose(handle);
        goto done;
    }
    struct cdl_entry *entry = &opened[opened_count++];
    strcpy(entry->name, library_name);
    entry->bind = bind;
    entry->handle = handle;
    entry->table = table;
done:
    pthread_mutex_unlock(&opened_lock);
    return table;
}

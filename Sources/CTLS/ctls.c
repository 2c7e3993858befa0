// dlopen/dlsym glue for libssl.so.3 (see include/CTLS.h). No OpenSSL header is included: the
// prototypes below are OpenSSL 3's (ssl.h, bio.h, err.h, x509.h, x509_vfy.h, crypto.h) with SSL,
// SSL_CTX, SSL_METHOD, BIO, BIO_METHOD and X509_VERIFY_PARAM kept opaque.
#include "CTLS.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ssl.h, tls1.h, prov_ssl.h, bio.h, crypto.h: the values behind the macros this file expands.
#define CTLS_SSL_CTRL_MODE 33
#define CTLS_SSL_CTRL_SET_TLSEXT_HOSTNAME 55
#define CTLS_TLSEXT_NAMETYPE_host_name 0
#define CTLS_SSL_CTRL_SET_MIN_PROTO_VERSION 123
#define CTLS_TLS1_2_VERSION 0x0303
#define CTLS_SSL_MODE_ENABLE_PARTIAL_WRITE 0x1L
#define CTLS_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER 0x2L
#define CTLS_SSL_VERIFY_PEER 0x01
#define CTLS_SSL_FILETYPE_PEM 1
#define CTLS_BIO_C_SET_BUF_MEM_EOF_RETURN 130
#define CTLS_OPENSSL_VERSION 0
#define CTLS_OPENSSL_INIT_LOAD_CRYPTO_STRINGS 0x00000002L
#define CTLS_OPENSSL_INIT_LOAD_SSL_STRINGS 0x00200000L

_Static_assert(CTLS_OP_IGNORE_UNEXPECTED_EOF == 0x80, "SSL_OP_BIT(7)");
_Static_assert((CTLS_SSL_MODE_ENABLE_PARTIAL_WRITE | CTLS_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER) == 3, "two distinct mode bits");

struct CTLSLibrary {
    char name[128];
    void *handle;
    // libssl
    int (*init_ssl)(uint64_t options, const void *settings);
    const void *(*client_method)(void);
    const void *(*server_method)(void);
    void *(*ctx_new)(const void *method);
    void (*ctx_free)(void *ctx);
    long (*ctx_ctrl)(void *ctx, int command, long larg, void *parg);
    uint64_t (*ctx_set_options)(void *ctx, uint64_t options);
    void (*ctx_set_verify)(void *ctx, int mode, void *callback);
    int (*ctx_default_verify_paths)(void *ctx);
    int (*ctx_load_verify_locations)(void *ctx, const char *file, const char *directory);
    int (*ctx_use_certificate_chain_file)(void *ctx, const char *file);
    int (*ctx_use_private_key_file)(void *ctx, const char *file, int type);
    void *(*ssl_new)(void *ctx);
    void (*ssl_free)(void *ssl);
    long (*ssl_ctrl)(void *ssl, int command, long larg, void *parg);
    int (*ssl_set1_host)(void *ssl, const char *name);
    void *(*ssl_get0_param)(void *ssl);
    void (*ssl_set_bio)(void *ssl, void *rbio, void *wbio);
    int (*ssl_set_fd)(void *ssl, int fd);
    int (*ssl_connect)(void *ssl);
    int (*ssl_accept)(void *ssl);
    int (*ssl_read)(void *ssl, void *buffer, int capacity);
    int (*ssl_write)(void *ssl, const void *bytes, int count);
    int (*ssl_shutdown)(void *ssl);
    int (*ssl_pending)(const void *ssl);
    int (*ssl_get_error)(const void *ssl, int result);
    long (*ssl_get_verify_result)(const void *ssl);
    // libcrypto, found through libssl's handle (dlsym searches a library's dependencies too)
    const char *(*version)(int type);
    int (*param_set1_ip_asc)(void *param, const char *address);
    const char *(*verify_error_string)(long code);
    const void *(*bio_s_mem)(void);
    void *(*bio_new)(const void *method);
    int (*bio_free)(void *bio);
    int (*bio_read)(void *bio, void *bytes, int capacity);
    int (*bio_write)(void *bio, const void *bytes, int count);
    long (*bio_ctrl)(void *bio, int command, long larg, void *parg);
    size_t (*bio_ctrl_pending)(void *bio);
    unsigned long (*err_get_error)(void);
    void (*err_error_string_n)(unsigned long code, char *buffer, size_t size);
    void (*err_clear_error)(void);
};

#define CTLS_MAX_LIBRARIES 8

static pthread_mutex_t opened_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CTLSLibrary *opened[CTLS_MAX_LIBRARIES];

static void *take(void *handle, const char *symbol, const char *library_name, char *error, size_t error_size, int *missing) {
    void *function = dlsym(handle, symbol);
    if (function == NULL && !*missing) {
        *missing = 1;
        snprintf(error, error_size, "%s lacks %s: not a libssl 3", library_name, symbol);
    }
    return function;
}

// Fills `library` from `handle`; 0 when a symbol is missing (the message is in `error`).
static int take_all(struct CTLSLibrary *l, void *h, const char *n, char *e, size_t s) {
    int m = 0;
    // The first symbols tell "not a libssl at all" from "an older libssl".
    l->ctx_new = take(h, "SSL_CTX_new", n, e, s, &m);
    l->client_method = take(h, "TLS_client_method", n, e, s, &m);
    l->server_method = take(h, "TLS_server_method", n, e, s, &m);
    l->init_ssl = take(h, "OPENSSL_init_ssl", n, e, s, &m);
    l->ctx_free = take(h, "SSL_CTX_free", n, e, s, &m);
    l->ctx_ctrl = take(h, "SSL_CTX_ctrl", n, e, s, &m);
    l->ctx_set_options = take(h, "SSL_CTX_set_options", n, e, s, &m);
    l->ctx_set_verify = take(h, "SSL_CTX_set_verify", n, e, s, &m);
    l->ctx_default_verify_paths = take(h, "SSL_CTX_set_default_verify_paths", n, e, s, &m);
    l->ctx_load_verify_locations = take(h, "SSL_CTX_load_verify_locations", n, e, s, &m);
    l->ctx_use_certificate_chain_file = take(h, "SSL_CTX_use_certificate_chain_file", n, e, s, &m);
    l->ctx_use_private_key_file = take(h, "SSL_CTX_use_PrivateKey_file", n, e, s, &m);
    l->ssl_new = take(h, "SSL_new", n, e, s, &m);
    l->ssl_free = take(h, "SSL_free", n, e, s, &m);
    l->ssl_ctrl = take(h, "SSL_ctrl", n, e, s, &m);
    l->ssl_set1_host = take(h, "SSL_set1_host", n, e, s, &m);
    l->ssl_get0_param = take(h, "SSL_get0_param", n, e, s, &m);
    l->ssl_set_bio = take(h, "SSL_set_bio", n, e, s, &m);
    l->ssl_set_fd = take(h, "SSL_set_fd", n, e, s, &m);
    l->ssl_connect = take(h, "SSL_connect", n, e, s, &m);
    l->ssl_accept = take(h, "SSL_accept", n, e, s, &m);
    l->ssl_read = take(h, "SSL_read", n, e, s, &m);
    l->ssl_write = take(h, "SSL_write", n, e, s, &m);
    l->ssl_shutdown = take(h, "SSL_shutdown", n, e, s, &m);
    l->ssl_pending = take(h, "SSL_pending", n, e, s, &m);
    l->ssl_get_error = take(h, "SSL_get_error", n, e, s, &m);
    l->ssl_get_verify_result = take(h, "SSL_get_verify_result", n, e, s, &m);
    l->version = take(h, "OpenSSL_version", n, e, s, &m);
    l->param_set1_ip_asc = take(h, "X509_VERIFY_PARAM_set1_ip_asc", n, e, s, &m);
    l->verify_error_string = take(h, "X509_verify_cert_error_string", n, e, s, &m);
    l->bio_s_mem = take(h, "BIO_s_mem", n, e, s, &m);
    l->bio_new = take(h, "BIO_new", n, e, s, &m);
    l->bio_free = take(h, "BIO_free", n, e, s, &m);
    l->bio_read = take(h, "BIO_read", n, e, s, &m);
    l->bio_write = take(h, "BIO_write", n, e, s, &m);
    l->bio_ctrl = take(h, "BIO_ctrl", n, e, s, &m);
    l->bio_ctrl_pending = take(h, "BIO_ctrl_pending", n, e, s, &m);
    l->err_get_error = take(h, "ERR_get_error", n, e, s, &m);
    l->err_error_string_n = take(h, "ERR_error_string_n", n, e, s, &m);
    l->err_clear_error = take(h, "ERR_clear_error", n, e, s, &m);
    return !m;
}

const CTLSLibrary *ctls_open(const char *library_name, char *error, size_t error_size) {
    if (error_size > 0) error[0] = 0;
    if (strlen(library_name) >= sizeof(((struct CTLSLibrary *)0)->name)) {
        snprintf(error, error_size, "library name too long: %.40s...", library_name);
        return NULL;
    }
    pthread_mutex_lock(&opened_lock);
    for (int i = 0; i < CTLS_MAX_LIBRARIES && opened[i]; i++) {
        if (strcmp(opened[i]->name, library_name) == 0) {
            struct CTLSLibrary *found = opened[i];
            pthread_mutex_unlock(&opened_lock);
            return found;
        }
    }
    struct CTLSLibrary *library = NULL;
    void *handle = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        if (reason == NULL || strstr(reason, "No such file") != NULL) {
            snprintf(error, error_size, "%s not found: apt install libssl3", library_name);
        } else {
            snprintf(error, error_size, "%s not found: apt install libssl3 (%s)", library_name, reason);
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
    if (!take_all(library, handle, library_name, error, error_size)) {
        free(library);
        library = NULL;
        dlclose(handle);
        goto done;
    }
    // OPENSSL_init_ssl(3): explicit, so that a failure is seen here and not in the first handshake.
    if (library->init_ssl(CTLS_OPENSSL_INIT_LOAD_SSL_STRINGS | CTLS_OPENSSL_INIT_LOAD_CRYPTO_STRINGS, NULL) != 1) {
        snprintf(error, error_size, "%s: OPENSSL_init_ssl failed", library_name);
        free(library);
        library = NULL;
        goto done;  // Not closed: OpenSSL may have registered atexit handlers.
    }
    for (int i = 0; i < CTLS_MAX_LIBRARIES; i++) {
        if (opened[i] == NULL) {
            opened[i] = library;
            break;
        }
    }
done:
    pthread_mutex_unlock(&opened_lock);
    return library;
}

const char *ctls_version(const CTLSLibrary *library) { return library->version(CTLS_OPENSSL_VERSION); }

// MARK: Contexts

CTLSContext *ctls_context_new(const CTLSLibrary *library, int server) {
    const void *method = server ? library->server_method() : library->client_method();
    return method ? (CTLSContext *)library->ctx_new(method) : NULL;
}

void ctls_context_free(const CTLSLibrary *library, CTLSContext *context) { library->ctx_free(context); }

int ctls_context_require_tls12(const CTLSLibrary *library, CTLSContext *context) {
    return (int)library->ctx_ctrl(context, CTLS_SSL_CTRL_SET_MIN_PROTO_VERSION, CTLS_TLS1_2_VERSION, NULL);
}

uint64_t ctls_context_set_options(const CTLSLibrary *library, CTLSContext *context, uint64_t options) {
    return library->ctx_set_options(context, options);
}

void ctls_context_set_partial_writes(const CTLSLibrary *library, CTLSContext *context) {
    library->ctx_ctrl(context, CTLS_SSL_CTRL_MODE, CTLS_SSL_MODE_ENABLE_PARTIAL_WRITE | CTLS_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER, NULL);
}

void ctls_context_verify_peer(const CTLSLibrary *library, CTLSContext *context) {
    library->ctx_set_verify(context, CTLS_SSL_VERIFY_PEER, NULL);
}

int ctls_context_trust_default_paths(const CTLSLibrary *library, CTLSContext *context) {
    return library->ctx_default_verify_paths(context);
}

int ctls_context_trust_locations(const CTLSLibrary *library, CTLSContext *context, const char *file, const char *directory) {
    return library->ctx_load_verify_locations(context, file, directory);
}

int ctls_context_use_certificate_chain(const CTLSLibrary *library, CTLSContext *context, const char *path) {
    return library->ctx_use_certificate_chain_file(context, path);
}

int ctls_context_use_private_key(const CTLSLibrary *library, CTLSContext *context, const char *path) {
    return library->ctx_use_private_key_file(context, path, CTLS_SSL_FILETYPE_PEM);
}

// MARK: Sessions

CTLSSession *ctls_session_new(const CTLSLibrary *library, CTLSContext *context) { return (CTLSSession *)library->ssl_new(context); }
void ctls_session_free(const CTLSLibrary *library, CTLSSession *session) { library->ssl_free(session); }

int ctls_session_set_server_name(const CTLSLibrary *library, CTLSSession *session, const char *name) {
    return (int)library->ssl_ctrl(session, CTLS_SSL_CTRL_SET_TLSEXT_HOSTNAME, CTLS_TLSEXT_NAMETYPE_host_name, (void *)name);
}

int ctls_session_expect_host(const CTLSLibrary *library, CTLSSession *session, const char *name) {
    return library->ssl_set1_host(session, name);
}

int ctls_session_expect_address(const CTLSLibrary *library, CTLSSession *session, const char *address) {
    void *param = library->ssl_get0_param(session);
    return param ? library->param_set1_ip_asc(param, address) : 0;
}

int ctls_session_use_memory(const CTLSLibrary *library, CTLSSession *session, CTLSBuffer **incoming, CTLSBuffer **outgoing) {
    void *in = library->bio_new(library->bio_s_mem());
    void *out = library->bio_new(library->bio_s_mem());
    if (in == NULL || out == NULL) {
        if (in) library->bio_free(in);
        if (out) library->bio_free(out);
        return 0;
    }
    library->ssl_set_bio(session, in, out);  // The session owns both from here (SSL_set_bio(3)).
    *incoming = in;
    *outgoing = out;
    return 1;
}

int ctls_session_set_fd(const CTLSLibrary *library, CTLSSession *session, int fd) { return library->ssl_set_fd(session, fd); }
int ctls_connect(const CTLSLibrary *library, CTLSSession *session) { return library->ssl_connect(session); }
int ctls_accept(const CTLSLibrary *library, CTLSSession *session) { return library->ssl_accept(session); }

int ctls_read(const CTLSLibrary *library, CTLSSession *session, void *buffer, int capacity) {
    return library->ssl_read(session, buffer, capacity);
}

int ctls_write(const CTLSLibrary *library, CTLSSession *session, const void *bytes, int count) {
    return library->ssl_write(session, bytes, count);
}

int ctls_shutdown(const CTLSLibrary *library, CTLSSession *session) { return library->ssl_shutdown(session); }
int ctls_pending(const CTLSLibrary *library, const CTLSSession *session) { return library->ssl_pending(session); }

int ctls_get_error(const CTLSLibrary *library, const CTLSSession *session, int result) {
    return library->ssl_get_error(session, result);
}

long ctls_verify_result(const CTLSLibrary *library, const CTLSSession *session) { return library->ssl_get_verify_result(session); }

const char *ctls_verify_error_string(const CTLSLibrary *library, long code) {
    const char *text = library->verify_error_string(code);
    return text ? text : "unknown verification error";
}

// MARK: Memory BIOs

int ctls_buffer_write(const CTLSLibrary *library, CTLSBuffer *buffer, const void *bytes, int count) {
    return library->bio_write(buffer, bytes, count);
}

int ctls_buffer_read(const CTLSLibrary *library, CTLSBuffer *buffer, void *bytes, int capacity) {
    return library->bio_read(buffer, bytes, capacity);
}

size_t ctls_buffer_pending(const CTLSLibrary *library, CTLSBuffer *buffer) { return library->bio_ctrl_pending(buffer); }

void ctls_buffer_mark_eof(const CTLSLibrary *library, CTLSBuffer *buffer) {
    library->bio_ctrl(buffer, CTLS_BIO_C_SET_BUF_MEM_EOF_RETURN, 0, NULL);
}

// MARK: The error queue

unsigned long ctls_error_next(const CTLSLibrary *library) { return library->err_get_error(); }

void ctls_error_string(const CTLSLibrary *library, unsigned long code, char *buffer, size_t size) {
    library->err_error_string_n(code, buffer, size);
}

void ctls_error_clear(const CTLSLibrary *library) { library->err_clear_error(); }

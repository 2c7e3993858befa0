// dlopen/dlsym glue for libssl.so.3 (see include/CTLS.h). No OpenSSL header is included: the
// prototypes below are OpenSSL 3's (ssl.h, bio.h, err.h, x509.h, x509_vfy.h, crypto.h, stack.h)
// with SSL, SSL_CTX, SSL_METHOD, BIO, BIO_METHOD, X509, ASN1_TIME, OPENSSL_STACK and
// X509_VERIFY_PARAM kept opaque.
#include "CTLS.h"

#include <stdio.h>

#include "CDynamicLibrary.h"

// ssl.h, tls1.h, prov_ssl.h, bio.h, crypto.h: the values behind the macros this file expands.
#define CTLS_SSL_CTRL_MODE 33
#define CTLS_SSL_CTRL_SET_TLSEXT_HOSTNAME 55
#define CTLS_TLSEXT_NAMETYPE_host_name 0
#define CTLS_SSL_CTRL_SET_MIN_PROTO_VERSION 123
#define CTLS_TLS1_2_VERSION 0x0303
#define CTLS_SSL_CTRL_SET_MAX_PROTO_VERSION 124
#define CTLS_TLS1_1_VERSION 0x0302
#define CTLS_SSL_MODE_ENABLE_PARTIAL_WRITE 0x1L
#define CTLS_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER 0x2L
#define CTLS_SSL_VERIFY_PEER 0x01
#define CTLS_X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS 0x4
#define CTLS_SSL_FILETYPE_PEM 1
#define CTLS_BIO_C_SET_BUF_MEM_EOF_RETURN 130
#define CTLS_OPENSSL_VERSION 0
#define CTLS_OPENSSL_INIT_LOAD_CRYPTO_STRINGS 0x00000002L
#define CTLS_OPENSSL_INIT_LOAD_SSL_STRINGS 0x00200000L

_Static_assert((CTLS_SSL_MODE_ENABLE_PARTIAL_WRITE | CTLS_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER) == 3, "two distinct mode bits");

struct CTLSLibrary {
    // libssl
    int (*init_ssl)(uint64_t options, const void *settings);
    const void *(*client_method)(void);
    const void *(*server_method)(void);
    void *(*ctx_new)(const void *method);
    void (*ctx_free)(void *ctx);
    long (*ctx_ctrl)(void *ctx, int command, long larg, void *parg);
    uint64_t (*ctx_set_options)(void *ctx, uint64_t options);
    int (*ctx_set_cipher_list)(void *ctx, const char *list);
    void (*ctx_set_verify)(void *ctx, int mode, void *callback);
    int (*ctx_default_verify_paths)(void *ctx);
    int (*ctx_load_verify_locations)(void *ctx, const char *file, const char *directory);
    int (*ctx_use_certificate_chain_file)(void *ctx, const char *file);
    int (*ctx_use_private_key_file)(void *ctx, const char *file, int type);
    void *(*ssl_new)(void *ctx);
    void (*ssl_free)(void *ssl);
    long (*ssl_ctrl)(void *ssl, int command, long larg, void *parg);
    int (*ssl_set1_host)(void *ssl, const char *name);
    void (*ssl_set_hostflags)(void *ssl, unsigned int flags);
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
    void *(*ssl_get0_verified_chain)(const void *ssl);
    // libcrypto, found through libssl's handle (dlsym searches a library's dependencies too)
    const char *(*version)(int type);
    int (*param_set1_ip_asc)(void *param, const char *address);
    void (*param_set_time)(void *param, time_t time);
    int (*sk_num)(const void *stack);
    void *(*sk_value)(const void *stack, int index);
    const void *(*cert_not_before)(const void *cert);
    const void *(*cert_not_after)(const void *cert);
    int (*cmp_time)(const void *asn1_time, time_t *time);
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

// cdl_open_cached's bind: takes the functions, then initialises OpenSSL (once per library).
static int ctls_bind(void *table, void *h, const char *n, char *e, size_t s) {
    struct CTLSLibrary *l = table;
    int m = 0;
#define TAKE(symbol) cdl_take(h, symbol, n, "libssl 3", e, s, &m)
    // The first symbols tell "not a libssl at all" from "an older libssl".
    l->ctx_new = TAKE("SSL_CTX_new");
    l->client_method = TAKE("TLS_client_method");
    l->server_method = TAKE("TLS_server_method");
    l->init_ssl = TAKE("OPENSSL_init_ssl");
    l->ctx_free = TAKE("SSL_CTX_free");
    l->ctx_ctrl = TAKE("SSL_CTX_ctrl");
    l->ctx_set_options = TAKE("SSL_CTX_set_options");
    l->ctx_set_cipher_list = TAKE("SSL_CTX_set_cipher_list");
    l->ctx_set_verify = TAKE("SSL_CTX_set_verify");
    l->ctx_default_verify_paths = TAKE("SSL_CTX_set_default_verify_paths");
    l->ctx_load_verify_locations = TAKE("SSL_CTX_load_verify_locations");
    l->ctx_use_certificate_chain_file = TAKE("SSL_CTX_use_certificate_chain_file");
    l->ctx_use_private_key_file = TAKE("SSL_CTX_use_PrivateKey_file");
    l->ssl_new = TAKE("SSL_new");
    l->ssl_free = TAKE("SSL_free");
    l->ssl_ctrl = TAKE("SSL_ctrl");
    l->ssl_set1_host = TAKE("SSL_set1_host");
    l->ssl_set_hostflags = TAKE("SSL_set_hostflags");
    l->ssl_get0_param = TAKE("SSL_get0_param");
    l->ssl_set_bio = TAKE("SSL_set_bio");
    l->ssl_set_fd = TAKE("SSL_set_fd");
    l->ssl_connect = TAKE("SSL_connect");
    l->ssl_accept = TAKE("SSL_accept");
    l->ssl_read = TAKE("SSL_read");
    l->ssl_write = TAKE("SSL_write");
    l->ssl_shutdown = TAKE("SSL_shutdown");
    l->ssl_pending = TAKE("SSL_pending");
    l->ssl_get_error = TAKE("SSL_get_error");
    l->ssl_get_verify_result = TAKE("SSL_get_verify_result");
    l->ssl_get0_verified_chain = TAKE("SSL_get0_verified_chain");
    l->version = TAKE("OpenSSL_version");
    l->param_set1_ip_asc = TAKE("X509_VERIFY_PARAM_set1_ip_asc");
    l->param_set_time = TAKE("X509_VERIFY_PARAM_set_time");
    // sk_X509_num and sk_X509_value are inline wrappers of these (safestack.h).
    l->sk_num = TAKE("OPENSSL_sk_num");
    l->sk_value = TAKE("OPENSSL_sk_value");
    l->cert_not_before = TAKE("X509_get0_notBefore");
    l->cert_not_after = TAKE("X509_get0_notAfter");
    l->cmp_time = TAKE("X509_cmp_time");
    l->verify_error_string = TAKE("X509_verify_cert_error_string");
    l->bio_s_mem = TAKE("BIO_s_mem");
    l->bio_new = TAKE("BIO_new");
    l->bio_free = TAKE("BIO_free");
    l->bio_read = TAKE("BIO_read");
    l->bio_write = TAKE("BIO_write");
    l->bio_ctrl = TAKE("BIO_ctrl");
    l->bio_ctrl_pending = TAKE("BIO_ctrl_pending");
    l->err_get_error = TAKE("ERR_get_error");
    l->err_error_string_n = TAKE("ERR_error_string_n");
    l->err_clear_error = TAKE("ERR_clear_error");
#undef TAKE
    if (m) return CDL_FAILED;
    // OPENSSL_init_ssl(3): explicit, so that a failure is seen here and not in the first handshake.
    if (l->init_ssl(CTLS_OPENSSL_INIT_LOAD_SSL_STRINGS | CTLS_OPENSSL_INIT_LOAD_CRYPTO_STRINGS, NULL) != 1) {
        snprintf(e, s, "%s: OPENSSL_init_ssl failed", n);
        return CDL_FAILED_KEEP_OPEN;  // Not closed: OpenSSL may have registered atexit handlers.
    }
    return CDL_BOUND;
}

const CTLSLibrary *ctls_open(const char *library_name, char *error, size_t error_size) {
    return cdl_open_cached(library_name, "libssl3t64 (Debian 13) or libssl3 (Debian 12)", sizeof(CTLSLibrary), ctls_bind, error, error_size);
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

int ctls_context_only_tls11(const CTLSLibrary *library, CTLSContext *context) {
    // TLS 1.1 signs with MD5+SHA-1, which OpenSSL 3 allows only at security level 0.
    return library->ctx_set_cipher_list(context, "DEFAULT@SECLEVEL=0") == 1 &&
           library->ctx_ctrl(context, CTLS_SSL_CTRL_SET_MIN_PROTO_VERSION, CTLS_TLS1_1_VERSION, NULL) == 1 &&
           library->ctx_ctrl(context, CTLS_SSL_CTRL_SET_MAX_PROTO_VERSION, CTLS_TLS1_1_VERSION, NULL) == 1;
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
    // A wildcard only as the whole leftmost label: "w*.example.com" must not match
    // "www.example.com" (RFC 6125 §7.2 advises against partial wildcards; CA/B Forum rules
    // forbid issuing them), which OpenSSL's X509_check_host allows by default.
    library->ssl_set_hostflags(session, CTLS_X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    return library->ssl_set1_host(session, name);
}

int ctls_session_expect_address(const CTLSLibrary *library, CTLSSession *session, const char *address) {
    void *param = library->ssl_get0_param(session);
    return param ? library->param_set1_ip_asc(param, address) : 0;
}

int ctls_session_verify_at(const CTLSLibrary *library, CTLSSession *session, int64_t time) {
    if (sizeof(time_t) < sizeof(int64_t)) return -1;
    void *param = library->ssl_get0_param(session);
    if (param == NULL) return 0;
    // Also sets X509_V_FLAG_USE_CHECK_TIME: the chain is checked at this time, not time(2)'s
    // (X509_VERIFY_PARAM_set_flags(3)).
    library->param_set_time(param, (time_t)time);
    return 1;
}

int ctls_session_chain_valid_at(const CTLSLibrary *library, const CTLSSession *session, const int64_t *time) {
    if (time != NULL && sizeof(time_t) < sizeof(int64_t)) return 0;
    time_t at = time ? (time_t)*time : 0;
    time_t *compared = time ? &at : NULL;  // NULL: X509_cmp_time(3) reads the system clock
    const void *chain = library->ssl_get0_verified_chain(session);
    int count = chain ? library->sk_num(chain) : 0;
    if (count <= 0) return 0;
    for (int i = 0; i < count; i++) {
        const void *cert = library->sk_value(chain, i);
        if (cert == NULL) return 0;
        // As the verifier: notBefore later than the time is "not yet valid", notAfter earlier is
        // "expired", and 0 is an unreadable date (X509_cmp_time(3)).
        if (library->cmp_time(library->cert_not_before(cert), compared) >= 0) return 0;
        if (library->cmp_time(library->cert_not_after(cert), compared) <= 0) return 0;
    }
    return 1;
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

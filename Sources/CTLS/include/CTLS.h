// The C side of WeatherHTTP's SocketTransport: OpenSSL's libssl.so.3 (TLS), zlib's libz.so.1
// (the gzip content coding) and glibc's getaddrinfo_a (a name lookup with a time limit).
// libssl and libz are loaded at run time with dlopen + dlsym, so building needs no OpenSSL or
// zlib header and no -dev package, only the toolchain (docs/design/architecture.md#layers), as Sources/CCurl does.
//
// Only what SocketTransport and the HTTPS side of HTTPTesting use is declared. Every constant
// is OpenSSL 3's or zlib's ABI and is checked against their headers by check/abi-check.c (see
// docs/http-transport.md). SSL, SSL_CTX and BIO stay opaque; macros of OpenSSL's API
// (SSL_set_tlsext_host_name, SSL_CTX_set_min_proto_version, SSL_CTX_set_mode,
// BIO_set_mem_eof_return) are spelled out here as the SSL_ctrl / SSL_CTX_ctrl / BIO_ctrl calls
// they expand to.
#ifndef CTLS_H
#define CTLS_H

#include <netdb.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "CZlib.h"

/// An opened libssl (with the libcrypto it depends on): the functions taken from it (the handle
/// stays in CDynamicLibrary). Never closed.
typedef struct CTLSLibrary CTLSLibrary;
/// SSL_CTX *: the settings and trust store shared by many connections (thread-safe to share).
typedef struct CTLSContext CTLSContext;
/// SSL *: one TLS connection.
typedef struct CTLSSession CTLSSession;
/// BIO *: here a memory BIO between the TLS engine and the socket.
typedef struct CTLSBuffer CTLSBuffer;

enum {
    // SSL_get_error(3) results (ssl.h).
    CTLS_ERROR_NONE = 0,
    CTLS_ERROR_SSL = 1,
    CTLS_ERROR_WANT_READ = 2,
    CTLS_ERROR_WANT_WRITE = 3,
    CTLS_ERROR_SYSCALL = 5,
    CTLS_ERROR_ZERO_RETURN = 6,
    /// X509_V_OK (x509_vfy.h): SSL_get_verify_result(3) when the chain and name checked out.
    CTLS_X509_V_OK = 0,
    /// X509_V_ERR_CERT_NOT_YET_VALID and X509_V_ERR_CERT_HAS_EXPIRED (x509_vfy.h): a certificate
    /// of the chain is not valid at the time checked (openssl-verification-options(1), "Time").
    CTLS_X509_V_ERR_CERT_NOT_YET_VALID = 9,
    CTLS_X509_V_ERR_CERT_HAS_EXPIRED = 10,
};

/// ERR_get_error(3)'s code for SSL_R_UNEXPECTED_EOF_WHILE_READING, ERR_PACK(ERR_LIB_SSL, 0, 294):
/// the peer closed the socket without close_notify ("error:0A000126:SSL routines::unexpected eof
/// while reading").
#define CTLS_ERR_UNEXPECTED_EOF 0x0A000126UL

/// Opens libssl by file name (dlopen's search: "libssl.so.3"), takes its functions (libcrypto's
/// through the same handle, it is a dependency) and initialises it (OPENSSL_init_ssl). Thread-safe;
/// a library opened once is returned again. On failure it returns NULL and writes one line into
/// `error` ("… not found: apt install libssl3t64 (Debian 13) or libssl3 (Debian 12)", "… lacks SSL_CTX_new: not a libssl").
const CTLSLibrary *ctls_open(const char *library_name, char *error, size_t error_size);
/// OpenSSL_version(OPENSSL_VERSION): "OpenSSL 3.0.19 27 Jan 2026".
const char *ctls_version(const CTLSLibrary *library);

// MARK: Contexts (SSL_CTX)

/// SSL_CTX_new(TLS_client_method()) or, with `server` non-zero, TLS_server_method(); NULL on failure.
CTLSContext *ctls_context_new(const CTLSLibrary *library, int server);
void ctls_context_free(const CTLSLibrary *library, CTLSContext *context);
/// SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION): 1 on success.
int ctls_context_require_tls12(const CTLSLibrary *library, CTLSContext *context);
/// For test servers only: SSL_CTX_set_cipher_list(ctx, "DEFAULT@SECLEVEL=0") and the min and max
/// protocol versions (SSL_CTX_ctrl 123 and 124) both TLS1_1_VERSION: a server that offers TLS 1.1
/// and nothing else, which every client here must refuse. 1 on success.
int ctls_context_only_tls11(const CTLSLibrary *library, CTLSContext *context);
/// SSL_CTX_set_options(3): adds `options`, returns the new set.
uint64_t ctls_context_set_options(const CTLSLibrary *library, CTLSContext *context, uint64_t options);
/// SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER):
/// SSL_write on a non-blocking socket behaves like send(2) (the test server uses it).
void ctls_context_set_partial_writes(const CTLSLibrary *library, CTLSContext *context);
/// SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL): a handshake fails unless the chain verifies.
void ctls_context_verify_peer(const CTLSLibrary *library, CTLSContext *context);
/// SSL_CTX_set_default_verify_paths(3): OpenSSL's built-in CA file and directory, or
/// SSL_CERT_FILE / SSL_CERT_DIR. 1 on success.
int ctls_context_trust_default_paths(const CTLSLibrary *library, CTLSContext *context);
/// SSL_CTX_load_verify_locations(3): a PEM bundle and/or a hashed directory. 1 on success.
int ctls_context_trust_locations(const CTLSLibrary *library, CTLSContext *context, const char *file, const char *directory);
/// SSL_CTX_use_certificate_chain_file(3) and SSL_CTX_use_PrivateKey_file(ctx, path,
/// SSL_FILETYPE_PEM): the server's identity. 1 on success.
int ctls_context_use_certificate_chain(const CTLSLibrary *library, CTLSContext *context, const char *path);
int ctls_context_use_private_key(const CTLSLibrary *library, CTLSContext *context, const char *path);

// MARK: Sessions (SSL)

CTLSSession *ctls_session_new(const CTLSLibrary *library, CTLSContext *context);
/// SSL_free(3); also frees the BIOs attached by ctls_session_use_memory.
void ctls_session_free(const CTLSLibrary *library, CTLSSession *session);
/// SNI (RFC 6066 §3): SSL_set_tlsext_host_name, i.e. SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME,
/// TLSEXT_NAMETYPE_host_name, name). Only for DNS names, never for address literals. 1 on success.
int ctls_session_set_server_name(const CTLSLibrary *library, CTLSSession *session, const char *name);
/// SSL_set_hostflags(ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS) and SSL_set1_host(3): the peer
/// certificate must carry this DNS name (RFC 6125 matching; a wildcard only as a whole leftmost
/// label). 1 on success.
int ctls_session_expect_host(const CTLSLibrary *library, CTLSSession *session, const char *name);
/// X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), address): the certificate must carry this
/// IP address in its subjectAltName. 1 on success.
int ctls_session_expect_address(const CTLSLibrary *library, CTLSSession *session, const char *address);
/// X509_VERIFY_PARAM_set_time(SSL_get0_param(ssl), time): this session checks certificate
/// validity at `time` (seconds since the epoch, UTC) instead of the system clock; other sessions
/// of the context keep theirs (SSL_new copied the context's parameters). 1 on success; 0 without
/// verify parameters; -1 where time_t is narrower than 64 bits, since a 32-bit build's time_t
/// need not match libssl's (Debian 13 builds libssl3t64 with 64-bit time_t on 32-bit ports).
int ctls_session_verify_at(const CTLSLibrary *library, CTLSSession *session, int64_t time);
/// After a handshake: 1 when every certificate of the verified chain (SSL_get0_verified_chain(3))
/// is valid at `*time` (seconds since the epoch), or at the system clock when `time` is NULL, by
/// X509_cmp_time(3) against notBefore and notAfter as the verifier compares them; 0 otherwise,
/// also without a chain (a resumed session) or where time_t is narrower than 64 bits.
int ctls_session_chain_valid_at(const CTLSLibrary *library, const CTLSSession *session, const int64_t *time);
/// Two memory BIOs (BIO_new(BIO_s_mem())) attached with SSL_set_bio(3): the engine reads what the
/// caller puts into `*incoming` and writes what the caller must send into `*outgoing`, so every
/// socket call is the caller's (poll, deadline, MSG_NOSIGNAL). The session owns both. 1 on success.
int ctls_session_use_memory(const CTLSLibrary *library, CTLSSession *session, CTLSBuffer **incoming, CTLSBuffer **outgoing);
/// SSL_set_fd(3): the engine reads and writes the socket itself (the test server). 1 on success.
int ctls_session_set_fd(const CTLSLibrary *library, CTLSSession *session, int fd);
int ctls_connect(const CTLSLibrary *library, CTLSSession *session);
int ctls_accept(const CTLSLibrary *library, CTLSSession *session);
int ctls_read(const CTLSLibrary *library, CTLSSession *session, void *buffer, int capacity);
int ctls_write(const CTLSLibrary *library, CTLSSession *session, const void *bytes, int count);
int ctls_shutdown(const CTLSLibrary *library, CTLSSession *session);
/// SSL_pending(3): decrypted bytes ready to read without touching the socket.
int ctls_pending(const CTLSLibrary *library, const CTLSSession *session);
/// SSL_get_error(3) of a result ≤ 0 of connect, accept, read, write or shutdown.
int ctls_get_error(const CTLSLibrary *library, const CTLSSession *session, int result);
/// SSL_get_verify_result(3): X509_V_OK or an X509_V_ERR_* code.
long ctls_verify_result(const CTLSLibrary *library, const CTLSSession *session);
/// X509_verify_cert_error_string(3): "self-signed certificate", "hostname mismatch"…
const char *ctls_verify_error_string(const CTLSLibrary *library, long code);

// MARK: Memory BIOs

/// BIO_write(3): bytes received from the socket, for the engine. The count written, or ≤ 0.
int ctls_buffer_write(const CTLSLibrary *library, CTLSBuffer *buffer, const void *bytes, int count);
/// BIO_read(3): bytes the engine produced, to send. The count read, or ≤ 0 when empty.
int ctls_buffer_read(const CTLSLibrary *library, CTLSBuffer *buffer, void *bytes, int capacity);
/// BIO_ctrl_pending(3): how many bytes wait in the buffer.
size_t ctls_buffer_pending(const CTLSLibrary *library, CTLSBuffer *buffer);
/// BIO_set_mem_eof_return(buffer, 0), i.e. BIO_ctrl(b, BIO_C_SET_BUF_MEM_EOF_RETURN, 0, NULL): once
/// empty, the buffer reads as end of file instead of "retry" — the peer closed the socket.
void ctls_buffer_mark_eof(const CTLSLibrary *library, CTLSBuffer *buffer);

// MARK: The error queue (thread-local in OpenSSL)

/// ERR_get_error(3): the oldest queued error code and removes it; 0 when the queue is empty.
unsigned long ctls_error_next(const CTLSLibrary *library);
/// ERR_error_string_n(3): "error:0A000086:SSL routines::certificate verify failed".
void ctls_error_string(const CTLSLibrary *library, unsigned long code, char *buffer, size_t size);
/// ERR_clear_error(3).
void ctls_error_clear(const CTLSLibrary *library);

// MARK: Name lookup with a time limit

/// ctls_resolve's result when the time was up before the lookup ended.
#define CTLS_RESOLVE_TIMEOUT 1

/// getaddrinfo(3) for a TCP connection to `host`:`service` that gives up after `timeout_ms`:
/// getaddrinfo_a(3) with a completion callback, gai_suspend(3) with the time left. Returns 0 and
/// `*result` (free it with freeaddrinfo), an EAI_* code (negative), or CTLS_RESOLVE_TIMEOUT. A lookup
/// that is given up keeps running in glibc's helper thread; whichever of it and the caller ends
/// last frees its memory, so nothing leaks.
int ctls_resolve(const char *host, const char *service, int timeout_ms, struct addrinfo **result);

#endif

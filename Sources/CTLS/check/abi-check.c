// Not built by SwiftPM (excluded in Package.swift): checks every OpenSSL and zlib constant and
// the z_stream layout that Sources/CTLS spells out against the real headers, which the build
// itself never needs. Unpack the headers into /tmp, not onto the system, and compile:
//
//   cd /tmp && apt-get download libssl-dev zlib1g-dev && for d in *.deb; do dpkg-deb -x "$d" hdr; done
//   H=/tmp/hdr/usr/include; cc -fsyntax-only -I Sources/CTLS/include -I Sources/CDynamicLibrary/include -I $H -I $H/$(gcc -dumpmachine) Sources/CTLS/check/abi-check.c
//
// Silence means every value matches.
#include <stddef.h>

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <zlib.h>

#include "../ctls.c"
#include "../czlib.c"

#define SAME(ours, theirs) _Static_assert((long long)(ours) == (long long)(theirs), #ours " == " #theirs)

// include/CTLS.h
SAME(CTLS_ERROR_NONE, SSL_ERROR_NONE);
SAME(CTLS_ERROR_SSL, SSL_ERROR_SSL);
SAME(CTLS_ERROR_WANT_READ, SSL_ERROR_WANT_READ);
SAME(CTLS_ERROR_WANT_WRITE, SSL_ERROR_WANT_WRITE);
SAME(CTLS_ERROR_SYSCALL, SSL_ERROR_SYSCALL);
SAME(CTLS_ERROR_ZERO_RETURN, SSL_ERROR_ZERO_RETURN);
SAME(CTLS_X509_V_OK, X509_V_OK);
SAME(CTLS_X509_V_ERR_CERT_NOT_YET_VALID, X509_V_ERR_CERT_NOT_YET_VALID);
SAME(CTLS_X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_HAS_EXPIRED);
SAME(CTLS_ERR_UNEXPECTED_EOF, ERR_PACK(ERR_LIB_SSL, 0, SSL_R_UNEXPECTED_EOF_WHILE_READING));

// ctls.c: the values behind OpenSSL's macros
SAME(CTLS_SSL_CTRL_MODE, SSL_CTRL_MODE);
SAME(CTLS_SSL_CTRL_SET_TLSEXT_HOSTNAME, SSL_CTRL_SET_TLSEXT_HOSTNAME);
SAME(CTLS_TLSEXT_NAMETYPE_host_name, TLSEXT_NAMETYPE_host_name);
SAME(CTLS_SSL_CTRL_SET_MIN_PROTO_VERSION, SSL_CTRL_SET_MIN_PROTO_VERSION);
SAME(CTLS_TLS1_2_VERSION, TLS1_2_VERSION);
SAME(CTLS_SSL_CTRL_SET_MAX_PROTO_VERSION, SSL_CTRL_SET_MAX_PROTO_VERSION);
SAME(CTLS_TLS1_1_VERSION, TLS1_1_VERSION);
SAME(CTLS_SSL_MODE_ENABLE_PARTIAL_WRITE, SSL_MODE_ENABLE_PARTIAL_WRITE);
SAME(CTLS_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
SAME(CTLS_SSL_VERIFY_PEER, SSL_VERIFY_PEER);
SAME(CTLS_X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
SAME(CTLS_SSL_FILETYPE_PEM, SSL_FILETYPE_PEM);
SAME(CTLS_BIO_C_SET_BUF_MEM_EOF_RETURN, BIO_C_SET_BUF_MEM_EOF_RETURN);
SAME(CTLS_OPENSSL_VERSION, OPENSSL_VERSION);
SAME(CTLS_OPENSSL_INIT_LOAD_CRYPTO_STRINGS, OPENSSL_INIT_LOAD_CRYPTO_STRINGS);
SAME(CTLS_OPENSSL_INIT_LOAD_SSL_STRINGS, OPENSSL_INIT_LOAD_SSL_STRINGS);

// include/CZlib.h and czlib.c
SAME(CZ_OK, Z_OK);
SAME(CZ_STREAM_END, Z_STREAM_END);
SAME(CZ_NEED_DICT, Z_NEED_DICT);
SAME(CZ_ERRNO, Z_ERRNO);
SAME(CZ_STREAM_ERROR, Z_STREAM_ERROR);
SAME(CZ_DATA_ERROR, Z_DATA_ERROR);
SAME(CZ_MEM_ERROR, Z_MEM_ERROR);
SAME(CZ_BUF_ERROR, Z_BUF_ERROR);
SAME(CZ_VERSION_ERROR, Z_VERSION_ERROR);
SAME(CZ_NO_FLUSH, Z_NO_FLUSH);
SAME(CZ_WINDOW_GZIP, MAX_WBITS + 16);
SAME(CZ_WINDOW_ZLIB, MAX_WBITS);
SAME(sizeof(z_stream_abi), sizeof(z_stream));
SAME(offsetof(z_stream_abi, avail_in), offsetof(z_stream, avail_in));
SAME(offsetof(z_stream_abi, next_out), offsetof(z_stream, next_out));
SAME(offsetof(z_stream_abi, avail_out), offsetof(z_stream, avail_out));
SAME(offsetof(z_stream_abi, msg), offsetof(z_stream, msg));
SAME(offsetof(z_stream_abi, zalloc), offsetof(z_stream, zalloc));
SAME(offsetof(z_stream_abi, data_type), offsetof(z_stream, data_type));
SAME(offsetof(z_stream_abi, reserved), offsetof(z_stream, reserved));

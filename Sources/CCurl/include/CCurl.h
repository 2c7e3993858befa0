// libcurl's easy API, loaded at run time with dlopen("libcurl.so.4") + dlsym: building needs no
// curl.h and no -dev package, only the toolchain (docs/design/architecture.md#layers). The runtime library is the
// one FoundationNetworking links (Debian/Raspberry Pi OS package libcurl4, OpenSSL flavour).
//
// Only what WeatherHTTP uses is declared. The values are part of libcurl's ABI, which has been
// stable since 7.16 (options and codes are only ever added, never renumbered); each is checked
// against curl.h of Debian 12's libcurl4-openssl-dev 7.88.1 (see docs/http-transport.md):
//
//   option  = CURLOPTTYPE_<type> + number   (curl.h: CURLOPT(name, type, number))
//             CURLOPTTYPE_LONG 0, CURLOPTTYPE_OBJECTPOINT 10000, CURLOPTTYPE_FUNCTIONPOINT 20000;
//             CURLOPTTYPE_STRINGPOINT, _SLISTPOINT and _CBPOINT are aliases of OBJECTPOINT.
//   info    = CURLINFO_<type> + number      (CURLINFO_LONG 0x200000)
//   CURLcode: the enum's positions (curl.h "typedef enum { CURLE_OK = 0, ... } CURLcode").
//
// curl_easy_setopt is variadic, which Swift cannot call; the ccurl_setopt_* functions are its
// three shapes (long, pointer, callback).
#ifndef CCURL_H
#define CCURL_H

#include <stddef.h>

/// An opened libcurl: the functions taken from it (the handle stays in CDynamicLibrary). Never closed.
typedef struct CCurlLibrary CCurlLibrary;
/// A CURL * easy handle.
typedef struct CCurlEasy CCurlEasy;
/// A struct curl_slist * list of header lines.
typedef struct CCurlSList CCurlSList;

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION: (data, 1, count, context) → bytes taken.
/// Taking fewer than size * count aborts the transfer with CURLE_WRITE_ERROR.
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);

typedef enum CCurlOption {
    CCURLOPT_WRITEDATA = 10000 + 1,           // CBPOINT + 1
    CCURLOPT_URL = 10000 + 2,                 // STRINGPOINT + 2
    CCURLOPT_ERRORBUFFER = 10000 + 10,        // OBJECTPOINT + 10 (CURL_ERROR_SIZE bytes)
    CCURLOPT_WRITEFUNCTION = 20000 + 11,      // FUNCTIONPOINT + 11
    CCURLOPT_HTTPHEADER = 10000 + 23,         // SLISTPOINT + 23
    CCURLOPT_HEADERDATA = 10000 + 29,         // CBPOINT + 29
    CCURLOPT_FOLLOWLOCATION = 0 + 52,         // LONG + 52
    CCURLOPT_SSLVERSION = 0 + 32,             // VALUES + 32
    CCURLOPT_CAINFO = 10000 + 65,             // STRINGPOINT + 65
    CCURLOPT_HEADERFUNCTION = 20000 + 79,     // FUNCTIONPOINT + 79
    CCURLOPT_HTTPGET = 0 + 80,                // LONG + 80
    CCURLOPT_HTTP_VERSION = 0 + 84,           // LONG + 84
    CCURLOPT_CAPATH = 10000 + 97,             // STRINGPOINT + 97
    CCURLOPT_NOSIGNAL = 0 + 99,               // LONG + 99
    CCURLOPT_ACCEPT_ENCODING = 10000 + 102,   // STRINGPOINT + 102 (7.21.6)
    CCURLOPT_PROTOCOLS = 0 + 181,             // LONG + 181 (bit mask; deprecated by _STR in 7.85)
    CCURLOPT_TIMEOUT_MS = 0 + 155,            // LONG + 155
    CCURLOPT_CONNECTTIMEOUT_MS = 0 + 156,     // LONG + 156
    CCURLOPT_PROTOCOLS_STR = 10000 + 318,     // STRINGPOINT + 318 (7.85)
} CCurlOption;

typedef enum CCurlInfo {
    CCURLINFO_RESPONSE_CODE = 0x200000 + 2,   // CURLINFO_LONG + 2
    CCURLINFO_NUM_CONNECTS = 0x200000 + 26,   // CURLINFO_LONG + 26: new connections of the last transfer
} CCurlInfo;

typedef enum CCurlCode {
    CCURLE_OK = 0,
    CCURLE_UNSUPPORTED_PROTOCOL = 1,
    CCURLE_URL_MALFORMAT = 3,
    CCURLE_COULDNT_RESOLVE_PROXY = 5,
    CCURLE_COULDNT_RESOLVE_HOST = 6,
    CCURLE_COULDNT_CONNECT = 7,
    CCURLE_PARTIAL_FILE = 18,
    CCURLE_WRITE_ERROR = 23,
    CCURLE_OPERATION_TIMEDOUT = 28,
    CCURLE_SSL_CONNECT_ERROR = 35,
    CCURLE_UNKNOWN_OPTION = 48,
    CCURLE_PEER_FAILED_VERIFICATION_OLD = 51, // before 7.62 (then 60)
    CCURLE_GOT_NOTHING = 52,
    CCURLE_SSL_ENGINE_NOTFOUND = 53,
    CCURLE_SSL_ENGINE_SETFAILED = 54,
    CCURLE_SEND_ERROR = 55,
    CCURLE_RECV_ERROR = 56,
    CCURLE_SSL_CERTPROBLEM = 58,
    CCURLE_SSL_CIPHER = 59,
    CCURLE_PEER_FAILED_VERIFICATION = 60,
    CCURLE_FILESIZE_EXCEEDED = 63,
    CCURLE_USE_SSL_FAILED = 64,
    CCURLE_SSL_ENGINE_INITFAILED = 66,
    CCURLE_SSL_CACERT_BADFILE = 77,
    CCURLE_SSL_SHUTDOWN_FAILED = 80,
    CCURLE_SSL_CRL_BADFILE = 82,
    CCURLE_SSL_ISSUER_ERROR = 83,
    CCURLE_SSL_PINNEDPUBKEYNOTMATCH = 90,
    CCURLE_SSL_INVALIDCERTSTATUS = 91,
    CCURLE_SSL_CLIENTCERT = 98,
} CCurlCode;

enum {
    /// CURL_ERROR_SIZE: the size CURLOPT_ERRORBUFFER must have.
    CCURL_ERROR_SIZE = 256,
    /// CURL_HTTP_VERSION_1_1, a value of CURLOPT_HTTP_VERSION.
    CCURL_HTTP_VERSION_1_1 = 2,
    /// CURL_SSLVERSION_TLSv1_2, a value of CURLOPT_SSLVERSION: TLS 1.2 or later (7.34).
    CCURL_SSLVERSION_TLSv1_2 = 6,
    /// CURLPROTO_HTTP | CURLPROTO_HTTPS, a value of CURLOPT_PROTOCOLS.
    CCURLPROTO_HTTP_HTTPS = 1 | 2,
};

/// Opens libcurl by file name (dlopen's search: "libcurl.so.4"), takes its functions and runs
/// curl_global_init once. Thread-safe; a library opened once is returned again. On failure it
/// returns NULL and writes one line into `error` ("... not found", "... lacks curl_easy_init").
const CCurlLibrary *ccurl_open(const char *library_name, char *error, size_t error_size);

/// curl_version(): "libcurl/7.88.1 OpenSSL/3.0.19 zlib/1.2.13 ...".
const char *ccurl_version(const CCurlLibrary *library);
const char *ccurl_strerror(const CCurlLibrary *library, CCurlCode code);

CCurlEasy *ccurl_easy_init(const CCurlLibrary *library);
/// Forgets all options but keeps the connection cache, DNS cache and TLS sessions.
void ccurl_easy_reset(const CCurlLibrary *library, CCurlEasy *easy);
void ccurl_easy_cleanup(const CCurlLibrary *library, CCurlEasy *easy);
CCurlCode ccurl_easy_perform(const CCurlLibrary *library, CCurlEasy *easy);

CCurlCode ccurl_setopt_long(const CCurlLibrary *library, CCurlEasy *easy, CCurlOption option, long value);
/// Strings are copied by libcurl (7.17+); lists and buffers must outlive the transfer.
CCurlCode ccurl_setopt_pointer(const CCurlLibrary *library, CCurlEasy *easy, CCurlOption option, const void *value);
CCurlCode ccurl_setopt_callback(const CCurlLibrary *library, CCurlEasy *easy, CCurlOption option, ccurl_data_callback value);
CCurlCode ccurl_getinfo_long(const CCurlLibrary *library, CCurlEasy *easy, CCurlInfo info, long *value);

/// curl_slist_append (copies the line); NULL when out of memory.
CCurlSList *ccurl_slist_append(const CCurlLibrary *library, CCurlSList *list, const char *line);
void ccurl_slist_free_all(const CCurlLibrary *library, CCurlSList *list);

#endif

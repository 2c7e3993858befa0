/// Where a transport checks HTTPS certificates against; the same three choices for
/// `SocketTransport` (OpenSSL directly) and `CurlTransport` (libcurl's OpenSSL).
public enum TLSTrust: Sendable, Equatable {
    /// The library's default paths: OpenSSL's `SSL_CTX_set_default_verify_paths` (on Debian
    /// the bundle /usr/lib/ssl/cert.pem and the directory /usr/lib/ssl/certs, or `SSL_CERT_FILE`
    /// and `SSL_CERT_DIR`), libcurl's built-in CA bundle and directory. Parses the whole bundle
    /// on the first handshake.
    case system
    /// A PEM file of CA certificates, instead of the system's (CURLOPT_CAINFO).
    case bundle(path: String)
    /// An OpenSSL hashed directory of CA certificates (`openssl rehash`), with no bundle file:
    /// only the certificates a handshake needs are read (CURLOPT_CAPATH). `/etc/ssl/certs` on
    /// Debian and Raspberry Pi OS: about 1 MB less peak RSS than `.system`
    /// (docs/http-transport.md).
    case directory(path: String)
}

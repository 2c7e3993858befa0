import Synchronization
import Weather

/// An `HTTPTransport` of our own: HTTP/1.1 (RFC 9112) over a POSIX socket, TLS through OpenSSL's
/// `libssl.so.3` and gzip through zlib's `libz.so.1`, both loaded at run time (Sources/CTLS), so
/// the package still builds with nothing but the Swift toolchain. It exists because libcurl's
/// dependency set costs the daemon its memory budget (docs/http-transport.md, "A client of our
/// own"); it does only what the weather providers need.
///
/// What a request gets — the same contract as `CurlTransport`:
/// - one deadline, `HTTPRequest.timeout`, for the whole exchange: name lookup (getaddrinfo_a),
///   connect, TLS handshake, write and read all wait in poll(2) for what is left of it;
/// - the host's addresses raced as RFC 8305 says (`HappyEyeballs`): an address that black-holes
///   costs 250 ms, not the deadline;
/// - `GET`, the request's headers as given and in order (CR, LF or NUL in one: refused, `.other`),
///   `Host` first, `Accept-Encoding: gzip` unless the request names its own, `Connection:
///   keep-alive`; gzip and deflate bodies come back decoded;
/// - redirects not followed (a 3xx is returned as it is), interim 1xx responses skipped, the
///   status as it is (the transport does not judge 4xx/5xx);
/// - the body framed by Content-Length, the chunked coding (trailers read and dropped) or the
///   connection's end; none for 204 and 304; `.tooLarge` as soon as the decoded bytes pass
///   `HTTPRequest.maximumBodySize`; `.truncated` when the connection ends before the announced
///   length or the last chunk, or, over TLS, without close_notify when its end frames the body
///   (RFC 9112 §9.8); a chunk-size line with junk after the size or over 4 KiB, and more than
///   1 KiB after the end of a gzip body, are refused (`.other`);
/// - HTTPS with TLS ≥ 1.2, SNI, the chain verified against `Configuration.trust` and the host name
///   (or IP address) checked against the certificate, wildcards only as a whole label; validity
///   dates checked at `HTTPRequest.verificationTime` when it is given (on that connection's
///   SSL alone), else at the system clock, and a failure on them marked `certificateTime`.
///
/// One idle connection per scheme, host and port is kept and reused by the next request (at
/// most four, none idle longer than 60 s, and over TLS only if its verified chain is valid at
/// the time the next request checks at). A request that fails on a reused connection before a
/// byte of answer arrived is sent once more on a new one: the server may have closed it while it
/// was idle (RFC 9112 §9.3.1; a GET is idempotent, RFC 9110 §9.2.2).
///
/// Copies share the libraries, the TLS context and the idle connections, behind a mutex that is
/// held only to take or return them: copies used from several threads each run their own
/// connection. libz is loaded by the first `send`, libssl by the first https request; when one is
/// missing those requests fail with `.unavailable` ("libssl.so.3 not found: apt install libssl3t64 (Debian 13) or libssl3 (Debian 12)").
public struct SocketTransport: HTTPTransport, Sendable {
    public struct Configuration: Sendable, Equatable {
        public typealias Trust = TLSTrust

        public var trust: Trust
        /// dlopen's names: file names searched the usual way, or paths (tests pass names that do
        /// not exist).
        public var sslLibraryName: String
        public var zlibLibraryName: String
        /// The resolver's seam: a host named here is not looked up; its addresses are these
        /// literals ("127.0.0.2", "::1"), in this order, with the URL's port — what getaddrinfo
        /// would have returned (like curl's CURLOPT_RESOLVE). Tests use it to give a name a first
        /// address that black-holes, or a name a certificate is made for.
        var fixedAddresses: [String: [String]] = [:]
        /// RFC 8305 §5's "Connection Attempt Delay" (`HappyEyeballs.attemptDelay`); a seam, so a
        /// test can tell "at once after a failure" from "after the delay" without racing a clock.
        var connectionAttemptDelay: Duration = HappyEyeballs.attemptDelay

        public init(
            trust: Trust = .directory(path: "/etc/ssl/certs"), sslLibraryName: String = "libssl.so.3", zlibLibraryName: String = "libz.so.1"
        ) {
            self.trust = trust
            self.sslLibraryName = sslLibraryName
            self.zlibLibraryName = zlibLibraryName
        }
    }

    private let session: SocketSession

    public init(configuration: Configuration = Configuration()) {
        session = SocketSession(configuration: configuration)
    }

    public var configuration: Configuration { session.configuration }

    /// How many connections this transport (and its copies) opened so far: fewer than the
    /// requests when connections are reused.
    public var connectionsOpened: Int { session.connectionsOpened }

    /// "OpenSSL 3.0.19 27 Jan 2026, zlib 1.2.13", or why one of them cannot be loaded. Loads both.
    public var libraryVersion: Result<String, TransportError> { session.libraryVersion }

    public mutating func send(_ request: HTTPRequest) -> Result<HTTPResponse, TransportError> {
        session.send(request)
    }
}

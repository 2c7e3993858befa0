import HAL

/// One HTTP GET as a weather provider asks for it. The providers build requests and read
/// responses; an `HTTPTransport` moves them. Keeping the two apart lets the repository run on
/// virtual time against a fake transport, and lets the transport be chosen by measurement
/// (docs/http-transport.md) without touching a decoder.
public struct HTTPRequest: Sendable, Equatable {
    /// An absolute `http:` or `https:` URL with its query already percent-encoded.
    public var url: String
    /// Sent as given, in order (User-Agent, If-Modified-Since, Accept-Encoding…).
    public var headers: [HTTPHeader]
    /// The whole exchange, connecting included: a weather fetch that takes longer has failed.
    public var timeout: Duration
    /// A larger body is refused (`TransportError.Kind.tooLarge`) instead of filling the memory
    /// of a small board: Open-Meteo answers about 3 KB, MET Norway's compact forecast ~40 KB.
    public var maximumBodySize: Int
    /// The civil time at which an HTTPS certificate's validity is checked; nil: the system clock
    /// (CLOCK_REALTIME), as OpenSSL does by default. A board without a real-time clock starts
    /// months behind until NTP answers, and every certificate is then "not yet valid"; a device
    /// that knows the time from GPS gives it here. Only the validity dates use it: the chain and
    /// the name are checked as always. `SocketTransport` honours it for this request's
    /// connection alone; `CurlTransport` ignores it (libcurl has no option for it).
    public var verificationTime: WallTime?

    public init(
        url: String, headers: [HTTPHeader] = [], timeout: Duration = .seconds(20), maximumBodySize: Int = 1 << 20,
        verificationTime: WallTime? = nil
    ) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.verificationTime = verificationTime
    }

    /// The value of the first header named `name` (ASCII case-insensitive), if any.
    public func header(_ name: String) -> String? { HTTPHeader.first(name, in: headers) }
}

/// A header line. Names compare without regard to ASCII case (RFC 9110 §5.1).
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Its name is `name`, ASCII case-insensitive (RFC 9110 §5.1: field names are tokens, so no
    /// Unicode case folding), compared byte by byte without allocating. The one name comparison
    /// of the package: the messages here and both transports use it.
    public func isNamed(_ name: String) -> Bool {
        self.name.utf8.elementsEqual(name.utf8) { Self.asciiLower($0) == Self.asciiLower($1) }
    }

    /// The value of the first header in `headers` named `name`, if any.
    public static func first(_ name: String, in headers: [HTTPHeader]) -> String? {
        headers.first { $0.isNamed(name) }?.value
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}

/// What came back: the status, the headers of the final response and the body with any
/// content coding (gzip) already removed.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header named `name` (ASCII case-insensitive), if any.
    public func header(_ name: String) -> String? { HTTPHeader.first(name, in: headers) }
}

/// Why no response arrived. The kinds are what the repository needs to decide on a retry and
/// what the status screen says; `detail` is the transport's own one line, for the log.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No complete answer within `HTTPRequest.timeout`.
        case timeout
        /// Nothing listens there (ECONNREFUSED), or the route is down.
        case connectionRefused
        /// The name does not resolve: usually no network yet (Wi-Fi still joining).
        case hostNotFound
        /// The TLS handshake or the certificate check failed (a clock far off breaks it too:
        /// `certificateTime` then says which way).
        case tls
        /// The connection closed before the body announced by Content-Length, or the last chunk,
        /// was complete; or a TLS body framed by the connection's end ended without close_notify.
        case truncated
        /// The body is larger than `HTTPRequest.maximumBodySize`.
        case tooLarge
        /// The transport itself is missing (libcurl could not be loaded).
        case unavailable
        case other
    }

    /// Which side of its validity dates a certificate was on at the time it was checked.
    public enum CertificateTime: Sendable, Equatable {
        /// Before notBefore (X509_V_ERR_CERT_NOT_YET_VALID): most often a clock that is behind.
        case notYetValid
        /// After notAfter (X509_V_ERR_CERT_HAS_EXPIRED): the server's certificate, or a clock ahead.
        case expired
    }

    public var kind: Kind
    public var detail: String
    /// For a `.tls` failure whose certificate check stopped at a validity date (the verify result
    /// OpenSSL reports, SSL_get_verify_result(3)): which way, so a caller can name the clock as
    /// the likely cause; nil for every other failure.
    public var certificateTime: CertificateTime?

    public init(_ kind: Kind, _ detail: String, certificateTime: CertificateTime? = nil) {
        self.kind = kind
        self.detail = detail
        self.certificateTime = certificateTime
    }

    public var description: String { detail }
}

/// Moves one request over the network and waits for the answer. It blocks, so the app calls
/// it off the event loop (docs/design/architecture.md#the-loop) and hands the result back as an event.
///
/// Implementations: `SocketTransport` (HTTP/1.1 over sockets with libssl, the default, chosen by
/// peak RSS in docs/http-transport.md), `CurlTransport` (libcurl, the measured alternative) in
/// `WeatherHTTP`, and the scripted transports of the tests.
public protocol HTTPTransport {
    mutating func send(_ request: HTTPRequest) -> Result<HTTPResponse, TransportError>
}

import HTTPTesting
import Testing
import Weather
import WeatherHTTP

/// The two transports every test of this target runs against: libcurl (`CurlTransport`) and our
/// own HTTP/1.1 over sockets (`SocketTransport`). Both promise the same `HTTPTransport`
/// contract, so the same expectations hold for both.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case curl
    case socket

    var testDescription: String { rawValue }

    /// Where certificates are checked against, in the words both configurations share.
    enum Trust: Sendable {
        /// Each transport's default (curl: its built-in bundle; socket: /etc/ssl/certs).
        case standard
        case bundle(String)
        case directory(String)
    }

    func make(trust: Trust = .standard) -> AnyTransport {
        switch self {
        case .curl:
            let configuration: CurlTransport.Configuration =
                switch trust {
                case .standard: .init()
                case .bundle(let path): .init(trust: .bundle(path: path))
                case .directory(let path): .init(trust: .directory(path: path))
                }
            return AnyTransport(.curl(CurlTransport(configuration: configuration)))
        case .socket:
            let configuration: SocketTransport.Configuration =
                switch trust {
                case .standard: .init()
                case .bundle(let path): .init(trust: .bundle(path: path))
                case .directory(let path): .init(trust: .directory(path: path))
                }
            return AnyTransport(.socket(SocketTransport(configuration: configuration)))
        }
    }
}

/// Either transport behind one type, with the connection count both keep.
struct AnyTransport: HTTPTransport, Sendable {
    enum Base: Sendable {
        case curl(CurlTransport)
        case socket(SocketTransport)
    }

    var base: Base

    init(_ base: Base) { self.base = base }

    mutating func send(_ request: HTTPRequest) -> Result<HTTPResponse, TransportError> {
        // Both keep their state in a shared session: sending on a copy is sending on the transport.
        switch base {
        case .curl(var transport): transport.send(request)
        case .socket(var transport): transport.send(request)
        }
    }

    var connectionsOpened: Int {
        switch base {
        case .curl(let transport): transport.connectionsOpened
        case .socket(let transport): transport.connectionsOpened
        }
    }
}

/// The checked-in test certificates (Fixtures/tls), made once with
/// `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500 …`:
/// - localhost.pem/.key: CN=localhost, subjectAltName DNS:localhost, IP:127.0.0.1;
/// - other-name.pem/.key: CN=weather.example, subjectAltName DNS:weather.example only;
/// - partial-wildcard.pem/.key: CN and subjectAltName DNS:w*.example.com, a partial wildcard
///   that must not match www.example.com (X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
/// - expired.pem/.key: CN=localhost, subjectAltName DNS:localhost, IP:127.0.0.1, valid only from
///   2020-01-01T00:00:00Z to 2021-01-01T00:00:00Z (OpenSSL 3.0's `req` has no explicit dates, so
///   `openssl ca -selfsign -startdate 20200101000000Z -enddate 20210101000000Z` signed its request,
///   with the extensions above and basicConstraints CA:TRUE);
/// - ca-directory/: localhost.pem under its subject hash (`openssl x509 -hash`), an OpenSSL
///   hashed directory that trusts only it.
/// Test keys, for 127.0.0.1 only; they protect nothing.
enum TestCertificates {
    static func path(_ name: String) -> String { Fixtures.directory + "/tls/" + name }

    static var localhost: LoopbackHTTPServer.TLSIdentity {
        .init(certificateChainPath: path("localhost.pem"), privateKeyPath: path("localhost.key"))
    }

    static var partialWildcard: LoopbackHTTPServer.TLSIdentity {
        .init(certificateChainPath: path("partial-wildcard.pem"), privateKeyPath: path("partial-wildcard.key"))
    }

    /// localhost's identity on a server that offers TLS 1.1 only.
    static var localhostTLS11: LoopbackHTTPServer.TLSIdentity {
        .init(certificateChainPath: path("localhost.pem"), privateKeyPath: path("localhost.key"), onlyTLS11: true)
    }

    static var expired: LoopbackHTTPServer.TLSIdentity {
        .init(certificateChainPath: path("expired.pem"), privateKeyPath: path("expired.key"))
    }

    static var otherName: LoopbackHTTPServer.TLSIdentity {
        .init(certificateChainPath: path("other-name.pem"), privateKeyPath: path("other-name.key"))
    }
}

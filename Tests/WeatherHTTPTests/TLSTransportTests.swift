#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HTTPTesting
import Testing
import Weather
import WeatherHTTP

/// HTTPS through both transports against the loopback server with TLS (the checked-in test
/// certificates, see `TestCertificates`): a certificate the client trusts (as a bundle and as a
/// hashed directory) works by address and by name; one it does not trust, and one for another
/// name, fail the handshake with `.tls`; the rest of the contract holds over TLS too.
// The limit catches a hang, not slowness: the store's crash enumerations can hold both of a
// 2-core machine's test threads for minutes, and a 1-minute limit then failed tests that never ran.
@Suite(.timeLimit(.minutes(10)))
struct TLSTransportTests {
    static func get(_ url: String, timeout: Duration = .seconds(10), maximumBodySize: Int = 1 << 20) -> HTTPRequest {
        HTTPRequest(url: url, timeout: timeout, maximumBodySize: maximumBodySize)
    }

    static func server(_ identity: LoopbackHTTPServer.TLSIdentity = TestCertificates.localhost) throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer(tls: identity)
        server.route("/v1/forecast", .response(status: 200, headers: [.init("Content-Type", "application/json")], text: #"{"ok":true}"#))
        return server
    }

    @Test("A certificate trusted as a bundle: 200 by IP address (subjectAltName IP:127.0.0.1)", arguments: TransportKind.allCases)
    func trustedBundle(kind: TransportKind) throws {
        let server = try Self.server()
        defer { server.stop() }
        var client = kind.make(trust: .bundle(TestCertificates.path("localhost.pem")))
        #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))
        let response = try client.send(Self.get(server.url("/v1/forecast?latitude=52.52"))).get()
        #expect(response.status == 200)
        #expect(response.body == Array(#"{"ok":true}"#.utf8))
        #expect(server.requests.first?.query == "latitude=52.52")
    }

    @Test("A certificate trusted through a hashed CA directory: 200 by name (SNI, DNS:localhost)", arguments: TransportKind.allCases)
    func trustedDirectory(kind: TransportKind) throws {
        let server = try Self.server()
        defer { server.stop() }
        var client = kind.make(trust: .directory(TestCertificates.path("ca-directory")))
        let response = try client.send(Self.get("https://localhost:\(server.port)/v1/forecast")).get()
        #expect(response.status == 200)
        #expect(server.requests.first?.header("Host") == "localhost:\(server.port)")
    }

    @Test("A certificate nobody vouches for: .tls, and no request reaches the server", arguments: TransportKind.allCases)
    func untrusted(kind: TransportKind) throws {
        let server = try Self.server()
        defer { server.stop() }
        var standard = kind.make()
        let result = standard.send(Self.get(server.url("/v1/forecast")))
        #expect(result.failureKind == .tls, "\(result.failureDetail)")
        #expect(result.failureDetail.hasPrefix("127.0.0.1:\(server.port): "))
        #expect(!result.failureDetail.contains("\n"))
        if kind == .socket {
            #expect(result.failureDetail.contains("self-signed certificate"), "\(result.failureDetail)")
        }
        var otherCA = kind.make(trust: .bundle(TestCertificates.path("other-name.pem")))
        #expect(otherCA.send(Self.get(server.url("/v1/forecast"))).failureKind == .tls)
        #expect(server.requests.isEmpty)
    }

    @Test("A trusted certificate for another name: .tls by address and by name", arguments: TransportKind.allCases)
    func wrongName(kind: TransportKind) throws {
        let server = try Self.server(TestCertificates.otherName)
        defer { server.stop() }
        var client = kind.make(trust: .bundle(TestCertificates.path("other-name.pem")))
        let byAddress = client.send(Self.get(server.url("/v1/forecast")))
        #expect(byAddress.failureKind == .tls, "\(byAddress.failureDetail)")
        let byName = client.send(Self.get("https://localhost:\(server.port)/v1/forecast"))
        #expect(byName.failureKind == .tls, "\(byName.failureDetail)")
        if kind == .socket {
            #expect(byAddress.failureDetail.contains("IP address mismatch"), "\(byAddress.failureDetail)")
            #expect(byName.failureDetail.contains("hostname mismatch"), "\(byName.failureDetail)")
        }
        #expect(server.requests.isEmpty)
    }

    @Test("Over TLS: gzip and chunked bodies, one connection for several requests", arguments: TransportKind.allCases)
    func bodiesAndReuse(kind: TransportKind) throws {
        let server = try Self.server()
        defer { server.stop() }
        let plain = try Fixtures.bytes("own-forecast.json")
        let compressed = try Fixtures.bytes("own-forecast.json.gz")
        server.route("/gzip", .response(status: 200, headers: [.init("Content-Encoding", "gzip")], body: compressed))
        server.route("/chunked", .chunked(status: 200, chunks: [Array(plain[..<1000]), Array(plain[1000...])]))
        server.route("/big", .response(status: 200, body: (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
        var client = kind.make(trust: .bundle(TestCertificates.path("localhost.pem")))
        #expect(try client.send(Self.get(server.url("/gzip"))).get().body == plain)
        #expect(try client.send(Self.get(server.url("/chunked"))).get().body == plain)
        #expect(try client.send(Self.get(server.url("/big"))).get().body.count == 300_000)
        #expect(try client.send(Self.get(server.url("/v1/forecast"))).get().status == 200)
        #expect(server.connectionsAccepted == 1)
        #expect(client.connectionsOpened == 1)
    }

    @Test("Over TLS: a stall past the timeout is .timeout, a cut body .truncated, an oversize one .tooLarge", arguments: TransportKind.allCases)
    func failures(kind: TransportKind) throws {
        let server = try Self.server()
        defer { server.stop() }
        server.route("/slow", .stallAfterHead)
        server.route("/cut", .truncated(status: 200, body: Array(#"{"latitude":52.5"#.utf8), declaredLength: 2786))
        server.route("/big", .response(status: 200, body: [UInt8](repeating: 0x41, count: 5000)))
        var client = kind.make(trust: .bundle(TestCertificates.path("localhost.pem")))
        let slow = client.send(Self.get(server.url("/slow"), timeout: .milliseconds(300)))
        #expect(slow.failureKind == .timeout, "\(slow.failureDetail)")
        let cut = client.send(Self.get(server.url("/cut")))
        #expect(cut.failureKind == .truncated, "\(cut.failureDetail)")
        let big = client.send(Self.get(server.url("/big"), maximumBodySize: 4999))
        #expect(big.failureKind == .tooLarge, "\(big.failureDetail)")
    }

    @Test("A server that accepts TCP but never answers the ClientHello: .timeout within the deadline", arguments: TransportKind.allCases)
    func silentHandshake(kind: TransportKind) throws {
        let listener = try SilentListener()
        defer { listener.close() }
        var client = kind.make(trust: .bundle(TestCertificates.path("localhost.pem")))
        let started = ContinuousClock.now
        let result = client.send(Self.get("https://127.0.0.1:\(listener.port)/", timeout: .milliseconds(300)))
        #expect(result.failureKind == .timeout, "\(result.failureDetail)")
        #expect(ContinuousClock.now - started < .seconds(3))
    }
}

/// A listening socket on 127.0.0.1 that never accepts: the kernel completes the TCP handshake
/// (the backlog), and then nothing ever answers.
struct SilentListener {
    let fd: Int32
    let port: UInt16

    struct Failed: Error {}

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failed() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok else {
            _ = Glibc.close(fd)
            throw Failed()
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    func close() { _ = Glibc.close(fd) }
}

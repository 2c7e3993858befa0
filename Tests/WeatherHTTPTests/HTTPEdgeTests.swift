#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HTTPTesting
import Testing
import Weather
@testable import WeatherHTTP

/// The HTTP edge on real home networks: a first address that black-holes, a TLS cut
/// without close_notify, chunk-size lines that are too long or carry junk, bytes without end
/// after a gzip member, partial-wildcard certificates, and TLS below 1.2. Each against the
/// loopback server.
// The limit catches a hang, not slowness: the store's crash enumerations can hold both of a
// 2-core machine's test threads for minutes, and a 1-minute limit then failed tests that never ran.
@Suite(.timeLimit(.minutes(10)))
struct HTTPEdgeTests {
    static func get(_ url: String, timeout: Duration = .seconds(5), maximumBodySize: Int = 1 << 20) -> HTTPRequest {
        HTTPRequest(url: url, timeout: timeout, maximumBodySize: maximumBodySize)
    }

    static func socket(
        _ fixed: [String: [String]] = [:], trust: SocketTransport.Configuration.Trust? = nil, attemptDelay: Duration? = nil
    ) -> SocketTransport {
        var configuration = SocketTransport.Configuration()
        if let trust { configuration.trust = trust }
        configuration.fixedAddresses = fixed
        if let attemptDelay { configuration.connectionAttemptDelay = attemptDelay }
        return SocketTransport(configuration: configuration)
    }

    // MARK: Addresses (RFC 8305)

    @Test("A first address that black-holes: the next one is tried and the fetch succeeds well within the deadline")
    func firstAddressBlackHoled() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/v1/forecast", .response(status: 200, text: "ok"))
        let hole = try BlackHole(address: "127.0.0.2", port: server.port)
        defer { hole.close() }
        var client = Self.socket(["eyeballs.test": ["127.0.0.2", "127.0.0.1"]])
        let started = ContinuousClock.now
        let result = client.send(Self.get("http://eyeballs.test:\(server.port)/v1/forecast", timeout: .seconds(4)))
        let took = ContinuousClock.now - started
        #expect(result.failureDetail == "(succeeded)")
        #expect((try? result.get())?.body == Array("ok".utf8))
        #expect(took < .seconds(2), "took \(took)")
    }

    @Test("Every address black-holes: .timeout at the deadline, not before and not long after")
    func everyAddressBlackHoled() throws {
        let hole = try BlackHole(address: "127.0.0.5", port: 0)
        defer { hole.close() }
        let other = try BlackHole(address: "127.0.0.6", port: hole.port)
        defer { other.close() }
        var client = Self.socket(["eyeballs.test": ["127.0.0.5", "127.0.0.6"]])
        let started = ContinuousClock.now
        let result = client.send(Self.get("http://eyeballs.test:\(hole.port)/", timeout: .milliseconds(700)))
        let took = ContinuousClock.now - started
        #expect(result.failureKind == .timeout, "\(result.failureDetail)")
        #expect(took >= .milliseconds(650) && took < .seconds(2), "took \(took)")
    }

    @Test("The families interleave in the resolver's order: 6 4 6 4 6 (RFC 8305 §4)")
    func interleaving() {
        let address = { (text: String) in Wire.literal(text, port: 443)!.bytes }
        let resolved = ["::1", "::2", "::3", "10.0.0.1", "10.0.0.2"].map { Wire.literal($0, port: 443)! }
        let order = HappyEyeballs.interleaved(resolved).map(\.bytes)
        #expect(order == ["::1", "10.0.0.1", "::2", "10.0.0.2", "::3"].map(address))
        #expect(HappyEyeballs.interleaved([]).isEmpty)
    }

    @Test("A refused first address: the next one at once, not after the attempt delay")
    func firstAddressRefused() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/", .response(status: 200, text: "ok"))
        // Nothing listens on 127.0.0.4. With a 20 s delay, only "at once" fits in the deadline.
        var client = Self.socket(["eyeballs.test": ["127.0.0.4", "127.0.0.1"]], attemptDelay: .seconds(20))
        let result = client.send(Self.get("http://eyeballs.test:\(server.port)/", timeout: .seconds(10)))
        #expect(result.failureDetail == "(succeeded)")
    }

    // MARK: TLS closure (RFC 9112 §9.8, RFC 8446 §6.1)

    static let openEnded = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"latitude\":52.5"

    @Test("Over TLS, a body framed by the connection's end and cut without close_notify is .truncated")
    func tlsCutWithoutCloseNotify() throws {
        let server = try LoopbackHTTPServer(tls: TestCertificates.localhost)
        defer { server.stop() }
        server.route("/cut", .cutWithoutCloseNotify(Array(Self.openEnded.utf8)))
        server.route("/closed", .raw(Array(Self.openEnded.utf8)))
        let framed = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
        server.route("/framed", .cutWithoutCloseNotify(Array(framed.utf8)))
        server.route("/chunked", .cutWithoutCloseNotify(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n".utf8)))
        var client = Self.socket(trust: .bundle(path: TestCertificates.path("localhost.pem")))
        let cut = client.send(Self.get(server.url("/cut")))
        #expect(cut.failureKind == .truncated, "\(cut.failureDetail)")
        // With close_notify the end is the body's end (RFC 9112 §6.3 item 8).
        #expect((try? client.send(Self.get(server.url("/closed"))).get())?.body == Array("{\"latitude\":52.5".utf8))
        // Content-Length or the last chunk already said it was complete (RFC 9112 §9.8).
        #expect((try? client.send(Self.get(server.url("/framed"))).get())?.body == Array("hello".utf8))
        #expect((try? client.send(Self.get(server.url("/chunked"))).get())?.body == Array("hello".utf8))
    }

    @Test("Over plain HTTP the connection's end is the body's end")
    func plainUntilClose() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/cut", .cutWithoutCloseNotify(Array(Self.openEnded.utf8)))
        var client = Self.socket()
        #expect((try? client.send(Self.get(server.url("/cut"))).get())?.body == Array("{\"latitude\":52.5".utf8))
    }

    // MARK: Chunks (RFC 9112 §7.1)

    static func chunkedHead(_ rest: String) -> LoopbackHTTPServer.Reply {
        .raw(Array(("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + rest).utf8))
    }

    @Test("A chunk size with junk after it is refused; extensions after ';', with BWS, are read")
    func chunkSizeJunk() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/junk", Self.chunkedHead("5 junk\r\nhello\r\n0\r\n\r\n"))
        server.route("/digits", Self.chunkedHead("5 5\r\nhello\r\n0\r\n\r\n"))
        server.route("/extension", Self.chunkedHead("5 ; name=\"a b\"\t;x\r\nhello\r\n0;last\r\n\r\n"))
        var client = Self.socket()
        let junk = client.send(Self.get(server.url("/junk")))
        #expect(junk.failureKind == .other, "\(junk.failureDetail)")
        let digits = client.send(Self.get(server.url("/digits")))
        #expect(digits.failureKind == .other, "\(digits.failureDetail)")
        #expect((try? client.send(Self.get(server.url("/extension"))).get())?.body == Array("hello".utf8))
    }

    @Test("A chunk-size line over the limit is refused even when it arrives whole")
    func chunkSizeLineTooLong() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/long", Self.chunkedHead("5;" + String(repeating: "a", count: 5000) + "\r\nhello\r\n0\r\n\r\n"))
        var client = Self.socket()
        let long = client.send(Self.get(server.url("/long")))
        #expect(long.failureKind == .other, "\(long.failureDetail)")
    }

    // MARK: gzip (RFC 1952 §2.2)

    static let gzipHead = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n"

    @Test("Bytes without end after a gzip member are bounded: refused long before the deadline")
    func gzipTrailingBytesBounded() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let junk = [UInt8](repeating: 0x20, count: 256 * 1024)
        server.route("/junk", .stall(first: Array(Self.gzipHead.utf8) + GzipStored.encode(Array("ok".utf8)) + junk))
        server.route("/newline", .raw(Array(Self.gzipHead.utf8) + GzipStored.encode(Array("ok".utf8)) + [0x0D, 0x0A]))
        var client = Self.socket()
        let started = ContinuousClock.now
        let result = client.send(Self.get(server.url("/junk"), timeout: .seconds(3)))
        #expect(result.failureKind == .other, "\(result.failureDetail)")
        #expect(ContinuousClock.now - started < .seconds(1))
        // A little (a line end some servers add) is ignored, as gzip(1) does.
        #expect((try? client.send(Self.get(server.url("/newline"))).get())?.body == Array("ok".utf8))
    }

    @Test("Empty gzip members without end are bounded by the body limit")
    func gzipEmptyMembersBounded() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let empty = GzipStored.encode([])
        var members: [UInt8] = []
        for _ in 0..<(1 << 16) { members += empty }  // ~1.4 MB that inflate to nothing
        server.route("/members", .stall(first: Array(Self.gzipHead.utf8) + members))
        var client = Self.socket()
        let started = ContinuousClock.now
        let result = client.send(Self.get(server.url("/members"), timeout: .seconds(3), maximumBodySize: 64 * 1024))
        #expect(result.failureKind == .tooLarge, "\(result.failureDetail)")
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    // MARK: Certificates

    @Test("A certificate for w*.example.com does not match www.example.com (no partial wildcards, RFC 6125 §7.2)")
    func partialWildcard() throws {
        let server = try LoopbackHTTPServer(tls: TestCertificates.partialWildcard)
        defer { server.stop() }
        server.route("/", .response(status: 200, text: "ok"))
        var client = Self.socket(["www.example.com": ["127.0.0.1"]], trust: .bundle(path: TestCertificates.path("partial-wildcard.pem")))
        let result = client.send(Self.get("https://www.example.com:\(server.port)/"))
        #expect(result.failureKind == .tls, "\(result.failureDetail)")
        #expect(result.failureDetail.contains("hostname mismatch"), "\(result.failureDetail)")
        #expect(server.requests.isEmpty)
    }

    @Test("A server that offers only TLS 1.1 is refused for its version (RFC 8996)", arguments: TransportKind.allCases)
    func tls11Refused(kind: TransportKind) throws {
        let server = try LoopbackHTTPServer(tls: TestCertificates.localhostTLS11)
        defer { server.stop() }
        server.route("/", .response(status: 200, text: "ok"))
        var client = kind.make(trust: .bundle(TestCertificates.path("localhost.pem")))
        let result = client.send(Self.get(server.url("/")))
        #expect(result.failureKind == .tls, "\(result.failureDetail)")
        // The client's own floor, not the luck of a security level: the server answers the
        // ClientHello of a TLS ≥ 1.2 client with a protocol_version alert.
        #expect(result.failureDetail.contains("protocol version"), "\(result.failureDetail)")
        #expect(server.requests.isEmpty)
    }
}

/// A listening socket whose accept queue is full, so that the kernel drops every further SYN
/// (Linux tcp_conn_request: "sk_acceptq_is_full … drop"): a connect to it neither completes nor
/// fails, the way a black-holed route behaves. On loopback, deterministic and without root.
struct BlackHole {
    let listener: Int32
    let port: UInt16
    private var fillers: [Int32] = []

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// Listens on `address`:`port` (0: an ephemeral one) with a backlog of 0 and fills it.
    init(address: String, port: UInt16) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.listener = listener
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = port.bigEndian
        guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else { throw Failed(description: "bad address \(address)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 0) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listening else {
            let reason = String(cString: strerror(errno))
            _ = Glibc.close(listener)
            throw Failed(description: "cannot listen on \(address):\(port): \(reason)")
        }
        self.port = UInt16(bigEndian: socketAddress.sin_port)
        // Connect until one connection stays pending: the queue is full from then on.
        for _ in 0..<8 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            fillers.append(fd)
            _ = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if poll(&entry, 1, 200) == 0 { return }
        }
        close()
        throw Failed(description: "the accept queue of \(address):\(port) never filled")
    }

    func close() {
        for fd in fillers { _ = Glibc.close(fd) }
        _ = Glibc.close(listener)
    }
}

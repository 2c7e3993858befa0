import HTTPTesting
import Testing
import Weather
@testable import WeatherHTTP

/// What only `SocketTransport` has: its libraries, its URL and message parsing (RFC 9112) and
/// the parts of the wire libcurl treats its own way. The shared contract is in TransportTests.
// The limit catches a hang, not slowness: the store's crash enumerations can hold both of a
// 2-core machine's test threads for minutes, and a 1-minute limit then failed tests that never ran.
@Suite(.timeLimit(.minutes(10)))
struct SocketTransportTests {
    static func get(_ url: String, timeout: Duration = .seconds(10), maximumBodySize: Int = 1 << 20) -> HTTPRequest {
        HTTPRequest(url: url, timeout: timeout, maximumBodySize: maximumBodySize)
    }

    // MARK: Libraries

    @Test("Without libz every request fails with .unavailable, and nothing crashes")
    func zlibMissing() {
        var client = SocketTransport(configuration: .init(zlibLibraryName: "libz-does-not-exist.so"))
        let result = client.send(Self.get("http://127.0.0.1:9/"))
        #expect(result.failureKind == .unavailable)
        #expect(result.failureDetail == "127.0.0.1:9: libz-does-not-exist.so not found: apt install zlib1g")
        #expect(client.send(Self.get("http://127.0.0.1:9/")).failureKind == .unavailable, "and again")
        #expect(client.libraryVersion.failureKind == .unavailable)
    }

    @Test("Without libssl HTTPS fails with .unavailable; plain HTTP still works")
    func sslMissing() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/", .response(status: 200, text: "plain"))
        var client = SocketTransport(configuration: .init(sslLibraryName: "libssl-does-not-exist.so"))
        let https = client.send(Self.get("https://127.0.0.1:\(server.port)/"))
        #expect(https.failureKind == .unavailable)
        #expect(https.failureDetail == "127.0.0.1:\(server.port): libssl-does-not-exist.so not found: apt install libssl3t64 (Debian 13) or libssl3 (Debian 12)")
        #expect(try client.send(Self.get(server.url("/"))).get().body == Array("plain".utf8))
    }

    @Test("A library that is not libssl is refused with .unavailable")
    func notLibssl() {
        var client = SocketTransport(configuration: .init(sslLibraryName: "libz.so.1"))
        let result = client.send(Self.get("https://127.0.0.1:9/"))
        #expect(result.failureKind == .unavailable)
        #expect(result.failureDetail.contains("lacks SSL_CTX_new"), "\(result.failureDetail)")
    }

    @Test("The default libraries are OpenSSL 3 and zlib 1.x")
    func libraryVersion() throws {
        let version = try SocketTransport().libraryVersion.get()
        #expect(version.hasPrefix("OpenSSL 3."), "\(version)")
        #expect(version.contains(", zlib 1."), "\(version)")
    }

    // MARK: URLs

    @Test(
        "URLs it cannot request fail with .other before connecting",
        arguments: [
            ("ftp://127.0.0.1/x", "unsupported URL scheme"),
            ("http://127.0.0.1:9/a b", "percent-encode"),
            ("http://user:secret@127.0.0.1:9/", "user information"),
            ("http://127.0.0.1:99999/", "bad port"),
            ("http://[::1/", "closing"),
            ("http:///path", "no host"),
            ("127.0.0.1/path", "not an absolute URL"),
        ])
    func badURLs(url: String, fragment: String) {
        var client = SocketTransport()
        let result = client.send(Self.get(url))
        #expect(result.failureKind == .other, "\(url)")
        #expect(result.failureDetail.contains(fragment), "\(url): \(result.failureDetail)")
    }

    @Test("A URL's parts: scheme, host, port, target, Host header")
    func targets() throws {
        let plain = try HTTPTarget.parse("HTTP://API.Open-Meteo.com/v1/forecast?latitude=52.52#top")
        #expect(plain.secure == false && plain.host == "api.open-meteo.com" && plain.port == 80)
        #expect(plain.pathAndQuery == "/v1/forecast?latitude=52.52")
        #expect(plain.hostHeader == "api.open-meteo.com")
        let secure = try HTTPTarget.parse("https://api.met.no:443?x=1")
        #expect(secure.port == 443 && secure.pathAndQuery == "/?x=1" && secure.hostHeader == "api.met.no")
        let v6 = try HTTPTarget.parse("https://[::1]:8443")
        #expect(v6.host == "::1" && v6.isIPv6Literal && v6.port == 8443 && v6.pathAndQuery == "/")
        #expect(v6.hostHeader == "[::1]:8443")
        #expect(try HTTPTarget.parse("http://h:/").port == 80, "an empty port is the default (RFC 3986 §3.2.3)")
    }

    @Test("The request head: Host first, the request's headers verbatim, then ours unless given")
    func requestHead() throws {
        let target = try HTTPTarget.parse("http://127.0.0.1:8080/v1?a=1")
        let ours = String(decoding: target.requestHead([HTTPHeader("User-Agent", "t/1"), HTTPHeader("X-Empty", "")]), as: UTF8.self)
        #expect(ours == "GET /v1?a=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: t/1\r\nX-Empty:\r\nAccept-Encoding: gzip\r\nConnection: keep-alive\r\n\r\n")
        let theirs = String(decoding: target.requestHead([HTTPHeader("accept-encoding", "identity"), HTTPHeader("Connection", "close")]), as: UTF8.self)
        #expect(theirs == "GET /v1?a=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\naccept-encoding: identity\r\nConnection: close\r\n\r\n")
    }

    // MARK: Messages (RFC 9112)

    @Test("A head with LF line ends, obs-fold and a line that is no field")
    func heads() throws {
        let raw = Array("HTTP/1.0 203 Non-Authoritative\nX-A:  one \n  two\nno colon here\nbad name: x\nX-B:\n\n".utf8)
        let head = try raw.withUnsafeBytes { (bytes) throws(TransportError) in try ResponseReader.parseHead(bytes) }
        #expect(head.minorVersion == 0 && head.status == 203)
        #expect(head.headers == [HTTPHeader("X-A", "one two"), HTTPHeader("X-B", "")])
        let notHTTP = Array("SSH-2.0-OpenSSH_9.2\r\n\r\n".utf8)
        #expect(throws: TransportError.self) { try notHTTP.withUnsafeBytes { (bytes) throws(TransportError) in try ResponseReader.parseHead(bytes) } }
    }

    @Test("Chunk sizes: hex, extensions, too long, not hex, junk after the digits")
    func chunkSizes() throws {
        let size = { (text: String) throws -> Int in
            try Array(text.utf8).withUnsafeBytes { (bytes) throws(TransportError) in try ResponseReader.chunkSize(bytes) }
        }
        #expect(try size("1a") == 26)
        #expect(try size("FF ; name=value") == 255)
        #expect(try size("5;a=\"b c\";d") == 5)
        #expect(try size("0") == 0)
        #expect(try size("7 ") == 7)
        #expect(throws: TransportError.self) { try size("1000000000000000") }
        #expect(throws: TransportError.self) { try size("zz") }
        #expect(throws: TransportError.self) { try size(";x") }
        #expect(throws: TransportError.self) { try size("5 junk") }
        #expect(throws: TransportError.self) { try size("5 5") }
        #expect(throws: TransportError.self) { try size("5;a\u{0}") }
    }

    @Test("A response head over 64 KiB: .other")
    func headTooLarge() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let filler = String(repeating: "X-Filler: " + String(repeating: "a", count: 1000) + "\r\n", count: 70)
        server.route("/huge", .raw(Array("HTTP/1.1 200 OK\r\n\(filler)Content-Length: 0\r\n\r\n".utf8)))
        var client = SocketTransport()
        let result = client.send(Self.get(server.url("/huge")))
        #expect(result.failureKind == .other)
        #expect(result.failureDetail.contains("larger than 64 KiB"), "\(result.failureDetail)")
    }

    @Test("Two gzip members are one body (RFC 1952 §2.2); a coding it cannot decode is .other")
    func codings() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let first = Array("{\"a\":".utf8)
        let second = Array("1}".utf8)
        server.route("/members", .response(status: 200, headers: [.init("Content-Encoding", "gzip")], body: GzipStored.encode(first) + GzipStored.encode(second)))
        server.route("/brotli", .response(status: 200, headers: [.init("Content-Encoding", "br")], body: [1, 2, 3]))
        var client = SocketTransport()
        #expect(try client.send(Self.get(server.url("/members"))).get().body == first + second)
        let brotli = client.send(Self.get(server.url("/brotli")))
        #expect(brotli.failureKind == .other)
        #expect(brotli.failureDetail.contains("cannot be decoded"), "\(brotli.failureDetail)")
    }

    @Test("Content-Length and Transfer-Encoding the framing cannot trust: .other")
    func badFraming() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/two-lengths", .raw(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc".utf8)))
        server.route("/gzip-te", .raw(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n".utf8)))
        var client = SocketTransport()
        #expect(client.send(Self.get(server.url("/two-lengths"))).failureKind == .other)
        #expect(client.send(Self.get(server.url("/gzip-te"))).failureKind == .other)
    }
}

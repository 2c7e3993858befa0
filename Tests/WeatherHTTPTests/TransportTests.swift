import HTTPTesting
import Testing
import Weather
import WeatherHTTP

/// Both transports (`TransportKind`: libcurl and SocketTransport) against a real HTTP/1.1 server
/// on 127.0.0.1 that each test starts itself (HTTPTesting.LoopbackHTTPServer): statuses and
/// bodies pass through unchanged, the failures map to their `TransportError.Kind`, request
/// headers arrive verbatim, gzip is decoded, the connection is reused. The bodies here are the
/// project's own; the corpus ones are in TransportCorpusTests, HTTPS in TLSTransportTests.
///
/// Fixtures/own-forecast.json.gz is own-forecast.json compressed once with
/// `python3 -c "import gzip; …gzip.compress(data, compresslevel=9, mtime=0)"` and checked in:
/// the tests need no python.
// The limit catches a hang, not slowness: the store's crash enumerations can hold both of a
// 2-core machine's test threads for minutes, and a 1-minute limit then failed tests that never ran.
@Suite(.timeLimit(.minutes(10)))
struct TransportTests {
    static let json = [LoopbackHTTPServer.Header("Content-Type", "application/json")]

    /// A started server and a transport; the server stops when the test's reference ends.
    static func setUp(_ kind: TransportKind) throws -> (LoopbackHTTPServer, AnyTransport) {
        (try LoopbackHTTPServer(), kind.make())
    }

    static func get(_ url: String, timeout: Duration = .seconds(10), maximumBodySize: Int = 1 << 20, headers: [HTTPHeader] = [])
        -> HTTPRequest
    {
        HTTPRequest(url: url, headers: headers, timeout: timeout, maximumBodySize: maximumBodySize)
    }

    // MARK: Bodies and statuses pass through

    @Test("200 with the project's own forecast: body byte for byte, headers visible", arguments: TransportKind.allCases)
    func ownForecast(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        let body = try Fixtures.bytes("own-forecast.json")
        server.route("/v1/forecast", .response(status: 200, headers: Self.json, body: body))
        var client = transport
        let response = try client.send(Self.get(server.url("/v1/forecast?latitude=64.14&longitude=-21.94"))).get()
        #expect(response.status == 200)
        #expect(response.body == body)
        #expect(response.header("content-type") == "application/json")
        #expect(response.header("Content-Length") == String(body.count))
    }

    static let ownBodies: [(String, [UInt8])] = [
        ("invalid JSON", Array(#"{"latitude":52.52,"current":{"temperature_2m":"#.utf8)),
        ("wrong types", Array(#"{"latitude":"north","utc_offset_seconds":"3600","current":{"temperature_2m":[1]}}"#.utf8)),
        ("not UTF-8, with NUL bytes", [0x00, 0xFF, 0xFE, 0x7B, 0x00, 0xC3, 0x28, 0x0D, 0x0A, 0x00]),
        ("300 KB", (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }),
    ]

    @Test("200 bodies of any content come back unchanged (the transport does not judge them)", arguments: TransportKind.allCases, 0..<ownBodies.count)
    func bodiesUnchanged(kind: TransportKind, index: Int) throws {
        let (name, body) = Self.ownBodies[index]
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/body", .response(status: 200, headers: Self.json, body: body))
        var client = transport
        let response = try client.send(Self.get(server.url("/body"))).get()
        #expect(response.status == 200, "\(name)")
        #expect(response.body == body, "\(name): \(response.body.count) bytes back of \(body.count)")
    }

    @Test("200 with an empty body succeeds with an empty body", arguments: TransportKind.allCases)
    func emptyBody(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/empty", .response(status: 200, headers: Self.json, body: []))
        var client = transport
        let response = try client.send(Self.get(server.url("/empty"))).get()
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.header("Content-Length") == "0")
    }

    @Test(
        "400, 429 and 503 come back as responses, status and body unchanged",
        arguments: TransportKind.allCases, [
            (400, #"{"error":true,"reason":"Parameter 'latitude' must be between -90 and 90"}"#),
            (429, #"{"error":true,"reason":"Minutely API request limit exceeded. Please try again in one minute."}"#),
            (503, #"{"error":true,"reason":"The service is overloaded"}"#),
        ])
    func errorStatuses(kind: TransportKind, answer: (status: Int, text: String)) throws {
        let (status, text) = answer
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/v1/forecast", .response(status: status, headers: Self.json, text: text))
        var client = transport
        let response = try client.send(Self.get(server.url("/v1/forecast"))).get()
        #expect(response.status == status)
        #expect(response.body == Array(text.utf8))
    }

    @Test("Retry-After, Expires and Last-Modified of the final response are visible", arguments: TransportKind.allCases)
    func cachingHeaders(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route(
            "/limited",
            .response(status: 429, headers: [.init("Retry-After", "60"), .init("Content-Type", "application/json")], text: "{}"))
        server.route(
            "/compact",
            .response(
                status: 200,
                headers: [
                    .init("Expires", "Thu, 15 Jan 2026 07:48:31 GMT"), .init("Last-Modified", "Thu, 15 Jan 2026 07:16:40 GMT"),
                    .init("X-Other", "1"),
                ],
                text: "{}"))
        var client = transport
        let limited = try client.send(Self.get(server.url("/limited"))).get()
        #expect(limited.status == 429)
        #expect(limited.header("retry-after") == "60")
        let compact = try client.send(Self.get(server.url("/compact"))).get()
        #expect(compact.header("Expires") == "Thu, 15 Jan 2026 07:48:31 GMT")
        #expect(compact.header("last-modified") == "Thu, 15 Jan 2026 07:16:40 GMT")
        #expect(compact.headers.map(\.name).prefix(3) == ["Expires", "Last-Modified", "X-Other"], "in order, names as sent")
    }

    @Test("304 with no body succeeds with its headers and an empty body", arguments: TransportKind.allCases)
    func notModified(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/compact", .response(status: 304, headers: [.init("Last-Modified", "Thu, 15 Jan 2026 07:16:40 GMT")]))
        var client = transport
        let response = try client.send(Self.get(server.url("/compact"))).get()
        #expect(response.status == 304)
        #expect(response.body.isEmpty)
        #expect(response.header("Last-Modified") == "Thu, 15 Jan 2026 07:16:40 GMT")
    }

    @Test("A redirect is returned, not followed", arguments: TransportKind.allCases)
    func redirectNotFollowed(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/old", .response(status: 302, headers: [.init("Location", "/new")], text: "moved"))
        server.route("/new", .response(status: 200, text: "new"))
        var client = transport
        let response = try client.send(Self.get(server.url("/old"))).get()
        #expect(response.status == 302)
        #expect(response.header("Location") == "/new")
        #expect(server.requests.map(\.path) == ["/old"])
    }

    @Test("Only the final response's headers remain after an interim 1xx", arguments: TransportKind.allCases)
    func interimResponse(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        let raw = "HTTP/1.1 100 Continue\r\nX-Interim: yes\r\n\r\nHTTP/1.1 200 OK\r\nX-Final: yes\r\nContent-Length: 2\r\n\r\nok"
        server.route("/interim", .raw(Array(raw.utf8)))
        var client = transport
        let response = try client.send(Self.get(server.url("/interim"))).get()
        #expect(response.status == 200)
        #expect(response.body == Array("ok".utf8))
        #expect(response.header("X-Final") == "yes")
        #expect(response.header("X-Interim") == nil)
    }

    @Test("A chunked body is reassembled", arguments: TransportKind.allCases)
    func chunked(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        let body = try Fixtures.bytes("own-forecast.json")
        let chunks = [Array(body[..<100]), Array(body[100..<101]), Array(body[101...])]
        server.route("/chunked", .chunked(status: 200, headers: Self.json, chunks: chunks))
        var client = transport
        let response = try client.send(Self.get(server.url("/chunked"))).get()
        #expect(response.body == body)
    }

    // MARK: Content coding

    @Test("A gzip body (Content-Encoding: gzip) comes back decoded; the transport offered gzip", arguments: TransportKind.allCases)
    func gzipDecoded(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        let plain = try Fixtures.bytes("own-forecast.json")
        let compressed = try Fixtures.bytes("own-forecast.json.gz")
        server.route("/compact") { request in
            guard request.header("Accept-Encoding")?.contains("gzip") == true else {
                return .response(status: 200, headers: Self.json, body: plain)
            }
            return .response(status: 200, headers: Self.json + [.init("Content-Encoding", "gzip")], body: compressed)
        }
        var client = transport
        let response = try client.send(Self.get(server.url("/compact"))).get()
        #expect(server.requests.first?.header("Accept-Encoding")?.contains("gzip") == true)
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(response.body == plain)
    }

    @Test("The body limit counts decoded bytes: a small gzip that inflates past it is .tooLarge", arguments: TransportKind.allCases)
    func gzipPastLimit(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        let compressed = try Fixtures.bytes("own-forecast.json.gz")
        server.route("/compact", .response(status: 200, headers: [.init("Content-Encoding", "gzip")], body: compressed))
        var client = transport
        let result = client.send(Self.get(server.url("/compact"), maximumBodySize: compressed.count + 100))
        #expect(result.failureKind == .tooLarge, "\(result.failureDetail)")
    }

    // MARK: Failures and their kinds

    static let stalls: [(String, LoopbackHTTPServer.Reply)] = [
        ("after the head", .stallAfterHead),
        ("before any byte", .stall(first: [])),
        ("mid-body", .stall(first: Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"lat".utf8))),
    ]

    @Test("A server that stalls past the client's timeout: .timeout", arguments: TransportKind.allCases, 0..<stalls.count)
    func slowAnswerTimesOut(kind: TransportKind, index: Int) throws {
        let (name, reply) = Self.stalls[index]
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/slow", reply)
        var client = transport
        let result = client.send(Self.get(server.url("/slow"), timeout: .milliseconds(300)))
        #expect(result.failureKind == .timeout, "\(name): \(result.failureDetail)")
        let detail = result.failureDetail
        #expect(detail.contains("127.0.0.1:\(server.port)"), "the host is named: \(detail)")
        #expect(detail.contains("imed out"), "the reason is given: \(detail)")
        #expect(!detail.contains("\n"))
    }

    @Test("Fewer bytes than Content-Length, then close: .truncated", arguments: TransportKind.allCases)
    func truncatedBody(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/cut", .truncated(status: 200, headers: Self.json, body: Array(#"{"latitude":52.5"#.utf8), declaredLength: 2786))
        var client = transport
        let result = client.send(Self.get(server.url("/cut")))
        #expect(result.failureKind == .truncated, "\(result.failureDetail)")
    }

    @Test("A connection closed without any answer fails (.other), it is not a response", arguments: TransportKind.allCases)
    func closedWithoutAnswer(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/gone", .closeWithoutResponse)
        var client = transport
        let result = client.send(Self.get(server.url("/gone")))
        #expect(result.failureKind == .other, "\(result.failureDetail)")
    }

    @Test("A body past maximumBodySize: .tooLarge; a body of exactly the limit passes", arguments: TransportKind.allCases)
    func bodyLimit(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        let body = [UInt8](repeating: 0x41, count: 5000)
        server.route("/big", .response(status: 200, body: body))
        var client = transport
        let refused = client.send(Self.get(server.url("/big"), maximumBodySize: 4999))
        #expect(refused.failureKind == .tooLarge, "\(refused.failureDetail)")
        #expect(refused.failureDetail.contains("larger than 4999 bytes"))
        let exact = try client.send(Self.get(server.url("/big"), maximumBodySize: 5000)).get()
        #expect(exact.body == body)
    }

    @Test("A port nobody listens on: .connectionRefused", arguments: TransportKind.allCases)
    func refused(kind: TransportKind) throws {
        let port = try LoopbackHTTPServer.unusedPort()
        var client = kind.make()
        let result = client.send(Self.get("http://127.0.0.1:\(port)/v1/forecast"))
        #expect(result.failureKind == .connectionRefused, "\(result.failureDetail)")
        #expect(result.failureDetail.hasPrefix("127.0.0.1:\(port): "))
    }

    @Test("A name that does not resolve: .hostNotFound", arguments: TransportKind.allCases)
    func unresolvable(kind: TransportKind) {
        var client = kind.make()
        let result = client.send(Self.get("http://nonexistent.invalid/v1/forecast", timeout: .seconds(15)))
        #expect(result.failureKind == .hostNotFound, "\(result.failureDetail)")
        #expect(result.failureDetail.hasPrefix("nonexistent.invalid: "))
    }

    @Test("TLS spoken to a plain HTTP server, or a CA file that is missing: .tls", arguments: TransportKind.allCases)
    func tlsFailures(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/", .response(status: 200, text: "plain"))
        var client = transport
        let https = client.send(Self.get("https://127.0.0.1:\(server.port)/"))
        #expect(https.failureKind == .tls, "\(https.failureDetail)")
        var missingCA = kind.make(trust: .bundle("/nonexistent/thunderstorm-ca.pem"))
        let badFile = missingCA.send(Self.get("https://127.0.0.1:\(server.port)/"))
        #expect(badFile.failureKind == .tls, "\(badFile.failureDetail)")
    }

    @Test("Plain HTTP spoken to an HTTPS server: no response (.other)", arguments: TransportKind.allCases)
    func plainToTLS(kind: TransportKind) throws {
        let server = try LoopbackHTTPServer(tls: TestCertificates.localhost)
        defer { server.stop() }
        server.route("/", .response(status: 200, text: "secret"))
        var client = kind.make()
        let result = client.send(Self.get("http://127.0.0.1:\(server.port)/"))
        #expect(result.failureKind == .other, "\(result.failureDetail)")
    }

    // MARK: The request as sent

    @Test("Request line, query and headers arrive verbatim and in order", arguments: TransportKind.allCases)
    func requestVerbatim(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/weatherapi/locationforecast/2.0/compact", .response(status: 200, text: "{}"))
        let query = "lat=59.9139&lon=10.7522&current=temperature_2m%2Cweather_code,is_day&timezone=auto"
        let headers = [
            HTTPHeader("User-Agent", "thunderstorm/0.1 github.com/example/thunderstorm weather@example.org"),
            HTTPHeader("If-Modified-Since", "Thu, 15 Jan 2026 07:16:40 GMT"),
            HTTPHeader("X-Empty", ""),
            HTTPHeader("Accept", "application/json"),
        ]
        var client = transport
        _ = try client.send(Self.get(server.url("/weatherapi/locationforecast/2.0/compact?" + query), headers: headers)).get()
        let request = try #require(server.requests.first)
        #expect(request.requestLine == "GET /weatherapi/locationforecast/2.0/compact?\(query) HTTP/1.1")
        #expect(request.query == query)
        #expect(request.header("User-Agent") == headers[0].value)
        #expect(request.header("If-Modified-Since") == headers[1].value)
        #expect(request.headers(named: "X-Empty") == [""])
        #expect(request.headers(named: "Accept") == ["application/json"], "ours replaces libcurl's */*; SocketTransport sends none")
        #expect(request.header("Host") == "127.0.0.1:\(server.port)")
        let ours = request.headers.map(\.name).filter { ["User-Agent", "If-Modified-Since", "X-Empty", "Accept"].contains($0) }
        #expect(ours == ["User-Agent", "If-Modified-Since", "X-Empty", "Accept"])
    }

    @Test("A header with a line break is refused before anything is sent", arguments: TransportKind.allCases)
    func headerInjection(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        var client = transport
        let result = client.send(Self.get(server.url("/"), headers: [HTTPHeader("User-Agent", "a\r\nX-Injected: 1")]))
        #expect(result.failureKind == .other)
        #expect(server.requests.isEmpty)
    }

    // MARK: Connection reuse

    @Test("Consecutive requests on one transport, and on its copies, reuse one connection", arguments: TransportKind.allCases)
    func connectionReuse(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/a", .response(status: 200, text: "a"))
        server.route("/b", .response(status: 304))
        var client = transport
        #expect(try client.send(Self.get(server.url("/a"))).get().body == Array("a".utf8))
        #expect(try client.send(Self.get(server.url("/b"))).get().status == 304)
        var copy = client
        #expect(try copy.send(Self.get(server.url("/a"))).get().status == 200)
        #expect(server.requests.map(\.path) == ["/a", "/b", "/a"])
        #expect(server.connectionsAccepted == 1)
        #expect(server.requests.allSatisfy { $0.connection == 1 })
        #expect(client.connectionsOpened == 1)
    }

    @Test("After a failed transfer the next request on the same transport works", arguments: TransportKind.allCases)
    func recoversAfterFailure(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/slow", .stallAfterHead)
        server.route("/ok", .response(status: 200, text: "ok"))
        var client = transport
        #expect(client.send(Self.get(server.url("/slow"), timeout: .milliseconds(200))).failureKind == .timeout)
        #expect(client.send(Self.get(server.url("/ok"), maximumBodySize: 1)).failureKind == .tooLarge)
        #expect(try client.send(Self.get(server.url("/ok"))).get().body == Array("ok".utf8))
    }

    @Test("Copies used from several threads at once take turns", arguments: TransportKind.allCases)
    func concurrentCopies(kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/n", .response(status: 200, text: "n"))
        let transport = kind.make()
        let url = server.url("/n")
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var copy = transport
                    return (try? copy.send(Self.get(url)).get().status) ?? -1
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == [200, 200, 200, 200])
    }
}

extension TransportTests {
    @Test("A stored-block gzip stream of 70,000 bytes (two deflate blocks) is decoded too", arguments: TransportKind.allCases)
    func gzipStoredDecoded(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        let plain = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        server.route("/stored", .response(status: 200, headers: [.init("Content-Encoding", "gzip")], body: GzipStored.encode(plain)))
        var client = transport
        #expect(try client.send(Self.get(server.url("/stored"))).get().body == plain)
    }
}

extension TransportTests {
    @Test("A request's own Accept-Encoding replaces the transport's, and gzip is still decoded", arguments: TransportKind.allCases)
    func ownAcceptEncoding(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        let plain = try Fixtures.bytes("own-forecast.json")
        let compressed = try Fixtures.bytes("own-forecast.json.gz")
        server.route("/compact", .response(status: 200, headers: [.init("Content-Encoding", "gzip")], body: compressed))
        var client = transport
        let response = try client.send(Self.get(server.url("/compact"), headers: [HTTPHeader("Accept-Encoding", "gzip")])).get()
        #expect(server.requests.first?.headers(named: "Accept-Encoding") == ["gzip"])
        #expect(response.body == plain)
    }
}

// MARK: - Framing and persistence (RFC 9112 §6, §7, §9)

extension TransportTests {
    static func raw(_ text: String) -> LoopbackHTTPServer.Reply { .raw(Array(text.utf8)) }

    @Test("Chunked with extensions and trailers; read-to-close; 204 without a body", arguments: TransportKind.allCases)
    func framings(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/chunked", Self.raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nX-Trailer: t\r\n\r\n"))
        server.route("/close", Self.raw("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end"))
        server.route("/none", .response(status: 204, headers: [.init("X-Why", "nothing")]))
        var client = transport
        #expect(try client.send(Self.get(server.url("/chunked"))).get().body == Array("Wikipedia".utf8))
        #expect(try client.send(Self.get(server.url("/close"))).get().body == Array("until the end".utf8))
        let none = try client.send(Self.get(server.url("/none"))).get()
        #expect(none.status == 204 && none.body.isEmpty && none.header("X-Why") == "nothing")
    }

    @Test("The connection's end before the last chunk: .truncated; a corrupt gzip body: .other", arguments: TransportKind.allCases)
    func brokenBodies(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/cut", Self.raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5\r\npe"))
        let corrupt = GzipStored.encode(Array("{\"a\":1}".utf8)).enumerated().map { $0.offset == 12 ? $0.element ^ 0xFF : $0.element }
        server.route("/corrupt", .response(status: 200, headers: [.init("Content-Encoding", "gzip")], body: corrupt))
        var client = transport
        let cut = client.send(Self.get(server.url("/cut")))
        #expect(cut.failureKind == .truncated, "\(cut.failureDetail)")
        let bad = client.send(Self.get(server.url("/corrupt")))
        #expect(bad.failureKind == .other, "\(bad.failureDetail)")
    }

    @Test("Connection: close, HTTP/1.0 and a server that closes after answering: a new connection each time", arguments: TransportKind.allCases)
    func notPersistent(kind: TransportKind) throws {
        let (server, transport) = try Self.setUp(kind)
        defer { server.stop() }
        server.route("/close", .response(status: 200, headers: [.init("Connection", "close")], text: "1"))
        server.route("/old", Self.raw("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\n2"))
        // Announces keep-alive by saying nothing, then closes: the idle connection is dead.
        server.route("/gone", Self.raw("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n3"))
        var client = transport
        for path in ["/close", "/old", "/gone", "/gone"] {
            #expect(try client.send(Self.get(server.url(path))).get().status == 200, "\(path)")
        }
        #expect(server.connectionsAccepted == 4)
        #expect(client.connectionsOpened == 4)
    }
}

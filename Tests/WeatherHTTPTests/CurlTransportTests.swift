import HTTPTesting
import Testing
import Weather
import WeatherHTTP

/// `CurlTransport` against a real HTTP/1.1 server on 127.0.0.1 that each test starts itself
/// (HTTPTesting.LoopbackHTTPServer): statuses and bodies pass through unchanged, the failures
/// map to their `TransportError.Kind`, request headers arrive verbatim, gzip is decoded, the
/// connection is reused. The bodies here are the project's own; the corpus ones are in
/// CurlTransportCorpusTests.
///
/// Fixtures/own-forecast.json.gz is own-forecast.json compressed once with
/// `python3 -c "import gzip; …gzip.compress(data, compresslevel=9, mtime=0)"` and checked in:
/// the tests need no python.
@Suite(.timeLimit(.minutes(1)))
struct CurlTransportTests {
    static let json = [LoopbackHTTPServer.Header("Content-Type", "application/json")]

    /// A started server and a transport; the server stops when the test's reference ends.
    static func setUp() throws -> (LoopbackHTTPServer, CurlTransport) {
        (try LoopbackHTTPServer(), CurlTransport())
    }

    static func get(_ url: String, timeout: Duration = .seconds(10), maximumBodySize: Int = 1 << 20, headers: [HTTPHeader] = [])
        -> HTTPRequest
    {
        HTTPRequest(url: url, headers: headers, timeout: timeout, maximumBodySize: maximumBodySize)
    }

    // MARK: Bodies and statuses pass through

    @Test("200 with the project's own forecast: body byte for byte, headers visible")
    func ownForecast() throws {
        let (server, transport) = try Self.setUp()
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

    @Test("200 bodies of any content come back unchanged (the transport does not judge them)", arguments: 0..<ownBodies.count)
    func bodiesUnchanged(index: Int) throws {
        let (name, body) = Self.ownBodies[index]
        let (server, transport) = try Self.setUp()
        defer { server.stop() }
        server.route("/body", .response(status: 200, headers: Self.json, body: body))
        var client = transport
        let response = try client.send(Self.get(server.url("/body"))).get()
        #expect(response.status == 200, "\(name)")
        #expect(response.body == body, "\(name): \(response.body.count) bytes back of \(body.count)")
    }

    @Test("200 with an empty body succeeds with an empty body")
    func emptyBody() throws {
        let (server, transport) = try Self.setUp()
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
        arguments: [
            (400, #"{"error":true,"reason":"Parameter 'latitude' must be between -90 and 90"}"#),
            (429, #"{"error":true,"reason":"Minutely API request limit exceeded. Please try again in one minute."}"#),
            (503, #"{"error":true,"reason":"The service is overloaded"}"#),
        ])
    func errorStatuses(status: Int, text: String) throws {
        let (server, transport) = try Self.setUp()
        defer { server.stop() }
        server.route("/v1/forecast", .response(status: status, headers: Self.json, text: text))
        var client = transport
        let response = try client.send(Self.get(server.url("/v1/forecast"))).get()
        #expect(response.status == status)
        #expect(response.body == Array(text.utf8))
    }

    @Test("Retry-After, Expires and Last-Modified of the final response are visible")
    func cachingHeaders() throws {
        let (server, transport) = try Self.setUp()
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

    @Test("304 with no body succeeds with its headers and an empty body")
    func notModified() throws {
        let (server, transport) = try Self.setUp()
        defer { server.stop() }
        server.route("/compact", .response(status: 304, headers: [.init("Last-Modified", "Thu, 15 Jan 2026 07:16:40 GMT")]))
        var client = transport
        let response = try client.send(Self.get(server.url("/compact"))).get()
        #expect(response.status == 304)
        #expect(response.body.isEmpty)
        #expect(response.header("Last-Modified") == "Thu, 15 Jan 2026 07:16:40 GMT")
    }

    @Test("A redirect is returned, not followed")
    func redirectNotFollowed() throws {
        let (server, transport) = try Self.setUp()
        defer { server.stop() }
        server.route("/old", .response(status: 302, headers: [.init("Location", "/new")], text: "moved"))
        server.route("/new", .response(status: 200, text: "new"))
        var client = transport
        let response = try client.send(Self.get(server.url("/old"))).get()
        #expect(response.status == 302)
        #expect(response.header("Location") == "/new")
        #expect(server.requests.map(\.path) == ["/old"])
    }

    @Test("Only the final response's headers remain after an interim 1xx")
    func interimResponse() throws {
        let (server, transport) = try Self.setUp()
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

    @Test("A chunked body is reassembled")
    func chunked() throws {
        let (server, transport) = try Self.setUp()
        defer { server.stop() }
        let body = try Fixtures.bytes("own-forecast.json")
        let chunks = [Array(body[..<100]), Array(body[100..<101]), Array(body[101...])]
        server.route("/chunked", .chunked(status: 200, headers: Self.json, chunks: chunks))
        var client = transport
        let response = try client.send(Self.get(server.url("/chunked"))).get()
        #expect(response.body == body)
    }

    // MARK: Content coding

    @Test("A gzip body (Content-Encoding: gzip) comes back decoded; libcurl offered gzip")
    func gzipDecoded() throws {
        let (server, transport) = try Self.setUp()
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

    @Test("The body limit counts decoded bytes: a small gzip that inflates past it is .tooLarge")
    func gzipPastLimit() throws {
        let (server, transport) = try Self.setUp()
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

    @Test("A server that stalls past the client's timeout: .timeout", arguments: 0..<stalls.count)
    func slowAnswerTimesOut(index: Int) throws {
        let (name, reply) = Self.stalls[index]
        let (server, transport) = try Self.setUp()
        defer { server.stop() }
        server.route("/slow", reply)
        var client = transport
        let result = client.send(Self.get(server.url("/slow"), timeout: .milliseconds(300)))
        #expect(result.failureKind == .timeout, "\(name): \(result.failureDetail)")
        let detail = result.failureDetail
        #expect(detail.contains("127.0.0.1:\(server.port)"), "the host is named: \(detail)")
        #expect(detail.contains("imed out"), "curl's error buffer is quoted: \(detail)")
        #expect(!detail.contains("\n"))
    }

    @Test("Fewer bytes than Content-Length, then close: .truncated")
    func truncatedBody() throws {
        let (server, transport) = try Self.setUp()
        defer { server.stop() }
        server.route("/cut", .truncated(status: 200, headers: Self.json, body: Array(#"{"latitude":52.5"#.utf8), declaredLength: 2786))
        var client = transport
        let result = client.send(Self.get(server.url("/cut")))
        #expect(result.failureKind == .truncated, "\(result.failureDetail)")
    }

    @Test("A connection closed without any answer fails (.other), it is not a response")
    func closedWithoutAnswer() throws {
        let (server, transport) = try Self.setUp()
        defer { server.stop() }
        server.route("/gone", .closeWithoutResponse)
        var client = transport
        let result = client.send(Self.get(server.url("/gone")))
        #expect(result.failureKind == .other, "\(result.failureDetail)")
    }

    @Test("A body past maximumBodySize: .tooLarge; a body of exactly the limit passes")
    func bodyLimit() throws {
        let (server, transport) = try Self.setUp()
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

    @Test("A port nobody listens on: .connectionRefused")
    func refused() throws {
        let port = try LoopbackHTTPServer.unusedPort()
        var client = CurlTransport()
        let result = client.send(Self.get("http://127.0.0.1:\(port)/v1/forecast"))
        #expect(result.failureKind == .connectionRefused, "\(result.failureDetail)")
        #expect(result.failureDetail.hasPrefix("127.0.0.1:\(port): "))
    }

    @Test("A name that does not resolve: .hostNotFound")
    func unresolvable() {
        var client = CurlTransport()
        let result = client.send(Self.get("http://nonexistent.invalid/v1/forecast", timeout: .seconds(15)))
        #expect(result.failureKind == .hostNotFound, "\(result.failureDetail)")
        #expect(result.failureDetail.hasPrefix("nonexistent.invalid: "))
    }

    @Test("TLS spoken to a plain HTTP server, or a CA file that is missing: .tls")
    func tlsFailures() throws {
        let (server, transport) = try Self.setUp()
        defer { server.stop() }
        server.route("/", .response(status: 200, text: "plain"))
        var client = transport
        let https = client.send(Self.get("https://127.0.0.1:\(server.port)/"))
        #expect(https.failureKind == .tls, "\(https.failureDetail)")
        var missingCA = CurlTransport(configuration: .init(trust: .bundle(path: "/nonexistent/thunderstorm-ca.pem")))
        let badFile = missingCA.send(Self.get("https://127.0.0.1:\(server.port)/"))
        #expect(badFile.failureKind == .tls, "\(badFile.failureDetail)")
    }

    @Test("Without libcurl every request fails with .unavailable, and nothing crashes")
    func libraryMissing() {
        var client = CurlTransport(libraryName: "libcurl-does-not-exist.so")
        let result = client.send(Self.get("http://127.0.0.1:9/"))
        #expect(result.failureKind == .unavailable)
        #expect(result.failureDetail == "libcurl-does-not-exist.so not found: apt install libcurl4")
        #expect(client.send(Self.get("http://127.0.0.1:9/")).failureKind == .unavailable, "and again")
        guard case .failure(let error) = client.libraryVersion else {
            Issue.record("a version without a library")
            return
        }
        #expect(error.kind == .unavailable)
    }

    @Test("A library that is not libcurl is refused with .unavailable")
    func notLibcurl() {
        var client = CurlTransport(libraryName: "libz.so.1")
        let result = client.send(Self.get("http://127.0.0.1:9/"))
        #expect(result.failureKind == .unavailable)
        #expect(result.failureDetail.contains("lacks curl_"), "\(result.failureDetail)")
    }

    @Test("The default library is libcurl 7.x or later, with a TLS backend")
    func libraryVersion() throws {
        let version = try CurlTransport().libraryVersion.get()
        #expect(version.hasPrefix("libcurl/"), "\(version)")
        #expect(version.contains("SSL") || version.contains("TLS"), "\(version)")
    }

    // MARK: The request as sent

    @Test("Request line, query and headers arrive verbatim and in order")
    func requestVerbatim() throws {
        let (server, transport) = try Self.setUp()
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
        #expect(request.headers(named: "Accept") == ["application/json"], "ours replaces libcurl's */*")
        #expect(request.header("Host") == "127.0.0.1:\(server.port)")
        let ours = request.headers.map(\.name).filter { ["User-Agent", "If-Modified-Since", "X-Empty", "Accept"].contains($0) }
        #expect(ours == ["User-Agent", "If-Modified-Since", "X-Empty", "Accept"])
    }

    @Test("A header with a line break is refused before anything is sent")
    func headerInjection() throws {
        let (server, transport) = try Self.setUp()
        defer { server.stop() }
        var client = transport
        let result = client.send(Self.get(server.url("/"), headers: [HTTPHeader("User-Agent", "a\r\nX-Injected: 1")]))
        #expect(result.failureKind == .other)
        #expect(server.requests.isEmpty)
    }

    // MARK: Connection reuse

    @Test("Consecutive requests on one transport, and on its copies, reuse one connection")
    func connectionReuse() throws {
        let (server, transport) = try Self.setUp()
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

    @Test("After a failed transfer the next request on the same transport works")
    func recoversAfterFailure() throws {
        let (server, transport) = try Self.setUp()
        defer { server.stop() }
        server.route("/slow", .stallAfterHead)
        server.route("/ok", .response(status: 200, text: "ok"))
        var client = transport
        #expect(client.send(Self.get(server.url("/slow"), timeout: .milliseconds(200))).failureKind == .timeout)
        #expect(client.send(Self.get(server.url("/ok"), maximumBodySize: 1)).failureKind == .tooLarge)
        #expect(try client.send(Self.get(server.url("/ok"))).get().body == Array("ok".utf8))
    }

    @Test("Copies used from several threads at once take turns")
    func concurrentCopies() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/n", .response(status: 200, text: "n"))
        let transport = CurlTransport()
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

extension CurlTransportTests {
    @Test("A stored-block gzip stream of 70,000 bytes (two deflate blocks) is decoded too")
    func gzipStoredDecoded() throws {
        let (server, transport) = try Self.setUp()
        defer { server.stop() }
        let plain = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        server.route("/stored", .response(status: 200, headers: [.init("Content-Encoding", "gzip")], body: GzipStored.encode(plain)))
        var client = transport
        #expect(try client.send(Self.get(server.url("/stored"))).get().body == plain)
    }
}

extension CurlTransportTests {
    @Test("A request's own Accept-Encoding replaces libcurl's, and gzip is still decoded")
    func ownAcceptEncoding() throws {
        let (server, transport) = try Self.setUp()
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

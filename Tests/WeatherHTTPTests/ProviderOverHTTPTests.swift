import CorpusTesting
import HAL
import HTTPTesting
import Testing
import Weather
import WeatherHTTP

/// The issue's proof end to end: the providers' requests go through each transport
/// (`TransportKind`: libcurl and SocketTransport) to a real HTTP server on 127.0.0.1 that the
/// test starts, and every answer comes back as the kind the repository acts on — a report, a
/// configuration problem, a wait, a backoff.
@Suite("Providers over real HTTP")
struct ProviderOverHTTPTests {
    struct Clock: DeviceClock {
        func now() -> Instant { .zero }
        func wallTime() -> WallTime { WallTime(seconds: 1_768_461_485) }  // 2026-01-15T07:18:05Z
    }

    static let identity = ClientIdentity(contact: "ci@example.org")
    static let order = FetchOrder(position: try! Coordinate(latitude: 52.5163, longitude: 13.4069))

    /// One Open-Meteo fetch whose answer is `reply`, with a short timeout.
    static func openMeteo(_ kind: TransportKind, _ reply: LoopbackHTTPServer.Reply, timeout: Duration = .seconds(5)) throws
        -> (WeatherFetch.Result, [LoopbackHTTPServer.Request])
    {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/v1/forecast", reply)
        let service = OpenMeteoService(baseURL: server.baseURL, identity: identity, timeout: timeout)
        var transport = kind.make()
        let result = WeatherFetch.perform(order, service: service, transport: &transport, clock: Clock())
        return (result, server.requests)
    }

    static func error(_ result: WeatherFetch.Result) -> WeatherError? {
        if case .failure(let error) = result.outcome { return error }
        return nil
    }

    @Test("Corpus: 200 with the Berlin fixture decodes; the request is the documented one", .enabled(if: WeatherCorpus.isPresent, "needs ../shared/corpus/weather beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here Open-Meteo and MET Norway answers built from their documented schemas"), arguments: TransportKind.allCases)
    func corpusOK(kind: TransportKind) throws {
        let body = try WeatherCorpus.bytes("open-meteo-current-hourly-daily.json")
        let (result, requests) = try Self.openMeteo(kind, .response(status: 200, headers: [.init("Content-Type", "application/json")], body: body))
        guard case .success(.report(let report, _)) = result.outcome else {
            Issue.record("\(result.outcome)")
            return
        }
        #expect(report.current?.temperature == -3.3 && report.hours.count == 48 && report.timeZone == "Europe/Berlin")
        #expect(result.response?.body == body)
        let request = try #require(requests.first)
        #expect(request.query?.hasPrefix("latitude=52.52&longitude=13.41&current=") == true)
        #expect(request.query?.contains("timezone=auto") == true)
        #expect(request.header("User-Agent") == "thunderstorm/\(ClientIdentity.currentVersion) (ci@example.org)")
    }

    @Test("Corpus: 400 and 429 bodies of the docs come back as their kinds", .enabled(if: WeatherCorpus.isPresent, "needs ../shared/corpus/weather beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here Open-Meteo and MET Norway answers built from their documented schemas"), arguments: TransportKind.allCases)
    func corpusRefusals(kind: TransportKind) throws {
        let (bad, _) = try Self.openMeteo(kind, .response(status: 400, body: try WeatherCorpus.bytes("open-meteo-error.json")))
        #expect(Self.error(bad)?.isConfigurationProblem == true)
        let (limited, _) = try Self.openMeteo(kind, .response(status: 429, body: try WeatherCorpus.bytes("open-meteo-error-429-minutely.json")))
        guard case .rateLimited(_, .duration(let wait))? = Self.error(limited) else {
            Issue.record("\(limited.outcome)")
            return
        }
        #expect(wait == .seconds(60))
    }

    @Test("Corpus: MET Norway's gzip 200 and its 304, with If-Modified-Since on the wire", .enabled(if: WeatherCorpus.isPresent, "needs ../shared/corpus/weather beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here Open-Meteo and MET Norway answers built from their documented schemas"), arguments: TransportKind.allCases)
    func corpusMET(kind: TransportKind) throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let body = try WeatherCorpus.bytes("met-norway-compact.json")
        server.route("/weatherapi/locationforecast/2.0/compact") { request in
            if request.header("If-Modified-Since") != nil {
                return (try? WeatherCorpus.recordedReply("met-norway-304.headers.txt")) ?? .closeWithoutResponse
            }
            return (try? WeatherCorpus.recordedReply("met-norway-compact.headers.txt", body: GzipStored.encode(body))) ?? .closeWithoutResponse
        }
        let service = METNorwayService(baseURL: server.baseURL, identity: Self.identity, zone: .utc)
        var transport = kind.make()
        var order = FetchOrder(position: try Coordinate(latitude: 59.9139, longitude: 10.7522))
        let first = WeatherFetch.perform(order, service: service, transport: &transport, clock: Clock())
        guard case .success(.report(let report, let validators)) = first.outcome else {
            Issue.record("\(first.outcome)")
            return
        }
        #expect(report.current?.temperature == -6.4)
        #expect(validators.lastModified == "Thu, 15 Jan 2026 07:16:40 GMT")
        order.validators = validators
        let second = WeatherFetch.perform(order, service: service, transport: &transport, clock: Clock())
        guard case .success(.notModified(let renewed)) = second.outcome else {
            Issue.record("\(second.outcome)")
            return
        }
        #expect(renewed == CacheValidators(lastModified: "Thu, 15 Jan 2026 07:16:40 GMT", freshFor: .seconds(1800)))
        #expect(server.requests.map { $0.header("If-Modified-Since") } == [nil, "Thu, 15 Jan 2026 07:16:40 GMT"])
        #expect(server.requests.allSatisfy { $0.query == "lat=59.9139&lon=10.7522" })
    }

    @Test("503 backs off; a slow answer past the timeout, a truncated body and a refused port are transport failures", arguments: TransportKind.allCases)
    func failures(kind: TransportKind) throws {
        let (overloaded, _) = try Self.openMeteo(kind, .response(status: 503, text: #"{"error":true,"reason":"The service is overloaded"}"#))
        #expect(Self.error(overloaded) == .serverError(status: 503, reason: "The service is overloaded"))
        let (slow, _) = try Self.openMeteo(kind, .stallAfterHead, timeout: .milliseconds(300))
        #expect(Self.error(slow).map { if case .transport(let e) = $0 { e.kind == .timeout } else { false } } == true)
        let (cut, _) = try Self.openMeteo(kind, .truncated(status: 200, body: Array(#"{"latitude":52.52,"lon"#.utf8), declaredLength: 2786))
        #expect(Self.error(cut).map { if case .transport(let e) = $0 { e.kind == .truncated } else { false } } == true)
        #expect(Self.error(cut)?.shortText == "cut off")
        let port = try LoopbackHTTPServer.unusedPort()
        let service = OpenMeteoService(baseURL: "http://127.0.0.1:\(port)", identity: Self.identity, timeout: .seconds(5))
        var transport = kind.make()
        let refused = WeatherFetch.perform(Self.order, service: service, transport: &transport, clock: Clock())
        #expect(Self.error(refused)?.shortText == "refused")
    }

    @Test("nonsense bodies with status 200 are malformed: invalid JSON, wrong types, empty", arguments: TransportKind.allCases, [
        ("{\"latitude\": 52.52,,}", "not JSON"),
        (#"{"latitude":52.52,"longitude":13.41,"utc_offset_seconds":"3600"}"#, "utc_offset_seconds: expected a number"),
        ("", "the body is empty"),
        ("<html><body>Captive portal</body></html>", "not JSON"),
    ])
    func nonsense(kind: TransportKind, answer: (body: String, fragment: String)) throws {
        let (body, fragment) = answer
        let (result, _) = try Self.openMeteo(kind, .response(status: 200, text: body))
        guard case .malformed(let what)? = Self.error(result) else {
            Issue.record("\(result.outcome)")
            return
        }
        #expect(what.contains(fragment), "\(what)")
    }
}

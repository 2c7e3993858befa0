import CorpusTesting
import HTTPTesting
import Testing
import Weather
import WeatherHTTP

/// Both transports (`TransportKind`) serving the weather corpus (`../shared/corpus/weather`)
/// from the loopback server: every body comes back byte for byte, the recorded MET Norway heads (200 and 304) keep
/// their caching headers, Open-Meteo's error bodies keep their statuses. Skipped, not passed,
/// when the corpus is absent.
// The limit catches a hang, not slowness: the store's crash enumerations can hold both of a
// 2-core machine's test threads for minutes, and a 1-minute limit then failed tests that never ran.
@Suite(.enabled(if: WeatherCorpus.isPresent, "needs ../shared/corpus/weather beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here Open-Meteo and MET Norway answers built from their documented schemas"), .timeLimit(.minutes(10)))
struct TransportCorpusTests {
    @Test("Corpus: every JSON fixture comes back byte for byte over HTTP", arguments: TransportKind.allCases, try WeatherCorpus.jsonFiles())
    func corpusBodies(kind: TransportKind, name: String) throws {
        let body = try WeatherCorpus.bytes(name)
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/\(name)", .response(status: 200, headers: [.init("Content-Type", "application/json")], body: body))
        var transport = kind.make()
        let response = try transport.send(HTTPRequest(url: server.url("/\(name)"), timeout: .seconds(10))).get()
        #expect(response.status == 200)
        #expect(response.body == body, "\(name): \(response.body.count) of \(body.count) bytes, or different ones")
    }

    @Test("Corpus: MET Norway's recorded 200 head (gzip) with its body: decoded, Expires and Last-Modified visible", arguments: TransportKind.allCases)
    func corpusMETNorway200(kind: TransportKind) throws {
        let body = try WeatherCorpus.bytes("met-norway-compact.json")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        // The recorded head says Content-Encoding: gzip, so the body goes out as gzip.
        let reply = try WeatherCorpus.recordedReply("met-norway-compact.headers.txt", body: GzipStored.encode(body))
        server.route("/weatherapi/locationforecast/2.0/compact", reply)
        var transport = kind.make()
        let request = HTTPRequest(
            url: server.url("/weatherapi/locationforecast/2.0/compact?lat=59.9139&lon=10.7522"),
            headers: [HTTPHeader("User-Agent", "thunderstorm-tests/1 weather@example.org")], timeout: .seconds(10))
        let response = try transport.send(request).get()
        #expect(response.status == 200)
        #expect(response.body == body)
        #expect(response.header("Expires") == "Thu, 15 Jan 2026 07:48:31 GMT")
        #expect(response.header("Last-Modified") == "Thu, 15 Jan 2026 07:16:40 GMT")
        #expect(response.header("Date") == "Thu, 15 Jan 2026 07:18:05 GMT")
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(server.requests.first?.header("User-Agent") == "thunderstorm-tests/1 weather@example.org")
    }

    @Test("Corpus: a conditional GET answered with MET Norway's recorded 304: its headers, an empty body", arguments: TransportKind.allCases)
    func corpusMETNorway304(kind: TransportKind) throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let notModified = try WeatherCorpus.recordedReply("met-norway-304.headers.txt")
        let body = try WeatherCorpus.bytes("met-norway-compact.json")
        let lastModified = "Thu, 15 Jan 2026 07:16:40 GMT"
        server.route("/weatherapi/locationforecast/2.0/compact") { request in
            request.header("If-Modified-Since") == lastModified ? notModified : .response(status: 200, body: body)
        }
        var transport = kind.make()
        let request = HTTPRequest(
            url: server.url("/weatherapi/locationforecast/2.0/compact?lat=59.9139&lon=10.7522"),
            headers: [HTTPHeader("If-Modified-Since", lastModified)], timeout: .seconds(10))
        let response = try transport.send(request).get()
        #expect(response.status == 304)
        #expect(response.body.isEmpty)
        #expect(response.header("Last-Modified") == lastModified)
        #expect(response.header("Expires") == "Thu, 15 Jan 2026 08:19:02 GMT")
        #expect(response.header("Date") == "Thu, 15 Jan 2026 07:49:02 GMT")
    }

    @Test(
        "Corpus: Open-Meteo's 400 and 429 bodies come back with their statuses",
        arguments: TransportKind.allCases, [(400, "open-meteo-error.json"), (429, "open-meteo-error-429-minutely.json")])
    func corpusErrorBodies(kind: TransportKind, answer: (status: Int, name: String)) throws {
        let (status, name) = answer
        let body = try WeatherCorpus.bytes(name)
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/v1/forecast", .response(status: status, headers: [.init("Content-Type", "application/json")], body: body))
        var transport = kind.make()
        let response = try transport.send(HTTPRequest(url: server.url("/v1/forecast?latitude=91"), timeout: .seconds(10))).get()
        #expect(response.status == status)
        #expect(response.body == body)
    }
}

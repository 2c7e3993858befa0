import CorpusTesting
import Foundation
import HAL
import Testing
@testable import Weather

/// MET Norway Locationforecast 2.0 compact → the same model, and its caching
/// rules: User-Agent, at most 4 decimals, Expires, If-Modified-Since and 304.
@Suite("MET Norway decoding")
struct METNorwayDecodingTests {
    static let oslo = ZoneRules.parse(posix: "CET-1CEST,M3.5.0,M10.5.0/3")!
    static let service = METNorwayService(identity: ClientIdentity(contact: "ops@example.org"), zone: oslo)
    static let order = FetchOrder(position: try! Coordinate(latitude: 59.913_86, longitude: 10.752_245))
    static let received = WallTime.utc("2026-01-15T07:18:05Z")

    static func decode(_ response: HTTPResponse, order: FetchOrder = order) -> Result<FetchOutcome, WeatherError> {
        service.decode(response, for: order, receivedAt: received)
    }

    /// The report and validators of a decoded response; anything else (a failure, a 304) throws.
    static func report(_ response: HTTPResponse, order: FetchOrder = order) throws -> (WeatherReport, CacheValidators) {
        let outcome = try decode(response, order: order).get()
        guard case .report(let report, let validators) = outcome else { throw UnexpectedSuccess(description: "\(outcome)") }
        return (report, validators)
    }

    @Test("Corpus: Oslo, now, the hourly steps, local days and the cache validators", .enabled(if: WeatherCorpus.isPresent, "needs ../shared/corpus/weather beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here Open-Meteo and MET Norway answers built from their documented schemas"))
    func corpusOslo() throws {
        let (status, headers) = try WeatherCorpus.headers("met-norway-compact.headers.txt")
        let response = HTTPResponse(status: status, headers: headers, body: try WeatherCorpus.bytes("met-norway-compact.json"))
        let (report, validators) = try Self.report(response)
        #expect(report.provider == .metNorway)
        #expect(report.latitude == 59.9139 && report.longitude == 10.7522 && report.elevation == 23)
        #expect(report.utcOffsetSeconds == 0 && report.timeZone == nil)
        let now = try #require(report.current)
        #expect(now.time == .utc("2026-01-15T07:00:00Z"))
        #expect(now.temperature == -6.4 && now.humidity == 87.2 && now.pressure == 1018.9 && now.windSpeed == 1.9)
        #expect(now.windDirection == 32.5 && now.cloudCover == 96.1)
        #expect(now.condition == Condition(group: .cloudy, isNight: false, code: "cloudy"))
        // Hourly points are the steps with a next_1_hours period.
        #expect(report.hours.map(\.time) == ["07", "08", "09", "10"].map { .utc("2026-01-15T\($0):00:00Z") })
        #expect(report.hours[1].precipitation == 0.1 && report.hours[1].condition?.group == .snow)
        #expect(report.hours.allSatisfy { $0.precipitationChance == nil })
        // Local (CET) days: the 15th, then the 24th (01:00 and 07:00 local), then 13:00 on the 24th.
        #expect(report.days.map(\.date) == [CivilDate(year: 2026, month: 1, day: 15), CivilDate(year: 2026, month: 1, day: 24)])
        #expect(report.days[0].low == -6.4 && report.days[0].high == -5.2)
        // 0.0 + 0.1 + 0.2 hourly, then the 10:00Z step is followed by a longer one, so its
        // 6-hour period (1.1) tiles the rest of the day.
        #expect(abs(report.days[0].precipitation! - 1.4) < 1e-9)
        // The 6-hour period centred nearest local noon: 08:00Z = 09:00 CET, 09–15 local.
        #expect(report.days[0].condition == Condition(group: .snow, isNight: false, code: "lightsnow"))
        #expect(report.days[1].low == -11.0 && report.days[1].high == -6.3)
        #expect(report.days[1].condition == Condition(group: .partlyCloudy, isNight: false, code: "fair"))
        // MET sends no sunrise: computed for Oslo (about 09:04 and 15:49 CET on the 15th).
        guard case .times(let rise, let set) = report.days[0].sun else {
            Issue.record("no sun times for Oslo")
            return
        }
        #expect(abs((rise - .utc("2026-01-15T08:04:00Z")).components.seconds) < 120)
        #expect(abs((set - .utc("2026-01-15T14:49:00Z")).components.seconds) < 120)
        // Last-Modified verbatim; Expires − Date = 07:48:31 − 07:18:05.
        #expect(validators == CacheValidators(lastModified: "Thu, 15 Jan 2026 07:16:40 GMT", freshFor: .seconds(1826)))
    }

    @Test("Corpus: 304 keeps the forecast and renews the validators", .enabled(if: WeatherCorpus.isPresent, "needs ../shared/corpus/weather beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here Open-Meteo and MET Norway answers built from their documented schemas"))
    func corpusNotModified() throws {
        let (status, headers) = try WeatherCorpus.headers("met-norway-304.headers.txt")
        var order = Self.order
        order.validators = CacheValidators(lastModified: "Thu, 15 Jan 2026 07:16:40 GMT")
        let outcome = try Self.decode(HTTPResponse(status: status, headers: headers), order: order).get()
        #expect(outcome == .notModified(CacheValidators(lastModified: "Thu, 15 Jan 2026 07:16:40 GMT", freshFor: .seconds(1800))))
    }

    @Test("the request: 4 decimals at most, User-Agent with a contact, If-Modified-Since verbatim")
    func request() {
        let plain = Self.service.request(for: Self.order)
        #expect(plain.url == "https://api.met.no/weatherapi/locationforecast/2.0/compact?lat=59.9139&lon=10.7522")
        #expect(plain.header("User-Agent") == "thunderstorm/\(ClientIdentity.currentVersion) (ops@example.org)")
        #expect(plain.header("If-Modified-Since") == nil)
        var order = Self.order
        order.validators.lastModified = "Thu, 15 Jan 2026 07:16:40 GMT"
        #expect(Self.service.request(for: order).header("if-modified-since") == "Thu, 15 Jan 2026 07:16:40 GMT")
    }

    @Test("statuses: 403 and 400 are configuration problems, 429 waits, 5xx backs off, 203 is data")
    func statuses() throws {
        #expect(try Self.decode(HTTPResponse(status: 403, body: Array("Forbidden: no User-Agent\n".utf8))).failureValue()
            == .forbidden(reason: "Forbidden: no User-Agent"))
        #expect(try Self.decode(HTTPResponse(status: 400, body: Array("<html><body>Bad</body></html>".utf8))).failureValue()
            == .badRequest(status: 400, reason: "no reason given"))
        #expect(try Self.decode(HTTPResponse(status: 429, headers: [HTTPHeader("Retry-After", "30")])).failureValue()
            == .rateLimited(reason: "throttled", wait: .duration(.seconds(30))))
        #expect(try Self.decode(HTTPResponse(status: 502)).failureValue() == .serverError(status: 502, reason: ""))
        let (deprecated, _) = try Self.report(HTTPResponse(status: 203, body: Array(Self.minimal.utf8)))
        #expect(deprecated.current?.temperature == 0)
    }

    static let minimal = #"""
        {"type":"Feature","geometry":{"type":"Point","coordinates":[10.75,59.91]},
         "properties":{"meta":{"updated_at":"2026-01-15T07:16:40Z","units":{"air_temperature":"celsius"}},
          "timeseries":[{"time":"2026-01-15T07:00:00Z","data":{"instant":{"details":{"air_temperature":-0.0}},
            "next_1_hours":{"summary":{"symbol_code":"clearsky_night"},"details":{}}}}]}}
        """#

    @Test("missing optional blocks, empty details, -0.0 and unknown symbols are handled")
    func edges() throws {
        let (report, validators) = try Self.report(HTTPResponse(status: 200, body: Array(Self.minimal.utf8)))
        #expect(validators == .none)
        let now = try #require(report.current)
        #expect(now.temperature == 0 && now.temperature?.sign == .plus && now.humidity == nil && now.windSpeed == nil)
        #expect(now.condition == Condition(group: .clear, isNight: true, code: "clearsky"))
        #expect(report.hours.count == 1 && report.hours[0].precipitation == nil)
        let unknown = Self.minimal.replacingOccurrences(of: "clearsky_night", with: "volcanicash_day")
        let (odd, _) = try Self.report(HTTPResponse(status: 200, body: Array(unknown.utf8)))
        #expect(odd.current?.condition == nil)
    }

    @Test("nonsense is malformed with where", arguments: [
        ("", "the body is empty"),
        (#"{"type":"Feature"}"#, "geometry.coordinates is missing"),
        (#"{"geometry":{"coordinates":[10.7,59.9]}}"#, "properties.timeseries is missing"),
        (#"{"geometry":{"coordinates":["10.7",59.9]},"properties":{"timeseries":[]}}"#, "geometry.coordinates[0]: expected a number"),
        (#"{"geometry":{"coordinates":[10.7,59.9]},"properties":{"timeseries":[{"time":"2026-01-15T07:00:00","data":{}}]}}"#,
         "not a UTC time"),
        (#"{"geometry":{"coordinates":[10.7,59.9]},"properties":{"timeseries":[{"time":"2026-01-15T07:00:00Z"}]}}"#,
         "properties.timeseries[0].data is missing"),
        (#"{"geometry":{"coordinates":[10.7,59.9]},"properties":{"timeseries":[{"time":"2026-01-15T07:00:00Z","data":{"instant":{"details":{"air_temperature":true}}}}]}}"#,
         "air_temperature: expected a number, found true"),
        (#"{"geometry":{"coordinates":[10.7,59.9]},"properties":{"meta":{"units":{"air_temperature":"fahrenheit"}},"timeseries":[]}}"#,
         "unexpected unit \"fahrenheit\""),
    ])
    func malformed(body: String, fragment: String) throws {
        let error = try Self.decode(HTTPResponse(status: 200, body: Array(body.utf8))).failureValue()
        guard case .malformed(let what) = error else {
            Issue.record("expected malformed, got \(error)")
            return
        }
        #expect(what.contains(fragment), "\(what)")
    }

    @Test("Expires is capped at 6 hours and never negative; no Date header uses the receipt time")
    func expiresBounds() {
        let far = HTTPResponse(status: 304, headers: [HTTPHeader("Date", "Thu, 15 Jan 2026 07:18:05 GMT"), HTTPHeader("Expires", "Thu, 15 Jan 2037 07:18:05 GMT")])
        #expect(METNorwayService.validators(far, receivedAt: Self.received).freshFor == .seconds(6 * 3600))
        let past = HTTPResponse(status: 304, headers: [HTTPHeader("Expires", "Thu, 15 Jan 2026 06:00:00 GMT")])
        #expect(METNorwayService.validators(past, receivedAt: Self.received).freshFor == .zero)
        let noDate = HTTPResponse(status: 304, headers: [HTTPHeader("Expires", "Thu, 15 Jan 2026 07:48:05 GMT")])
        #expect(METNorwayService.validators(noDate, receivedAt: Self.received).freshFor == .seconds(1800))
    }
}

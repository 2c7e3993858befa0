import CorpusTesting
import HAL
import Testing
@testable import Weather

/// Open-Meteo answers → one model (open-meteo.com/en/docs): the corpus fixtures, then the edges the docs
/// name (null, -0.0, missing blocks, unknown codes, units, wrong types).
@Suite("Open-Meteo decoding")
struct OpenMeteoDecodingTests {
    static let service = OpenMeteoService(identity: ClientIdentity(contact: "test@example.org"))
    static let order = FetchOrder(position: try! Coordinate(latitude: 52.52, longitude: 13.41))
    static let received = WallTime.utc("2026-01-15T07:20:00Z")

    static func decode(_ body: [UInt8], status: Int = 200, headers: [HTTPHeader] = []) -> Result<FetchOutcome, WeatherError> {
        service.decode(HTTPResponse(status: status, headers: headers, body: body), for: order, receivedAt: received)
    }

    static func report(_ body: [UInt8]) throws -> WeatherReport {
        guard case .report(let report, _) = try decode(body).get() else { throw WeatherError.malformed("no report") }
        return report
    }

    @Test("Corpus: Berlin, current + 48 hours + 2 days, local times become UTC with the offset",
          .enabled(if: WeatherCorpus.isPresent, "needs ../shared/corpus/weather beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here Open-Meteo and MET Norway answers built from their documented schemas"))
    func corpusBerlin() throws {
        let report = try Self.report(try WeatherCorpus.bytes("open-meteo-current-hourly-daily.json"))
        #expect(report.provider == .openMeteo)
        #expect(report.timeZone == "Europe/Berlin")
        #expect(report.utcOffsetSeconds == 3600)
        #expect(report.latitude == 52.52 && report.elevation == 38)
        let now = try #require(report.current)
        #expect(now.time == .utc("2026-01-15T07:15:00Z"))  // 08:15 local, CET
        #expect(now.temperature == -3.3)
        #expect(now.apparentTemperature == -7.9)
        #expect(now.humidity == 88)
        #expect(now.precipitation == 0)
        #expect(now.pressure == 1021.4)
        #expect(abs(now.windSpeed! - 11.2 / 3.6) < 1e-9)
        #expect(abs(now.windGusts! - 24.5 / 3.6) < 1e-9)
        #expect(now.windDirection == 94)
        #expect(now.condition == Condition(group: .cloudy, isNight: false, code: "3"))
        #expect(report.hours.count == 48)
        #expect(report.hours[0].time == .utc("2026-01-14T23:00:00Z"))
        #expect(report.hours[9].condition?.group == .snow)  // 09:00 local, code 71
        #expect(report.hours[12].precipitationChance == 78)
        #expect(report.days.count == 2)
        let today = report.days[0]
        #expect(today.date == CivilDate(year: 2026, month: 1, day: 15))
        #expect(today.condition?.group == .snow)  // 73
        #expect(today.low == -3.4 && today.high == 0.9)
        #expect(today.precipitationChance == 78)
        #expect(today.sun == .times(sunrise: .utc("2026-01-15T07:09:00Z"), sunset: .utc("2026-01-15T15:24:00Z")))
    }

    @Test("Corpus: Denver in °F, mp/h and inch, a null probability, a negative offset",
          .enabled(if: WeatherCorpus.isPresent, "needs ../shared/corpus/weather beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here Open-Meteo and MET Norway answers built from their documented schemas"))
    func corpusImperial() throws {
        let report = try Self.report(try WeatherCorpus.bytes("open-meteo-imperial-forecast-hours.json"))
        #expect(report.utcOffsetSeconds == -21600)
        let now = try #require(report.current)
        #expect(now.time == .utc("2026-07-04T20:30:00Z"))
        #expect(abs(now.temperature! - (88.7 - 32) * 5 / 9) < 1e-9)
        #expect(abs(now.windSpeed! - 12.4 * 0.44704) < 1e-9)
        #expect(now.condition?.group == .thunderstorm)
        #expect(report.hours.count == 6)
        #expect(report.hours[2].precipitationChance == nil)  // the null
        #expect(abs(report.hours[2].precipitation! - 0.087 * 25.4) < 1e-9)
        #expect(report.hours[0].time == .utc("2026-07-04T20:00:00Z"))
        #expect(report.days.count == 1)
        #expect(report.days[0].sun == .times(sunrise: .utc("2026-07-04T11:35:00Z"), sunset: .utc("2026-07-05T02:31:00Z")))
    }

    @Test("Corpus: a 400 is a configuration problem with the service's reason", .enabled(if: WeatherCorpus.isPresent, "needs ../shared/corpus/weather beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here Open-Meteo and MET Norway answers built from their documented schemas"))
    func corpusBadRequest() throws {
        let result = Self.decode(try WeatherCorpus.bytes("open-meteo-error.json"), status: 400)
        guard case .failure(.badRequest(400, let reason)) = result else {
            Issue.record("expected badRequest, got \(result)")
            return
        }
        #expect(reason.hasPrefix("Cannot initialize WeatherVariable"))
        #expect(try result.failureValue().isConfigurationProblem)
    }

    @Test("Corpus: a 429 waits as its reason says", .enabled(if: WeatherCorpus.isPresent, "needs ../shared/corpus/weather beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here Open-Meteo and MET Norway answers built from their documented schemas"))
    func corpusRateLimited() throws {
        let result = Self.decode(try WeatherCorpus.bytes("open-meteo-error-429-minutely.json"), status: 429)
        #expect(try result.failureValue() == .rateLimited(
            reason: "Minutely API request limit exceeded. Please try again in one minute.", wait: .duration(.seconds(60))))
    }

    @Test("429 reasons and Retry-After", arguments: [
        ("Hourly API request limit exceeded. Please try again in the next hour.", nil, RateLimitWait.nextHour),
        ("Daily API request limit exceeded. Please try again tomorrow.", nil, .hourlyRetries),
        ("something new", nil, .duration(.seconds(60))),
        ("Minutely API request limit exceeded.", "120", .duration(.seconds(120))),
        // The HTTP-date form of Retry-After (RFC 9110 §10.2.3), 150 s after the receipt.
        ("Minutely API request limit exceeded.", "Thu, 15 Jan 2026 07:22:30 GMT", .duration(.seconds(150))),
        ("Minutely API request limit exceeded.", "Thu, 15 Jan 2026 07:00:00 GMT", .duration(.seconds(1))),
    ] as [(String, String?, RateLimitWait)])
    func rateLimitReasons(reason: String, retryAfter: String?, wait: RateLimitWait) throws {
        let body = Array(#"{"error":true,"reason":"\#(reason)"}"#.utf8)
        let headers = retryAfter.map { [HTTPHeader("Retry-After", $0)] } ?? []
        #expect(try Self.decode(body, status: 429, headers: headers).failureValue() == .rateLimited(reason: reason, wait: wait))
    }

    @Test("statuses by kind: 503 and 500 back off, 404 is configuration, 302 is unexpected")
    func statuses() throws {
        #expect(try Self.decode(Array(#"{"error":true,"reason":"The service is overloaded"}"#.utf8), status: 503).failureValue()
            == .serverError(status: 503, reason: "The service is overloaded"))
        #expect(try Self.decode(Array("<html>".utf8), status: 500).failureValue() == .serverError(status: 500, reason: ""))
        #expect(try Self.decode([], status: 404).failureValue().isConfigurationProblem)
        #expect(try Self.decode([], status: 302).failureValue() == .unexpectedStatus(302))
    }

    @Test("nonsense bodies are malformed with a reason that says where", arguments: [
        ("", "the body is empty"),
        ("{\"latitude\":52.5,", "not JSON"),
        ("[1,2]", "expected an object"),
        ("nope", "not JSON"),
        (#"{"latitude":52.5,"longitude":13.4}"#, "utc_offset_seconds is missing"),
        (#"{"latitude":"52.5","longitude":13.4,"utc_offset_seconds":0}"#, "latitude: expected a number, found the string"),
        (#"{"latitude":52.5,"longitude":13.4,"utc_offset_seconds":3600.5}"#, "whole number"),
        (#"{"latitude":95,"longitude":13.4,"utc_offset_seconds":0}"#, "out of range"),
        (#"{"latitude":52.5,"longitude":13.4,"utc_offset_seconds":0,"current_units":{"time":"iso8601","temperature_2m":"°C"},"current":{"time":"2026-01-15T08:15","temperature_2m":"warm"}}"#,
         "current.temperature_2m: expected a number, found the string"),
        (#"{"latitude":52.5,"longitude":13.4,"utc_offset_seconds":0,"current_units":{"temperature_2m":"K"},"current":{"time":"2026-01-15T08:15","temperature_2m":270}}"#,
         "unknown unit \"K\""),
        (#"{"latitude":52.5,"longitude":13.4,"utc_offset_seconds":0,"current":{"time":"2026-01-15T08:15","temperature_2m":1}}"#,
         "no unit for temperature_2m"),
        (#"{"latitude":52.5,"longitude":13.4,"utc_offset_seconds":0,"current":{"time":"yesterday"}}"#, "is not a time"),
        (#"{"latitude":52.5,"longitude":13.4,"utc_offset_seconds":0,"hourly_units":{"temperature_2m":"°C"},"hourly":{"time":["2026-01-15T00:00","2026-01-15T01:00"],"temperature_2m":[1.0]}}"#,
         "has 1 values for 2 times"),
        (#"{"latitude":52.5,"longitude":13.4,"utc_offset_seconds":0,"hourly":{"temperature_2m":[1.0]}}"#, "hourly.time is missing"),
        (#"{"latitude":52.5,"longitude":13.4,"utc_offset_seconds":0,"hourly":{"time":[null]}}"#, "hourly.time[0] is null"),
        (#"{"latitude":52.5,"longitude":13.4,"utc_offset_seconds":0,"daily":{"time":["2026-01-15T00:00"]}}"#, "is not a date"),
        (#"{"error":true,"reason":"odd"}"#, "an error object with status 200"),
    ])
    func malformed(body: String, fragment: String) throws {
        let error = try Self.decode(Array(body.utf8)).failureValue()
        guard case .malformed(let what) = error else {
            Issue.record("expected malformed, got \(error)")
            return
        }
        #expect(what.contains(fragment), "\(what)")
    }

    @Test("null values, -0.0, missing blocks and unknown codes are handled, not fatal")
    func edges() throws {
        let body = #"""
            {"latitude":78.22,"longitude":15.65,"utc_offset_seconds":3600,"timezone":"Arctic/Longyearbyen",
             "current_units":{"time":"iso8601","temperature_2m":"°C","weather_code":"wmo code","wind_speed_10m":"km/h"},
             "current":{"time":"2026-01-15T08:15","temperature_2m":-0.0,"weather_code":null,"wind_speed_10m":null,"is_day":0},
             "hourly_units":{"time":"iso8601","temperature_2m":"°C","weather_code":"wmo code"},
             "hourly":{"time":["2026-01-15T08:00","2026-01-15T09:00","2026-01-15T10:00"],
                       "temperature_2m":[null,-0.0,1.5],"weather_code":[42,100,-1]},
             "daily_units":{"time":"iso8601","sunrise":"iso8601","sunset":"iso8601"},
             "daily":{"time":["2026-01-15"],"sunrise":["2026-01-15T00:00"],"sunset":["2026-01-16T00:00"]}}
            """#
        let report = try Self.report(Array(body.utf8))
        let now = try #require(report.current)
        #expect(now.temperature == 0 && now.temperature?.sign == .plus)
        #expect(now.condition == nil && now.windSpeed == nil && now.humidity == nil)
        #expect(report.hours[0].temperature == nil)
        #expect(report.hours[1].temperature?.sign == .plus)
        #expect(report.hours[0].condition?.group == .fog)  // 42: the 40s decade
        #expect(report.hours[1].condition == nil)  // 100 is no WMO present-weather code
        #expect(report.hours[2].condition == nil)
        // Polar night comes as 00:00 → 00:00; the sun calculation says which polar case it is.
        #expect(report.days[0].sun == .polarNight)
        #expect(report.days[0].condition == nil && report.days[0].high == nil)
        // No blocks at all is a report with nothing in it, not an error.
        let bare = try Self.report(Array(#"{"latitude":1,"longitude":2,"utc_offset_seconds":0}"#.utf8))
        #expect(bare.current == nil && bare.hours.isEmpty && bare.days.isEmpty && bare.timeZone == nil)
    }

    @Test("the request: rounded to 2 decimals, timezone=auto, units, User-Agent, timeout")
    func request() throws {
        var order = FetchOrder(position: try Coordinate(latitude: 52.516_7, longitude: -104.984_9))
        let metric = Self.service.request(for: order)
        #expect(metric.url.hasPrefix("https://api.open-meteo.com/v1/forecast?latitude=52.52&longitude=-104.98&current="))
        #expect(metric.url.contains("&timezone=auto&forecast_days=3"))
        #expect(!metric.url.contains("fahrenheit"))
        #expect(metric.header("user-agent") == "thunderstorm/\(ClientIdentity.currentVersion) (test@example.org)")
        #expect(metric.timeout == .seconds(20))
        order.units = .imperial
        let imperial = Self.service.request(for: order)
        #expect(imperial.url.hasSuffix("&temperature_unit=fahrenheit&wind_speed_unit=mph&precipitation_unit=inch"))
        let local = OpenMeteoService(baseURL: "http://127.0.0.1:8080/", identity: ClientIdentity(contact: "x"))
        #expect(local.request(for: order).url.hasPrefix("http://127.0.0.1:8080/v1/forecast?latitude=52.52&"))
        // 25 variables: the call counts 2.5 against the limits.
        let variables = OpenMeteoService.currentVariables.count + OpenMeteoService.hourlyVariables.count
            + OpenMeteoService.dailyVariables.count + OpenMeteoService.minutely15Variables.count
        #expect(variables == 25)
        // The barograph and the next-hours line: 48 hours of pressure behind the current hour, 48 ahead, three hours of 15-minute steps.
        #expect(metric.url.contains("pressure_msl&daily="))
        #expect(metric.url.contains("&past_hours=48&forecast_hours=48&minutely_15=precipitation,rain,snowfall,wind_gusts_10m,weather_code&forecast_minutely_15=12"))
    }

    @Test("decimal text for URLs", arguments: [
        (52.52, 2, "52.52"), (13.4, 2, "13.4"), (-0.001, 2, "0"), (-104.98358, 2, "-104.98"), (10.75224, 4, "10.7522"),
        (59.91390, 4, "59.9139"), (0, 4, "0"), (-0.5, 2, "-0.5"), (179.999, 2, "180"), (0.05, 2, "0.05"),
    ])
    func decimalText(value: Double, places: Int, text: String) {
        #expect(DecimalText.text(value, places: places) == text)
    }
}

extension Result {
    func failureValue() throws -> Failure {
        switch self {
        case .success(let value): throw UnexpectedSuccess(description: "\(value)")
        case .failure(let error): return error
        }
    }
}

struct UnexpectedSuccess: Error, CustomStringConvertible {
    var description: String
}

@Suite("Weather errors")
struct WeatherErrorTests {
    @Test("every error is one line, however the body quotes itself (a fuzzer find)")
    func oneLine() throws {
        // A key with an escaped newline, cut off: the syntax error quotes the key.
        let body = Array(#"{"latitude":52.5,"timezone_abbrevia\null,40],"w":1}"#.utf8)
        let error = try OpenMeteoDecodingTests.decode(body).failureValue()
        #expect(!error.description.contains("\n"), "\(error.description)")
        let long = WeatherError.badRequest(status: 400, reason: String(repeating: "x", count: 5000) + "\r\n\u{2028}")
        #expect(long.description.count < 400 && !long.description.contains("\r\n"))
    }
}

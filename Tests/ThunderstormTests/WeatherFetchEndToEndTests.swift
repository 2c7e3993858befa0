import Foundation
import HTTPTesting
import Testing

/// `thunderstorm weather fetch` as a user runs it, against a server on 127.0.0.1 that the test
/// starts: the summary, the JSON, and the exit codes of docs/reference/exit-codes.md (64 usage, 69 the
/// service refuses or answers nonsense, 75 no answer).
@Suite("weather fetch end to end")
struct WeatherFetchEndToEndTests {
    typealias E2E = BoardCheckEndToEndTests

    /// A constructed Open-Meteo answer (Reykjavik, winter) in the documented format.
    static let body = #"""
        {"latitude":64.14,"longitude":-21.94,"generationtime_ms":0.2,"utc_offset_seconds":0,"timezone":"Atlantic/Reykjavik","timezone_abbreviation":"GMT","elevation":20.0,"current_units":{"time":"iso8601","interval":"seconds","temperature_2m":"°C","relative_humidity_2m":"%","is_day":"","weather_code":"wmo code","wind_speed_10m":"km/h","wind_direction_10m":"°"},"current":{"time":"2026-01-15T12:00","interval":900,"temperature_2m":-1.5,"relative_humidity_2m":80,"is_day":1,"weather_code":73,"wind_speed_10m":36.0,"wind_direction_10m":40},"daily_units":{"time":"iso8601","temperature_2m_max":"°C","temperature_2m_min":"°C","sunrise":"iso8601","sunset":"iso8601"},"daily":{"time":["2026-01-15"],"temperature_2m_max":[0.5],"temperature_2m_min":[-4.0],"sunrise":["2026-01-15T11:03"],"sunset":["2026-01-15T16:13"]}}
        """#

    @Test("a 200 prints the summary and the SI JSON; the request carries the place and the units")
    func fetch() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/v1/forecast", .response(status: 200, text: Self.body))
        let summary = try E2E.run(["weather", "fetch", "--lat", "64.1355", "--lon", "-21.8954", "--base-url", server.baseURL])
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.stdout.contains("now      -2 °C  snow  80 %  wind 36 km/h"), "\(summary.stdout)")
        // The day has no weather code in this answer: "--", not a guess.
        #expect(summary.stdout.contains("2026-01-15  -4 °C … 1 °C  --  sun 11:03–16:13"), "\(summary.stdout)")
        #expect(summary.stdout.contains("Open-Meteo.com (CC BY 4.0)"))
        let json = try E2E.run(["weather", "fetch", "--lat", "64.1355", "--lon", "-21.8954", "--base-url", server.baseURL, "--json", "--units", "imperial"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let current = try #require(object["current"] as? [String: Any])
        #expect(current["temperature_c"] as? Double == -1.5)
        #expect(current["wind_speed_ms"] as? Double == 10)
        #expect((current["condition"] as? [String: Any])?["group"] as? String == "snow")
        #expect(object["timezone"] as? String == "Atlantic/Reykjavik")
        let queries = server.requests.compactMap(\.query)
        #expect(queries.count == 2)
        #expect(queries.allSatisfy { $0.hasPrefix("latitude=64.14&longitude=-21.9&") })
        #expect(queries[1].hasSuffix("&temperature_unit=fahrenheit&wind_speed_unit=mph&precipitation_unit=inch"))
    }

    @Test("refusals and nonsense exit 69, no answer 75, bad arguments 64, each with one line")
    func exitCodes() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/bad/v1/forecast", .response(status: 400, text: #"{"error":true,"reason":"Latitude must be in range of -90 to 90°."}"#))
        server.route("/junk/v1/forecast", .response(status: 200, text: "<html>captive portal</html>"))
        server.route("/slow/v1/forecast", .stallAfterHead)
        let cases: [([String], Int32, String)] = [
            (["--base-url", server.url("/bad")], 69, "refused the request (HTTP 400): Latitude must be in range"),
            (["--base-url", server.url("/junk")], 69, "answered nonsense: not JSON"),
            (["--base-url", server.url("/slow"), "--timeout", "1"], 75, "no answer from the weather service"),
            (["--base-url", "ftp://example.org"], 64, "--base-url must start with http"),
            (["--provider", "darksky"], 64, "--provider must be open-meteo or met-norway"),
            (["--provider", "met-norway", "--base-url", server.baseURL], 64, "require a contact"),
        ]
        for (arguments, status, fragment) in cases {
            let run = try E2E.run(["weather", "fetch", "--lat", "52.52", "--lon", "13.41"] + arguments)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(fragment), "\(arguments): \(run.stderr)")
            if status != 64 { #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)") }
            #expect(run.stdout.isEmpty)
        }
    }
}

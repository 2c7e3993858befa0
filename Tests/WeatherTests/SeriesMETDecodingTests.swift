import CorpusTesting
import HAL
import Testing
@testable import Weather

/// MET Norway's share of the barograph and the "next two hours" line: `air_pressure_at_sea_level` of every step (hPa, `meta.units`)
/// and the `next_1_hours` periods (`summary.symbol_code`, `details.precipitation_amount` in mm),
/// which MET leaves out past the hourly steps (`ForecastJSON.md`).
@Suite("Pressure and nowcast decoding: MET Norway")
struct SeriesMETDecodingTests {
    typealias MET = METNorwayDecodingTests

    static func report(_ body: String) throws -> WeatherReport {
        try MET.report(HTTPResponse(status: 200, body: Array(body.utf8))).0
    }

    /// Three hourly steps (the second without a pressure, the third's period without details),
    /// then a 6-hourly step with no next hour at all.
    static let body = #"""
        {"type":"Feature","geometry":{"type":"Point","coordinates":[10.7522,59.9139,23]},
         "properties":{"meta":{"updated_at":"2026-01-15T07:16:40Z","units":{"air_pressure_at_sea_level":"hPa",
           "air_temperature":"celsius","precipitation_amount":"mm","wind_speed":"m/s"}},
          "timeseries":[
           {"time":"2026-01-15T07:00:00Z","data":{"instant":{"details":{"air_pressure_at_sea_level":1018.9,"air_temperature":-6.4}},
             "next_1_hours":{"summary":{"symbol_code":"cloudy"},"details":{"precipitation_amount":0.0}}}},
           {"time":"2026-01-15T08:00:00Z","data":{"instant":{"details":{"air_temperature":-6.1}},
             "next_1_hours":{"summary":{"symbol_code":"heavyrainandthunder"},"details":{"precipitation_amount":4.2}}}},
           {"time":"2026-01-15T09:00:00Z","data":{"instant":{"details":{"air_pressure_at_sea_level":1016.2}},
             "next_1_hours":{"summary":{"symbol_code":"lightsnow"},"details":{}}}},
           {"time":"2026-01-15T12:00:00Z","data":{"instant":{"details":{"air_pressure_at_sea_level":1013.0}},
             "next_6_hours":{"summary":{"symbol_code":"snow"},"details":{"precipitation_amount":3.1}}}}]}}
        """#

    @Test("every step's air_pressure_at_sea_level, a missing one as nil, the 6-hourly ones too")
    func pressures() throws {
        let report = try Self.report(Self.body)
        #expect(report.pressures.map(\.time) == ["07", "08", "09", "12"].map { .utc("2026-01-15T\($0):00:00Z") })
        #expect(report.pressures.map(\.hectopascals) == [1018.9, nil, 1016.2, 1013.0])
    }

    @Test("next_1_hours as one-hour steps from the step's time; no details is missing, not dry; none past the hourly steps")
    func nowcast() throws {
        let steps = try Self.report(Self.body).nowcast
        #expect(steps.map(\.start) == ["07", "08", "09"].map { .utc("2026-01-15T\($0):00:00Z") })
        #expect(steps.allSatisfy { $0.length == .seconds(3600) })
        #expect(steps.map(\.precipitation) == [0.0, 4.2, nil])
        #expect(steps.map { $0.condition?.group } == [.cloudy, .thunderstorm, .snow])
        // The compact product has no rain/snow split and no gusts.
        #expect(steps.allSatisfy { $0.rain == nil && $0.snowfall == nil && $0.windGusts == nil })
    }

    @Test("steps sent out of order come out in time order")
    func order() throws {
        let swapped = #"""
            {"type":"Feature","geometry":{"type":"Point","coordinates":[10.75,59.91]},"properties":{"timeseries":[
             {"time":"2026-01-15T08:00:00Z","data":{"instant":{"details":{"air_pressure_at_sea_level":1017.0}}}},
             {"time":"2026-01-15T07:00:00Z","data":{"instant":{"details":{"air_pressure_at_sea_level":1018.0}},
               "next_1_hours":{"summary":{"symbol_code":"fair_day"}}}}]}}
            """#
        let report = try Self.report(swapped)
        #expect(report.pressures.map(\.hectopascals) == [1018.0, 1017.0])
        #expect(report.nowcast.count == 1 && report.nowcast[0].precipitation == nil)
    }

    @Test("a pressure in another unit is refused, not shown as hPa")
    func unit() throws {
        let body = #"{"geometry":{"coordinates":[10.7,59.9]},"properties":{"meta":{"units":{"air_pressure_at_sea_level":"Pa"}},"timeseries":[]}}"#
        let error = try MET.decode(HTTPResponse(status: 200, body: Array(body.utf8))).failureValue()
        #expect(error == .malformed("properties.meta.units.air_pressure_at_sea_level: unexpected unit \"Pa\" (expected \"hPa\")"))
    }

    @Test("Corpus: Oslo's seven steps of pressure and four next-hour periods", .enabled(if: WeatherCorpus.isPresent))
    func corpus() throws {
        let response = HTTPResponse(status: 200, body: try WeatherCorpus.bytes("met-norway-compact.json"))
        let report = try MET.report(response).0
        #expect(report.pressures.map(\.hectopascals) == [1018.9, 1018.7, 1018.4, 1018.0, 1009.6, 1010.2, 1010.8])
        #expect(report.pressures.last?.time == .utc("2026-01-24T12:00:00Z"))
        #expect(report.nowcast.map(\.start) == ["07", "08", "09", "10"].map { .utc("2026-01-15T\($0):00:00Z") })
        #expect(report.nowcast.map(\.precipitation) == [0.0, 0.1, 0.2, 0.3])
        #expect(report.nowcast.map { $0.condition?.code } == ["cloudy", "lightsnow", "lightsnow", "snow"])
    }
}

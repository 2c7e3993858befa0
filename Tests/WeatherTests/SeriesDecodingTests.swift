import CorpusTesting
import HAL
import Testing
@testable import Weather

/// The barograph's and the "next two hours" line's data: the provider's sea-level pressure behind and ahead of "now", and the short
/// steps of the next hours, from bodies built after the documented formats (Open-Meteo's
/// "Hourly/15-Minutely Parameter Definition" and JSON return object; MET's `ForecastJSON.md`),
/// with the units they state, `null`s and missing blocks.
@Suite("Pressure and nowcast decoding")
struct SeriesDecodingTests {
    typealias OpenMeteo = OpenMeteoDecodingTests

    /// Berlin at 08:20 CET: two past hours and one coming of `pressure_msl`, one of them null;
    /// four 15-minute steps, labelled at the end of their period.
    static func openMeteo(units: String = metricUnits, minutely: String = metricMinutely) -> [UInt8] {
        Array("""
            {"latitude":52.52,"longitude":13.419998,"generationtime_ms":0.2,"utc_offset_seconds":3600,\
            "timezone":"Europe/Berlin","timezone_abbreviation":"GMT+1","elevation":38.0,\
            "hourly_units":{"time":"iso8601","pressure_msl":"hPa"},\
            "hourly":{"time":["2026-01-15T07:00","2026-01-15T08:00","2026-01-15T09:00"],"pressure_msl":[1012.4,null,1009.8]},\
            "minutely_15_units":\(units),"minutely_15":\(minutely)}
            """.utf8)
    }

    static let metricUnits = #"{"time":"iso8601","precipitation":"mm","rain":"mm","snowfall":"cm","wind_gusts_10m":"km/h","weather_code":"wmo code"}"#
    static let metricMinutely = #"{"time":["2026-01-15T08:15","2026-01-15T08:30","2026-01-15T08:45","2026-01-15T09:00"],"#
        + #""precipitation":[0.00,0.20,null,1.40],"rain":[0.00,0.00,null,1.40],"snowfall":[0.00,0.14,null,0.00],"#
        + #""wind_gusts_10m":[18.0,25.2,null,72.0],"weather_code":[3,71,null,95]}"#

    @Test("Open-Meteo: pressure_msl in hPa per hour, null kept as missing, never 0")
    func openMeteoPressure() throws {
        let report = try OpenMeteo.report(Self.openMeteo())
        #expect(report.pressures.map(\.time) == ["06", "07", "08"].map { .utc("2026-01-15T\($0):00:00Z") })
        #expect(report.pressures.map(\.hectopascals) == [1012.4, nil, 1009.8])
    }

    @Test("Open-Meteo: minutely_15 steps start 15 min before their label; cm of snow → mm, km/h → m/s; nulls stay nil")
    func openMeteoNowcast() throws {
        let steps = try OpenMeteo.report(Self.openMeteo()).nowcast
        try #require(steps.count == 4)
        #expect(steps[0].start == .utc("2026-01-15T07:00:00Z") && steps[0].end == .utc("2026-01-15T07:15:00Z"))
        #expect(steps.allSatisfy { $0.length == .seconds(900) })
        #expect(steps[0].precipitation == 0 && steps[0].rain == 0 && steps[0].condition?.group == .cloudy)
        #expect(steps[1].precipitation == 0.2 && steps[1].rain == 0)
        #expect(abs(steps[1].snowfall! - 1.4) < 1e-9)  // 0.14 cm of fresh snow
        #expect(abs(steps[1].windGusts! - 7) < 1e-9)  // 25.2 km/h
        #expect(steps[1].condition?.group == .snow)
        // The null step is missing throughout, not dry and calm.
        #expect(steps[2].precipitation == nil && steps[2].rain == nil && steps[2].snowfall == nil)
        #expect(steps[2].windGusts == nil && steps[2].condition == nil)
        #expect(abs(steps[3].windGusts! - 20) < 1e-9 && steps[3].condition?.group == .thunderstorm)
    }

    @Test("Open-Meteo in inch and mp/h: snowfall and rain to mm, gusts to m/s")
    func openMeteoImperial() throws {
        let units = #"{"time":"iso8601","precipitation":"inch","snowfall":"inch","wind_gusts_10m":"mp/h"}"#
        let minutely = #"{"time":["2026-01-15T08:15"],"precipitation":[0.012],"snowfall":[0.055],"wind_gusts_10m":[31.3]}"#
        let step = try #require(try OpenMeteo.report(Self.openMeteo(units: units, minutely: minutely)).nowcast.first)
        #expect(abs(step.precipitation! - 0.3048) < 1e-9)
        #expect(abs(step.snowfall! - 1.397) < 1e-9)
        #expect(abs(step.windGusts! - 31.3 * 0.447_04) < 1e-9)
        // Columns not asked for are missing, not zero.
        #expect(step.rain == nil && step.condition == nil)
    }

    @Test("Open-Meteo without minutely_15 or pressure_msl: empty series, not series of nils")
    func openMeteoMissing() throws {
        func body(_ name: String, _ unit: String, _ values: String) -> [UInt8] {
            Array("""
                {"latitude":40.0,"longitude":-105.0,"utc_offset_seconds":-21600,"hourly_units":{"time":"iso8601","\(name)":"\(unit)"},\
                "hourly":{"time":["2026-07-04T14:00","2026-07-04T15:00"],"\(name)":\(values)}}
                """.utf8)
        }
        let report = try OpenMeteo.report(body("temperature_2m", "°C", "[30.1,31.0]"))
        #expect(report.hours.count == 2 && report.pressures.isEmpty && report.nowcast.isEmpty)
        // An all-null pressure column is asked-for-and-missing: points without values.
        let gap = try OpenMeteo.report(body("pressure_msl", "hPa", "[null,null]"))
        #expect(gap.pressures.count == 2 && gap.pressures.allSatisfy { $0.hectopascals == nil })
    }

    @Test("Open-Meteo: a broken minutely_15 block is malformed with its path", arguments: [
        (#"{"time":["2026-01-15T08:15"],"precipitation":[0.1,0.2]}"#, "minutely_15.precipitation has 2 values for 1 times"),
        (#"{"precipitation":[0.1]}"#, "minutely_15.time is missing"),
        (#"{"time":["2026-01-15T08:15"],"snowfall":["deep"]}"#, "minutely_15.snowfall[0]: expected a number"),
        (#"{"time":["2026-01-15T08:15"],"weather_code":[61.5]}"#, "whole number"),
    ])
    func openMeteoBroken(minutely: String, fragment: String) throws {
        let error = try OpenMeteo.decode(Self.openMeteo(minutely: minutely)).failureValue()
        guard case .malformed(let what) = error else {
            Issue.record("expected malformed, got \(error)")
            return
        }
        #expect(what.contains(fragment), "\(what)")
    }

    @Test("Open-Meteo: a unit the decoder does not know is refused, not guessed")
    func openMeteoUnknownUnit() throws {
        let units = #"{"time":"iso8601","snowfall":"furlong"}"#
        let minutely = #"{"time":["2026-01-15T08:15"],"snowfall":[1.0]}"#
        let error = try OpenMeteo.decode(Self.openMeteo(units: units, minutely: minutely)).failureValue()
        #expect(error == .malformed("minutely_15_units.snowfall: unknown unit \"furlong\""))
    }

    @Test("Corpus: the Open-Meteo fixtures predate the pressure and 15-minute series and decode with empty series", .enabled(if: WeatherCorpus.isPresent))
    func corpusOpenMeteo() throws {
        for name in ["open-meteo-current-hourly-daily.json", "open-meteo-imperial-forecast-hours.json"] {
            let report = try OpenMeteo.report(try WeatherCorpus.bytes(name))
            #expect(!report.hours.isEmpty && report.pressures.isEmpty && report.nowcast.isEmpty, "\(name)")
        }
    }
}

import Graphics
import HAL
import Screens
import Testing
import Weather

/// The repository's report as the screens show it: local times in the place's zone (right
/// across a DST change the service's single offset gets wrong), freshness and problems, the
/// hourly fallback for "now" and the blanking of old realtime values.
@Suite("Weather panel from a report")
struct WeatherPanelTests {
    static let berlin = ZoneRules.parse(posix: "CET-1CEST,M3.5.0,M10.5.0/3")!

    static func at(_ text: String) -> WallTime { ISO8601.parse(text)!.instant(offsetSeconds: 0) }

    /// Fetched on the Saturday before the spring change, with Open-Meteo's one offset (+1 h).
    static let report = WeatherReport(
        provider: .openMeteo, latitude: 52.52, longitude: 13.42, fetchedAt: at("2026-03-28T23:30:00Z"), utcOffsetSeconds: 3600,
        timeZone: "Europe/Berlin",
        current: CurrentConditions(
            time: at("2026-03-28T23:15:00Z"), temperature: 4.4, humidity: 81.4, windSpeed: 3.0, windDirection: 200,
            condition: Condition(wmo: 61, isNight: true)),
        hours: (0..<6).map { i in
            HourlyPoint(
                time: at("2026-03-28T23:00:00Z") + .seconds(3600 * i), temperature: 4 - Double(i), precipitationChance: 10 * i,
                condition: Condition(wmo: i == 3 ? 1000 : 3, isNight: true))
        },
        days: [
            DailySummary(
                date: CivilDate(year: 2026, month: 3, day: 29), condition: Condition(wmo: 63, isNight: false), low: 1, high: 9,
                precipitation: 2.5, sun: .times(sunrise: at("2026-03-29T04:50:00Z"), sunset: at("2026-03-29T17:40:00Z"))),
            DailySummary(date: CivilDate(year: 2026, month: 3, day: 30), condition: nil, low: nil, high: 11),
        ])

    @Test("hour labels and sunrise follow the zone across the DST change, not the service's offset")
    func dstChange() throws {
        let now = Self.at("2026-03-28T23:40:00Z")  // 00:40 CET on the 29th
        let forecast = Forecast(report: Self.report, now: now, zone: Self.berlin)
        // 00:00Z is 01:00 CET; 01:00Z is 03:00 CEST (02:00 does not exist that night).
        #expect(forecast.hours.map(\.time) == [
            ClockTime(hour: 1, minute: 0), ClockTime(hour: 3, minute: 0), ClockTime(hour: 4, minute: 0),
            ClockTime(hour: 5, minute: 0), ClockTime(hour: 6, minute: 0),
        ])
        #expect(forecast.sunrise == ClockTime(hour: 6, minute: 50) && forecast.sunset == ClockTime(hour: 19, minute: 40))
        #expect(forecast.days.map(\.label) == ["Today", "Mon"])
        #expect(forecast.days[0].icon == .rain && forecast.days[1].icon == .cloudy)
        #expect(forecast.days[1].low == nil)
        #expect(forecast.current == Conditions(temperature: 4.4, icon: .rain, isNight: true, humidity: 81, windSpeed: 3, windDirection: 200))
        // An unknown code in an hour is drawn cloudy (§5's fallback).
        #expect(forecast.hours[2].icon == .cloudy)
    }

    @Test("after 45 minutes the hourly forecast stands in for now; after 3 hours now is blank")
    func realtimeAging() {
        let later = Forecast(report: Self.report, now: Self.at("2026-03-29T01:10:00Z"), zone: Self.berlin)
        #expect(later.current == Conditions(temperature: 2, icon: .cloudy, isNight: true, humidity: nil, windSpeed: nil, windDirection: nil))
        let old = Forecast(report: Self.report, now: Self.at("2026-03-29T02:31:00Z"), zone: Self.berlin)
        #expect(old.current == Conditions(temperature: nil, icon: nil, isNight: false, humidity: nil, windSpeed: nil, windDirection: nil))
        #expect(UnitFormat.temperature(old.current.temperature, .celsius) == "--°C")
        #expect(UnitFormat.percent(old.current.humidity) == "--%")
        #expect(UnitFormat.wind(old.current.windSpeed, .metric) == "-- km/h")
        // Past the 48-hour horizon there are no hours to show.
        #expect(Forecast(report: Self.report, now: Self.at("2026-03-31T00:00:00Z"), zone: Self.berlin).hours.isEmpty)
    }

    @Test("the panel carries freshness and the failure's few words, keeping the last good forecast")
    func panel() {
        let failed = LoadingState<WeatherReport, WeatherError>.failure(
            .transport(TransportError(.timeout, "Operation timed out after 20000 ms")), last: Self.report)
        let panel = WeatherPanel(state: failed, now: Self.at("2026-03-29T00:45:00Z"), zone: Self.berlin)
        #expect(panel.freshness == .stale(minutes: 75))
        #expect(panel.problem == "timed out")
        #expect(panel.forecast != nil)
        let fresh = WeatherPanel(state: .success(Self.report), now: Self.at("2026-03-28T23:45:00Z"), zone: Self.berlin)
        #expect(fresh.freshness == .fresh && fresh.problem == nil)
        let nothing = WeatherPanel(state: .loading(last: nil), now: Self.at("2026-03-28T23:45:00Z"), zone: Self.berlin)
        #expect(nothing.forecast == nil && nothing.problem == nil)
    }
}

@Suite("Weather status line")
struct WeatherStatusLineTests {
    @Test("each loading state says what the service did, in local time; failures are problems")
    func lines() {
        let zone = WeatherPanelTests.berlin
        let report = WeatherPanelTests.report  // fetched 23:30Z = 00:30 CET
        func line(_ state: LoadingState<WeatherReport, WeatherError>) -> StatusLine {
            .weather(state, zone: zone, provider: .openMeteo)
        }
        #expect(line(.idle) == StatusLine("Net", "waiting for a position"))
        #expect(line(.loading(last: nil)) == StatusLine("Net", "asking open-meteo"))
        #expect(line(.success(report)) == StatusLine("Net", "ok, 00:30"))
        #expect(line(.failure(.transport(TransportError(.timeout, "")), last: report))
            == StatusLine("Net", "timed out, was 00:30", isProblem: true))
        #expect(line(.failure(.badRequest(status: 400, reason: "x"), last: nil))
            == StatusLine("Net", "bad request: fix settings", isProblem: true))
    }
}

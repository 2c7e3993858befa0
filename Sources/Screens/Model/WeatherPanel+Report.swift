import Graphics
import HAL
import Weather

extension WeatherPanel {
    /// The weather part of the screens from the repository's state at `now`, with local times
    /// in `zone` (the place's IANA zone, so hour labels and sunrise are right across a DST
    /// change even though the service used one offset for the whole answer).
    public init(
        state: LoadingState<WeatherReport, WeatherError>, now: WallTime, zone: ZoneRules, policy: RefreshPolicy = .standard
    ) {
        let report = state.value
        let freshness: Freshness
        switch policy.freshness(of: report, at: now) {
        case .none, .fresh: freshness = .fresh
        case .stale(let age), .expired(let age): freshness = .stale(minutes: Int(age.components.seconds / 60))
        case .ageUnknown: freshness = .ageUnknown
        }
        self.init(
            forecast: report.map { Forecast(report: $0, now: now, zone: zone, policy: policy) }, freshness: freshness,
            problem: state.failure?.shortText)
    }
}

extension Forecast {
    /// What the screens show of `report` at `now`: the conditions now (blanked when too old),
    /// the next six hours, today and the next two days with their Moon, today's sunrise and sunset.
    public init(report: WeatherReport, now: WallTime, zone: ZoneRules, policy: RefreshPolicy = .standard) {
        let today = CivilDateTime(now, offsetSeconds: zone.offset(at: now)).date
        let current = report.conditions(at: now, policy: policy)
        let conditions = Conditions(
            temperature: current?.temperature, icon: current?.condition?.group,
            isNight: current?.condition?.isNight ?? false, humidity: current?.humidity.map { Int($0.rounded()) },
            windSpeed: current?.windSpeed, windDirection: current?.windDirection.map { Int($0.rounded()) })
        let hours = report.upcomingHours(after: now, limit: 6, policy: policy).map { point in
            HourForecast(
                time: Forecast.clock(point.time, zone), temperature: point.temperature,
                // An hour without a code the tables know is drawn cloudy, the WMO fallback of docs/design/parts.md#weather-codes.
                icon: point.condition?.group ?? .cloudy, isNight: point.condition?.isNight ?? false,
                precipitationChance: point.precipitationChance)
        }
        let days = report.days.filter { $0.date >= today }.prefix(3).map { day in
            DayForecast(
                label: day.date == today ? "Today" : Forecast.weekdays[day.date.weekday],
                icon: day.condition?.group ?? .cloudy, low: day.low, high: day.high,
                precipitation: day.precipitation,
                // The report is for the place shown; its latitude says which way the Moon is lit.
                moon: MoonMark(date: day.date, zone: zone, latitude: report.latitude))
        }
        var sunrise: ClockTime?
        var sunset: ClockTime?
        if case .times(let rise, let set)? = report.days.first(where: { $0.date == today })?.sun {
            sunrise = Forecast.clock(rise, zone)
            sunset = Forecast.clock(set, zone)
        }
        self.init(current: conditions, hours: Array(hours), days: Array(days), sunrise: sunrise, sunset: sunset)
    }

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    static func clock(_ time: WallTime, _ zone: ZoneRules) -> ClockTime {
        let local = CivilDateTime(time, offsetSeconds: zone.offset(at: time))
        return ClockTime(hour: local.hour, minute: local.minute)
    }
}

extension StatusLine {
    /// The status screen's weather line: what the service did last, in the place's local time
    /// ("ok, 14:00"; "timed out, was 13:45"; "bad request: fix settings"), a problem when the
    /// last fetch failed. The few words are `WeatherError.shortText`; the log has the full line.
    public static func weather(
        _ state: LoadingState<WeatherReport, WeatherError>, zone: ZoneRules, provider: WeatherProvider
    ) -> StatusLine {
        let label = "Net"
        func fetched(_ report: WeatherReport) -> String {
            UnitFormat.clock(Forecast.clock(report.fetchedAt, zone), .twentyFourHour)
        }
        switch state {
        case .idle: return StatusLine(label, "waiting for a position")
        case .loading(let last): return StatusLine(label, last.map { "updating, \(fetched($0))" } ?? "asking \(provider.rawValue)")
        case .success(let report): return StatusLine(label, "ok, \(fetched(report))")
        case .failure(let error, let last):
            if error.isConfigurationProblem { return StatusLine(label, "\(error.shortText): fix settings", isProblem: true) }
            return StatusLine(label, error.shortText + (last.map { ", was \(fetched($0))" } ?? ""), isProblem: true)
        }
    }
}

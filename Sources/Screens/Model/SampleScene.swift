import Store
import Weather

/// Built-in sample states, one per situation a person sees on the device: what
/// `thunderstorm snapshot --scene` draws, what the golden screen tests pin down, and what the
/// render benchmark measures. The values are plausible, not real.
public enum SampleScene: String, Sendable, CaseIterable {
    case now, hours, days, indoor, status
    /// Before the first fix: the board's default location, the receiver searching.
    case noFix = "no-fix"
    /// The weather service failed: the last good values, marked stale, and why.
    case error
    /// The now screen at 14:05 and then at 14:06: the smallest change a display sees.
    case clockTick = "clock-tick"
    /// The days screen south of the equator (Sydney): the same Moon, lit on the other side.
    case daysSouth = "days-south"
    /// The now screen with rain on its way: overcast at 14:05, the 15-minute data wet from 14:25.
    case rainSoon = "rain-soon"
    /// The barograph of a front coming in: 48 hours of the sensor, the provider's forecast after now.
    case barograph
    /// The storm alarm's banner over the now screen, until a button acknowledges it: a dark bar
    /// in one minute, a lit one in the next.
    case storm

    /// The screen this scene shows.
    public var screen: Screen {
        switch self {
        case .now, .noFix, .error, .clockTick, .rainSoon, .storm: .now
        case .hours: .hours
        case .days, .daysSouth: .days
        case .indoor: .indoor
        case .barograph: .barograph
        case .status: .status
        }
    }

    /// The frames of the scene, in order: one, or two for `clockTick` and `storm`.
    public var frames: [ScreenModel] {
        switch self {
        case .now, .hours, .days, .indoor, .status, .barograph: [Self.sample()]
        case .storm:
            [Self.sample(clock: ClockTime(hour: 14, minute: 5), barograph: Self.stormPanel),
             Self.sample(clock: ClockTime(hour: 14, minute: 6), barograph: Self.stormPanel)]
        case .noFix:
            [Self.sample(place: Place(name: "Berlin", source: .boardDefault), gps: .noFix(satellites: 3))]
        case .error:
            [Self.sample(weather: WeatherPanel(forecast: Self.forecast, freshness: .stale(minutes: 47), problem: "timed out"))]
        case .clockTick:
            [Self.sample(clock: ClockTime(hour: 14, minute: 5)), Self.sample(clock: ClockTime(hour: 14, minute: 6))]
        case .daysSouth:
            [Self.sample(place: Place(name: "Sydney", source: .gps), weather: WeatherPanel(forecast: Self.forecastSouth))]
        case .rainSoon:
            [Self.sample(weather: WeatherPanel(forecast: Self.forecastRainSoon), outlook: .startsIn(.rain, minutes: 20))]
        }
    }

    public static let forecast = Forecast(
        current: Conditions(temperature: 23.4, icon: .partlyCloudy, isNight: false, humidity: 64, windSpeed: 3.4, windDirection: 225),
        hours: [
            HourForecast(time: ClockTime(hour: 15, minute: 0), temperature: 24.1, icon: .partlyCloudy, isNight: false, precipitationChance: 10),
            HourForecast(time: ClockTime(hour: 16, minute: 0), temperature: 24.6, icon: .cloudy, isNight: false, precipitationChance: 20),
            HourForecast(time: ClockTime(hour: 17, minute: 0), temperature: 22.8, icon: .showers, isNight: false, precipitationChance: 60),
            HourForecast(time: ClockTime(hour: 18, minute: 0), temperature: 19.5, icon: .thunderstorm, isNight: false, precipitationChance: 80),
        ],
        days: days(latitude: 47.37, zone: .fixed(offsetSeconds: 7_200, identifier: "Europe/Zurich")),
        sunrise: ClockTime(hour: 5, minute: 38),
        sunset: ClockTime(hour: 21, minute: 12))

    /// `forecast` under a lowering sky: cooler, overcast, the wind freshening ahead of the rain.
    public static let forecastRainSoon: Forecast = {
        var overcast = forecast
        overcast.current = Conditions(
            temperature: 19.2, icon: .cloudy, isNight: false, humidity: 81, windSpeed: 6.1, windDirection: 250)
        return overcast
    }()

    /// `forecast` with the Moon of Sydney (33.87° S), whose clocks are 8 hours ahead of Zürich's.
    public static let forecastSouth: Forecast = {
        var south = forecast
        south.days = days(latitude: -33.87, zone: .fixed(offsetSeconds: 36_000, identifier: "Australia/Sydney"))
        return south
    }()

    /// The three days, Friday 22 to Sunday 24 May 2026, with the Moon computed for them: a
    /// waxing crescent, the first quarter (23 May 11:11 UTC), a waxing gibbous Moon.
    static func days(latitude: Double, zone: ZoneRules) -> [DayForecast] {
        let friday = CivilDate(year: 2026, month: 5, day: 22)
        func moon(_ day: Int64) -> MoonMark {
            MoonMark(date: CivilDate(daysSinceEpoch: friday.daysSinceEpoch + day), zone: zone, latitude: latitude)
        }
        return [
            DayForecast(label: "Today", icon: .thunderstorm, low: 14.2, high: 24.6, precipitation: 6.4, moon: moon(0)),
            DayForecast(label: "Sat", icon: .clear, low: 13.1, high: 26.0, precipitation: 0, moon: moon(1)),
            DayForecast(label: "Sun", icon: .rain, low: 11.8, high: 18.9, precipitation: 12.5, moon: moon(2)),
        ]
    }

    public static let statusLines = [
        StatusLine("GPS", "3D fix, 9 sat"),
        StatusLine("Net", "ok, 14:00"),
        StatusLine("Store", "ok, 12 places"),
        StatusLine("Disp", "SSD1306 at 0x3C"),
    ]

    static func sample(
        clock: ClockTime = ClockTime(hour: 14, minute: 5),
        place: Place = Place(name: "Zürich", source: .gps),
        gps: GPSMark = .fix,
        weather: WeatherPanel = WeatherPanel(forecast: forecast),
        outlook: OutlookLine? = .dry,
        barograph: BarographPanel = SampleScene.frontPanel
    ) -> ScreenModel {
        ScreenModel(
            settings: .defaults, clock: clock, place: place, gps: gps, weather: weather, outlook: outlook,
            indoor: .reading(temperature: 21.6, humidity: 45, pressure: 1013.2),
            statusLines: statusLines, barograph: barograph)
    }
}

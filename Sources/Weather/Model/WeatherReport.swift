import HAL

/// The services the device can ask. The provider is replaceable on purpose: Dark Sky (2023) and
/// OpenWeather 2.5 shut down and left Pi weather clocks blank (docs/design/parts.md#the-weather-service).
public enum WeatherProvider: String, Sendable, CaseIterable {
    case openMeteo = "open-meteo"
    case metNorway = "met-norway"

    /// The attribution both services' terms ask for (CC BY 4.0).
    public var attribution: String {
        switch self {
        case .openMeteo: "Weather data by Open-Meteo.com (CC BY 4.0)"
        case .metNorway: "Weather data from MET Norway (CC BY 4.0)"
        }
    }
}

/// One forecast, whoever sent it, in one set of units (SI: °C, m/s, mm, hPa, %) and with every
/// time as an instant (UTC). The services' local times are converted when decoding, so the
/// screens can show them in the place's IANA zone and stay right across a DST change.
public struct WeatherReport: Sendable, Equatable {
    public var provider: WeatherProvider
    /// Where the service says the forecast is for (Open-Meteo answers with its grid cell).
    public var latitude: Double
    public var longitude: Double
    public var elevation: Double?
    /// When the device received it (civil time; it survives a reboot in the disk cache).
    public var fetchedAt: WallTime
    /// Open-Meteo's `utc_offset_seconds`: the place's offset when the request was made, used
    /// for all of its local times. 0 for MET Norway, which sends UTC.
    public var utcOffsetSeconds: Int
    /// The place's IANA zone (`Europe/Berlin`) when the service names it (Open-Meteo).
    public var timeZone: String?
    public var current: CurrentConditions?
    /// Hour by hour, oldest first.
    public var hours: [HourlyPoint]
    /// Local calendar days, oldest first.
    public var days: [DailySummary]
    /// Sea-level pressure, oldest first: Open-Meteo's past hours and coming ones, MET Norway's
    /// steps. Empty when the answer has none (an older cached body, a request without it).
    public var pressures: [PressurePoint]
    /// The near future in short steps, oldest first: Open-Meteo's 15-minute data, MET Norway's
    /// next-hour periods. Empty when the answer has none (outside the 15-minute models'
    /// regions the service may leave the block out).
    public var nowcast: [NowcastStep]

    public init(
        provider: WeatherProvider, latitude: Double, longitude: Double, elevation: Double? = nil,
        fetchedAt: WallTime, utcOffsetSeconds: Int = 0, timeZone: String? = nil,
        current: CurrentConditions?, hours: [HourlyPoint] = [], days: [DailySummary] = [],
        pressures: [PressurePoint] = [], nowcast: [NowcastStep] = []
    ) {
        self.provider = provider
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.fetchedAt = fetchedAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.timeZone = timeZone
        self.current = current
        self.hours = hours
        self.days = days
        self.pressures = pressures
        self.nowcast = nowcast
    }

    /// `latitude` and `longitude` as a coordinate; nil when they are out of range (the decoders
    /// refuse such an answer, so a decoded report always has one).
    public var position: Coordinate? { try? Coordinate(latitude: latitude, longitude: longitude) }
}

/// The conditions now. Every value may be missing: the services write `null` for anything they
/// do not have, and a blank field is better than a made-up one.
public struct CurrentConditions: Sendable, Equatable {
    /// The start of the observation slot (Open-Meteo: 15 minutes) or the forecast step.
    public var time: WallTime
    public var temperature: Double?
    public var apparentTemperature: Double?
    /// Relative humidity, %.
    public var humidity: Double?
    /// mm in the slot before `time`.
    public var precipitation: Double?
    /// Mean sea-level pressure, hPa.
    public var pressure: Double?
    /// Cloud cover, %.
    public var cloudCover: Double?
    /// m/s
    public var windSpeed: Double?
    /// Degrees clockwise from north, where the wind comes from.
    public var windDirection: Double?
    /// m/s
    public var windGusts: Double?
    public var condition: Condition?

    public init(
        time: WallTime, temperature: Double? = nil, apparentTemperature: Double? = nil, humidity: Double? = nil,
        precipitation: Double? = nil, pressure: Double? = nil, cloudCover: Double? = nil, windSpeed: Double? = nil,
        windDirection: Double? = nil, windGusts: Double? = nil, condition: Condition? = nil
    ) {
        self.time = time
        self.temperature = temperature
        self.apparentTemperature = apparentTemperature
        self.humidity = humidity
        self.precipitation = precipitation
        self.pressure = pressure
        self.cloudCover = cloudCover
        self.windSpeed = windSpeed
        self.windDirection = windDirection
        self.windGusts = windGusts
        self.condition = condition
    }
}

/// One hour of the forecast, starting at `time`.
public struct HourlyPoint: Sendable, Equatable {
    public var time: WallTime
    public var temperature: Double?
    /// Probability of precipitation, % (Open-Meteo only; MET's compact product has none).
    public var precipitationChance: Int?
    /// mm in the hour.
    public var precipitation: Double?
    public var condition: Condition?

    public init(
        time: WallTime, temperature: Double? = nil, precipitationChance: Int? = nil, precipitation: Double? = nil,
        condition: Condition? = nil
    ) {
        self.time = time
        self.temperature = temperature
        self.precipitationChance = precipitationChance
        self.precipitation = precipitation
        self.condition = condition
    }
}

/// One local calendar day.
public struct DailySummary: Sendable, Equatable {
    public var date: CivilDate
    public var condition: Condition?
    public var low: Double?
    public var high: Double?
    /// Highest probability of precipitation in the day, %.
    public var precipitationChance: Int?
    /// Sum over the day, mm.
    public var precipitation: Double?
    public var sun: SunTimes

    public init(
        date: CivilDate, condition: Condition? = nil, low: Double? = nil, high: Double? = nil,
        precipitationChance: Int? = nil, precipitation: Double? = nil, sun: SunTimes = .unknown
    ) {
        self.date = date
        self.condition = condition
        self.low = low
        self.high = high
        self.precipitationChance = precipitationChance
        self.precipitation = precipitation
        self.sun = sun
    }
}

/// Sunrise and sunset of a day, as the service gives them or as computed for the place.
public enum SunTimes: Sendable, Equatable {
    case unknown
    case times(sunrise: WallTime, sunset: WallTime)
    /// The sun stays below the horizon all day.
    case polarNight
    /// The sun stays above the horizon all day.
    case midnightSun
}

import HAL

/// The provider's mean sea-level pressure at one instant (the barograph: every device has a
/// pressure trend, with or without a sensor). Open-Meteo: hourly `pressure_msl`, instantaneous, hPa, with
/// the past hours the request asks for (its docs' "Hourly Parameter Definition"); MET Norway:
/// `instant.details.air_pressure_at_sea_level` of every step, hPa (`meta.units`), forecast only.
public struct PressurePoint: Sendable, Equatable {
    public var time: WallTime
    /// hPa; nil where the service wrote `null` (a gap in the graph, never a zero).
    public var hectopascals: Double?

    public init(time: WallTime, hectopascals: Double?) {
        self.time = time
        self.hectopascals = hectopascals
    }
}

/// One short period of the near future, for the "next two hours" line.
///
/// Open-Meteo's `minutely_15` labels a step with the end of its period: `precipitation`, `rain`
/// and `snowfall` are the "preceding 15 minutes sum" and `wind_gusts_10m` the "preceding 15 min
/// max" (open-meteo.com/en/docs, "15-Minutely Parameter Definition"), so a step labelled 16:15
/// is the period 16:00–16:15 here; `weather_code` is the instant at the label. MET Norway's
/// `next_1_hours` is the hour that begins at its step's time (MET `ForecastJSON.md`).
///
/// Every value may be missing: Open-Meteo writes `null` for what it lacks, a request may leave a
/// variable out, and MET's compact product has no rain/snow split and no gusts.
public struct NowcastStep: Sendable, Equatable {
    public static let quarterHour = Duration.seconds(900)
    public static let hour = Duration.seconds(3600)

    /// Where the period begins.
    public var start: WallTime
    /// 15 minutes (Open-Meteo) or 1 hour (MET Norway).
    public var length: Duration
    /// Rain, showers and snow as water, mm in the period.
    public var precipitation: Double?
    /// The rain and showers of it, mm in the period.
    public var rain: Double?
    /// Fresh snow, mm of depth (not water) in the period: Open-Meteo states snowfall in cm, or
    /// inch with `precipitation_unit=inch`; its docs put 7 cm of snow at about 10 mm of water.
    public var snowfall: Double?
    /// The strongest gust in the period, m/s.
    public var windGusts: Double?
    public var condition: Condition?

    public init(
        start: WallTime, length: Duration, precipitation: Double? = nil, rain: Double? = nil, snowfall: Double? = nil,
        windGusts: Double? = nil, condition: Condition? = nil
    ) {
        self.start = start
        self.length = length
        self.precipitation = precipitation
        self.rain = rain
        self.snowfall = snowfall
        self.windGusts = windGusts
        self.condition = condition
    }

    /// Where the period ends.
    public var end: WallTime { start + length }
}

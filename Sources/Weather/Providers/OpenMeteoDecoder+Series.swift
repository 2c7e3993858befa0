import HAL

/// The barograph's and the "next two hours" line's share of an Open-Meteo answer:
/// the hourly `pressure_msl` column and the `minutely_15` block.
extension OpenMeteoDecoder {
    /// Every hour of the hourly block with its sea-level pressure; nil where the column has
    /// `null`, and no points at all when the block has no such column (an older cached body, or
    /// a request that did not ask): an empty series says "no provider trend", a series of nils
    /// would say "asked, and nothing came".
    static func pressures(_ columns: Columns, times: LocalTimes) throws(WeatherError) -> [PressurePoint] {
        guard try columns.block.array("pressure_msl") != nil else { return [] }
        let time = try columns.times()
        let pressure = try columns.scaled("pressure_msl", columns.units.pressure)
        var points: [PressurePoint] = []
        points.reserveCapacity(time.count)
        for i in time.indices {
            points.append(PressurePoint(time: try times.instant(time[i], at: columns.at("time", i)), hectopascals: pressure[i]))
        }
        return points
    }

    /// The `minutely_15` block: sums and the gust maximum are over the 15 minutes before each
    /// label (open-meteo.com/en/docs, "15-Minutely Parameter Definition"), so each step starts
    /// 15 minutes before its label. Snowfall comes in cm (inch with `precipitation_unit=inch`)
    /// and is kept as mm of snow depth. The block has no `is_day` unless asked, so its codes
    /// are read as day: the line names the weather, it draws no moon.
    static func nowcast(_ columns: Columns, times: LocalTimes) throws(WeatherError) -> [NowcastStep] {
        let time = try columns.times()
        let precipitation = try columns.precipitation("precipitation")
        let rain = try columns.precipitation("rain")
        let snowfall = try columns.precipitation("snowfall")
        let gusts = try columns.scaled("wind_gusts_10m", columns.units.speed)
        let code = try columns.numbers("weather_code")
        let isDay = try columns.numbers("is_day")
        var steps: [NowcastStep] = []
        steps.reserveCapacity(time.count)
        for i in time.indices {
            let label = try times.instant(time[i], at: columns.at("time", i))
            var step = NowcastStep(
                start: label - NowcastStep.quarterHour, length: NowcastStep.quarterHour, precipitation: precipitation[i],
                rain: rain[i], snowfall: snowfall[i], windGusts: gusts[i])
            if let value = code[i] {
                let wmo = try JSONFields.integer(value, at: columns.at("weather_code", i))
                step.condition = Condition(wmo: wmo, isNight: isDay[i] == 0)
            }
            steps.append(step)
        }
        return steps
    }
}

extension Columns {
    /// A column converted with one of `Units`' converters (`units.pressure`, `units.speed`);
    /// nulls stay nil.
    func scaled(_ key: String, _ convert: (String, Double?) throws(WeatherError) -> Double?) throws(WeatherError) -> [Double?] {
        try numbers(key).map { (value) throws(WeatherError) in try convert(key, value) }
    }
}

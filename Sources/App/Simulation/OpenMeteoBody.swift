import HAL
import Weather

/// Writes the body of a simulated Open-Meteo answer in the service's own format, byte for byte
/// where the format is known (open-meteo.com/en/docs; docs/design/parts.md#the-weather-service; the corpus's
/// `open-meteo-current-hourly-daily.json` and `open-meteo-imperial-forecast-hours.json`): keys
/// in the server's order and no whitespace; each block a `*_units` object then parallel arrays
/// keyed by `time`, only the variables asked for, in the order asked; fixed decimals per unit
/// (°C, °F, km/h, mp/h, kn, hPa 1; m/s, mm 2; inch 3; %, °, codes 0), with the sign of a tiny
/// negative kept (`-0.0`, as the server prints it); local times `YYYY-MM-DDTHH:MM`, all shifted
/// by the one `utc_offset_seconds` of the moment of the request, even where the zone changes
/// its offset within the forecast (the real service does the same, §2).
struct OpenMeteoBody {
    let query: ForecastQuery
    let climate: SimulatedClimate
    let now: WallTime
    let offset: Int
    let timezone: String
    let abbreviation: String

    func json() -> String {
        var random = climate.generator(day: 0, stream: 2)
        let elevation = Double(random.next(in: 0...600))
        // Written as the server writes it: a Double with all its digits (0.1245737075805664).
        let generation = 0.05 + Double(random.next() >> 11) * 0x1p-53 * 0.25
        var out = "{\"latitude\":\(DecimalText.text(query.latitude, places: 6))"
        out += ",\"longitude\":\(DecimalText.text(query.longitude, places: 6))"
        out += ",\"generationtime_ms\":\(generation),\"utc_offset_seconds\":\(offset)"
        out += ",\"timezone\":\"\(timezone)\",\"timezone_abbreviation\":\"\(abbreviation)\""
        out += ",\"elevation\":\(Self.fixed(elevation, 1))"
        if !query.current.isEmpty { out += current() }
        if !query.minutely15.isEmpty { out += minutely15() }
        if !query.hourly.isEmpty { out += hourly() }
        if !query.daily.isEmpty { out += daily() }
        return out + "}"
    }

    // MARK: Blocks

    /// The 15-minute slot that `now` is in; precipitation is the sum over the slot before it.
    private func current() -> String {
        let local = now.seconds + Int64(offset)
        let slot = WallTime(seconds: local - Self.modulo(local, 900) - Int64(offset))
        let sample = climate.sample(at: slot)
        let wet = climate.sample(at: slot - .seconds(450))
        var units = "\"time\":\"iso8601\",\"interval\":\"seconds\""
        var values = "\"time\":\"\(localText(slot))\",\"interval\":900"
        for name in query.current {
            units += ",\"\(name)\":\"\(unit(name))\""
            values += ",\"\(name)\":\(value(name, sample, precipitation: wet.precipitationRate * 0.25))"
        }
        return ",\"current_units\":{\(units)},\"current\":{\(values)}"
    }

    /// With `past_hours` or `forecast_hours`, from the current hour minus `past_hours` for
    /// both counts (16 days ahead when `forecast_hours` is absent, as the server does); else
    /// from local midnight `past_days` back for the days. Precipitation is the sum over the
    /// hour before each time.
    private func hourly() -> String {
        let local = now.seconds + Int64(offset)
        let first: Int64, count: Int
        if query.forecastHours != nil || query.pastHours != nil {
            let past = query.pastHours ?? 0
            first = local - Self.modulo(local, 3_600) - Int64(offset) - Int64(past) * 3_600
            count = past + (query.forecastHours ?? 16 * 24)
        } else {
            first = local - Self.modulo(local, 86_400) - Int64(offset) - Int64(query.pastDays) * 86_400
            count = (query.pastDays + query.forecastDays) * 24
        }
        let times = (0..<count).map { WallTime(seconds: first + Int64($0) * 3_600) }
        let samples = times.map { climate.sample(at: $0) }
        let amounts = times.map { climate.sample(at: $0 - .seconds(1_800)).precipitationRate }
        var units = "\"time\":\"iso8601\""
        var columns = "\"time\":[" + times.map { "\"\(localText($0))\"" }.joined(separator: ",") + "]"
        for name in query.hourly {
            units += ",\"\(name)\":\"\(unit(name))\""
            let items = samples.indices.map { value(name, samples[$0], precipitation: amounts[$0]) }
            columns += ",\"\(name)\":[" + items.joined(separator: ",") + "]"
        }
        return ",\"hourly_units\":{\(units)},\"hourly\":{\(columns)}"
    }

    /// Local calendar days from today: aggregates of the day's 24 hours, and the sun.
    private func daily() -> String {
        let local = now.seconds + Int64(offset)
        let today = (local - Self.modulo(local, 86_400)) / 86_400
        var units = "\"time\":\"iso8601\""
        var columns: [String: [String]] = [:]
        var dates: [String] = []
        for index in -Int64(query.pastDays)..<Int64(query.forecastDays) {
            let date = CivilDate(daysSinceEpoch: today + index)
            dates.append("\"\(date)\"")
            let midnight = date.daysSinceEpoch * 86_400 - Int64(offset)
            let hours = (0..<24).map { climate.sample(at: WallTime(seconds: midnight + Int64($0) * 3_600)) }
            let rain = (0..<24).map {
                climate.sample(at: WallTime(seconds: midnight + Int64($0) * 3_600 + 1_800)).precipitationRate
            }
            let sun = SolarEvents.day(
                date: date, latitude: climate.latitude, longitude: climate.longitude, utcOffsetSeconds: offset)
            for name in query.daily {
                columns[name, default: []].append(dailyValue(name, date: date, hours: hours, rain: rain, sun: sun))
            }
        }
        var text = "\"time\":[" + dates.joined(separator: ",") + "]"
        for name in query.daily {
            units += ",\"\(name)\":\"\(unit(name))\""
            text += ",\"\(name)\":[" + (columns[name] ?? []).joined(separator: ",") + "]"
        }
        return ",\"daily_units\":{\(units)},\"daily\":{\(text)}"
    }

    /// 15-minute steps labelled at their end: sums and the gust maximum cover the 15 minutes
    /// before the label, the code is the label's instant (open-meteo.com/en/docs, "15-Minutely
    /// Parameter Definition"). With `past_minutely_15` or `forecast_minutely_15`, from the
    /// current step minus the past count (three days ahead without the forecast count); else
    /// three days from local midnight, the server's fallback.
    private func minutely15() -> String {
        let local = now.seconds + Int64(offset)
        let first: Int64, count: Int
        if query.forecastMinutely15 != nil || query.pastMinutely15 != nil {
            let past = query.pastMinutely15 ?? 0
            first = local - Self.modulo(local, 900) - Int64(offset) - Int64(past) * 900
            count = past + (query.forecastMinutely15 ?? 3 * 96)
        } else {
            first = local - Self.modulo(local, 86_400) - Int64(offset)
            count = 3 * 96
        }
        let times = (0..<count).map { WallTime(seconds: first + Int64($0) * 900) }
        let instants = times.map { climate.sample(at: $0) }
        let periods = times.map { climate.sample(at: $0 - .seconds(450)) }
        var units = "\"time\":\"iso8601\""
        var columns = "\"time\":[" + times.map { "\"\(localText($0))\"" }.joined(separator: ",") + "]"
        for name in query.minutely15 {
            units += ",\"\(name)\":\"\(unit(name))\""
            let items = times.indices.map { quarterValue(name, instant: instants[$0], period: periods[$0]) }
            columns += ",\"\(name)\":[" + items.joined(separator: ",") + "]"
        }
        return ",\"minutely_15_units\":{\(units)},\"minutely_15\":{\(columns)}"
    }

    /// One 15-minute value: what falls in the period, split into rain or snow by the period's
    /// code; snow as cm of depth (Open-Meteo's docs: 7 cm of snow is about 10 mm of water).
    private func quarterValue(_ name: String, instant: SimulatedClimate.Sample, period: SimulatedClimate.Sample) -> String {
        let water = period.precipitationRate * 0.25
        switch name {
        case "precipitation": return amount(water)
        case "rain": return amount(period.isSnow ? 0 : water)
        case "snowfall": return snow(period.isSnow ? water * 0.7 : 0)
        case "wind_gusts_10m": return speed(period.windGusts)
        default: return value(name, instant, precipitation: water)
        }
    }

    // MARK: Values

    private func value(_ name: String, _ sample: SimulatedClimate.Sample, precipitation: Double) -> String {
        switch name {
        case "temperature_2m": temperature(sample.temperature)
        case "apparent_temperature": temperature(sample.apparentTemperature)
        case "relative_humidity_2m": Self.fixed(sample.humidity, 0)
        case "is_day": sample.isDay ? "1" : "0"
        case "precipitation": amount(precipitation)
        case "precipitation_probability": Self.fixed(sample.precipitationChance, 0)
        case "weather_code": String(sample.weatherCode)
        case "cloud_cover": Self.fixed(sample.cloudCover, 0)
        case "pressure_msl": Self.fixed(sample.pressure, 1)
        case "wind_speed_10m": speed(sample.windSpeed)
        case "wind_gusts_10m": speed(sample.windGusts)
        case "wind_direction_10m": Self.fixed(sample.windDirection.rounded().truncatingRemainder(dividingBy: 360), 0)
        default: "null"  // ForecastQuery lets no other name through
        }
    }

    /// Polar night: sunrise and sunset both at the day's 00:00; midnight sun: 00:00 and the
    /// next day's 00:00 — never null (open-meteo.com/en/docs; docs/design/parts.md#the-weather-service, and a public project's check
    /// of the live API).
    private func dailyValue(
        _ name: String, date: CivilDate, hours: [SimulatedClimate.Sample], rain: [Double], sun: SolarDay
    ) -> String {
        switch name {
        case "weather_code": String(hours.map(\.weatherCode).max() ?? 0)  // the day's most severe
        case "temperature_2m_max": temperature(hours.map(\.temperature).max() ?? 0)
        case "temperature_2m_min": temperature(hours.map(\.temperature).min() ?? 0)
        case "precipitation_sum": amount(rain.reduce(0, +))
        case "precipitation_probability_max": Self.fixed(hours.map(\.precipitationChance).max() ?? 0, 0)
        case "wind_speed_10m_max": speed(hours.map(\.windSpeed).max() ?? 0)
        case "sunrise", "sunset":
            switch sun {
            case .normal(let rise, let set): "\"\(localText(name == "sunrise" ? rise : set))\""
            case .polarNight: "\"\(date)T00:00\""
            case .midnightSun: name == "sunrise" ? "\"\(date)T00:00\"" : "\"\(CivilDate(daysSinceEpoch: date.daysSinceEpoch + 1))T00:00\""
            }
        default: "null"
        }
    }

    private func temperature(_ celsius: Double) -> String {
        Self.fixed(query.temperatureUnit == .fahrenheit ? celsius * 9 / 5 + 32 : celsius, 1)
    }

    /// m/s → the unit asked for.
    private func speed(_ metresPerSecond: Double) -> String {
        switch query.windSpeedUnit {
        case .kmh: Self.fixed(metresPerSecond * 3.6, 1)
        case .ms: Self.fixed(metresPerSecond, 2)
        case .mph: Self.fixed(metresPerSecond / 0.447_04, 1)
        case .kn: Self.fixed(metresPerSecond * 3_600 / 1_852, 1)
        }
    }

    private func amount(_ millimetres: Double) -> String {
        query.precipitationUnit == .inch ? Self.fixed(millimetres / 25.4, 3) : Self.fixed(millimetres, 2)
    }

    /// Snow depth: cm, or inch with `precipitation_unit=inch`.
    private func snow(_ centimetres: Double) -> String {
        query.precipitationUnit == .inch ? Self.fixed(centimetres / 2.54, 3) : Self.fixed(centimetres, 2)
    }

    /// The unit strings of the `*_units` blocks (sdk `Unit.swift`: `mp/h`, not `mph`).
    private func unit(_ name: String) -> String {
        switch name {
        case "temperature_2m", "apparent_temperature", "temperature_2m_max", "temperature_2m_min":
            query.temperatureUnit == .fahrenheit ? "°F" : "°C"
        case "wind_speed_10m", "wind_gusts_10m", "wind_speed_10m_max":
            switch query.windSpeedUnit {
            case .kmh: "km/h"
            case .ms: "m/s"
            case .mph: "mp/h"
            case .kn: "kn"
            }
        case "precipitation", "precipitation_sum", "rain": query.precipitationUnit == .inch ? "inch" : "mm"
        case "snowfall": query.precipitationUnit == .inch ? "inch" : "cm"
        case "relative_humidity_2m", "precipitation_probability", "precipitation_probability_max", "cloud_cover": "%"
        case "weather_code": "wmo code"
        case "pressure_msl": "hPa"
        case "wind_direction_10m": "°"
        case "sunrise", "sunset": "iso8601"
        default: ""  // is_day
        }
    }

    // MARK: Text

    /// `2026-01-15T08:15` at the body's one offset.
    private func localText(_ time: WallTime) -> String {
        let local = CivilDateTime(time, offsetSeconds: offset)
        return "\(local.date)T\(Self.twoDigits(local.hour)):\(Self.twoDigits(local.minute))"
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// `value` with exactly `places` decimals; a negative value that rounds to zero keeps its
    /// sign, as the server writes it (`-0.0`).
    static func fixed(_ value: Double, _ places: Int) -> String {
        let text = DecimalText.text(value, places: places, trimmingZeros: false)
        return value < 0 && !text.hasPrefix("-") ? "-" + text : text
    }

    static func modulo(_ a: Int64, _ b: Int64) -> Int64 { ((a % b) + b) % b }
}

import HAL
import JSON

/// Open-Meteo's forecast JSON → `WeatherReport` (open-meteo.com/en/docs; docs/design/parts.md#the-weather-service). The body is
/// columnar: each block (`current`, `hourly`, `daily`) is parallel arrays keyed by `time`, with
/// a `*_units` block naming the unit of each; times are local, `YYYY-MM-DDTHH:MM`, all with the
/// one `utc_offset_seconds` of the request, so they become instants here and are shown later
/// in the place's IANA zone.
enum OpenMeteoDecoder {
    static func report(_ body: [UInt8], receivedAt: WallTime) throws(WeatherError) -> WeatherReport {
        let root = try JSONFields.document(body)
        if case .bool(true)? = root.value("error") {
            throw .malformed("an error object with status 200: \(try root.string("reason") ?? "no reason")")
        }
        let offsetValue = try root.requiredNumber("utc_offset_seconds")
        let offset = try JSONFields.integer(offsetValue, at: "utc_offset_seconds")
        guard abs(offset) <= 18 * 3600 else { throw .malformed("utc_offset_seconds: \(offset) is not an offset") }
        let latitude = try root.requiredNumber("latitude")
        let longitude = try root.requiredNumber("longitude")
        guard (try? Coordinate(latitude: latitude, longitude: longitude)) != nil else {
            throw .malformed("latitude/longitude \(latitude), \(longitude) out of range")
        }
        let times = LocalTimes(offset: offset)
        var report = WeatherReport(
            provider: .openMeteo, latitude: latitude, longitude: longitude, elevation: try root.number("elevation"),
            fetchedAt: receivedAt, utcOffsetSeconds: offset, timeZone: try root.string("timezone"), current: nil)
        if let current = try root.object("current") {
            report.current = try self.current(current, units: try Units(root.object("current_units")), times: times)
        }
        if let hourly = try root.object("hourly") {
            let columns = try Columns(hourly, units: try Units(root.object("hourly_units")))
            report.hours = try hours(columns, times: times)
            report.pressures = try pressures(columns, times: times)
        }
        if let minutely = try root.object("minutely_15") {
            report.nowcast = try nowcast(Columns(minutely, units: try Units(root.object("minutely_15_units"))), times: times)
        }
        if let daily = try root.object("daily") {
            report.days = try days(Columns(daily, units: try Units(root.object("daily_units"))), times: times)
        }
        report.computeMissingSunTimes()
        return report
    }

    private static func current(_ block: JSONFields, units: Units, times: LocalTimes) throws(WeatherError)
        -> CurrentConditions
    {
        guard let text = try block.string("time") else { throw .malformed("current.time is missing") }
        var now = CurrentConditions(time: try times.instant(text, at: block.at("time")))
        now.temperature = try units.temperature("temperature_2m", try block.number("temperature_2m"))
        now.apparentTemperature = try units.temperature("apparent_temperature", try block.number("apparent_temperature"))
        now.humidity = try block.number("relative_humidity_2m")
        now.precipitation = try units.precipitation("precipitation", try block.number("precipitation"))
        now.pressure = try units.pressure("pressure_msl", try block.number("pressure_msl"))
        now.cloudCover = try block.number("cloud_cover")
        now.windSpeed = try units.speed("wind_speed_10m", try block.number("wind_speed_10m"))
        now.windDirection = try block.number("wind_direction_10m")
        now.windGusts = try units.speed("wind_gusts_10m", try block.number("wind_gusts_10m"))
        let isDay = try block.number("is_day")
        if let code = try block.number("weather_code") {
            now.condition = Condition(
                wmo: try JSONFields.integer(code, at: block.at("weather_code")), isNight: isDay == 0)
        }
        return now
    }

    private static func hours(_ columns: Columns, times: LocalTimes) throws(WeatherError) -> [HourlyPoint] {
        let time = try columns.times()
        let temperature = try columns.temperatures("temperature_2m")
        let chance = try columns.numbers("precipitation_probability")
        let precipitation = try columns.precipitation("precipitation")
        let code = try columns.numbers("weather_code")
        let isDay = try columns.numbers("is_day")
        var points: [HourlyPoint] = []
        points.reserveCapacity(time.count)
        for i in time.indices {
            var point = HourlyPoint(time: try times.instant(time[i], at: columns.at("time", i)))
            point.temperature = temperature[i]
            point.precipitationChance = try chance[i].map { (v) throws(WeatherError) in
                try JSONFields.integer(v, at: columns.at("precipitation_probability", i))
            }
            point.precipitation = precipitation[i]
            if let value = code[i] {
                let wmo = try JSONFields.integer(value, at: columns.at("weather_code", i))
                point.condition = Condition(wmo: wmo, isNight: isDay[i] == 0)
            }
            points.append(point)
        }
        return points
    }

    private static func days(_ columns: Columns, times: LocalTimes) throws(WeatherError) -> [DailySummary] {
        let date = try columns.times()
        let code = try columns.numbers("weather_code")
        let high = try columns.temperatures("temperature_2m_max")
        let low = try columns.temperatures("temperature_2m_min")
        let chance = try columns.numbers("precipitation_probability_max")
        let sum = try columns.precipitation("precipitation_sum")
        let sunrise = try columns.strings("sunrise")
        let sunset = try columns.strings("sunset")
        var days: [DailySummary] = []
        for i in date.indices {
            guard let day = ISO8601.parse(date[i]), date[i].utf8.count == 10 else {
                throw .malformed("\(columns.at("time", i)): \"\(date[i])\" is not a date")
            }
            var summary = DailySummary(date: day.date, low: low[i], high: high[i], precipitation: sum[i])
            if let value = code[i] {
                summary.condition = Condition(wmo: try JSONFields.integer(value, at: columns.at("weather_code", i)), isNight: false)
            }
            summary.precipitationChance = try chance[i].map { (v) throws(WeatherError) in
                try JSONFields.integer(v, at: columns.at("precipitation_probability_max", i))
            }
            if let rise = sunrise[i], let set = sunset[i] {
                let up = try times.instant(rise, at: columns.at("sunrise", i))
                let down = try times.instant(set, at: columns.at("sunset", i))
                // Polar day and night come as 00:00 and the next 00:00, not null (open-meteo.com/en/docs): which of
                // the two it is, the sun calculation decides later.
                summary.sun = down - up >= .seconds(86_400) || down <= up ? .unknown : .times(sunrise: up, sunset: down)
            }
            days.append(summary)
        }
        return days
    }
}

/// Local `YYYY-MM-DDTHH:MM` → instant, with the body's one offset.
struct LocalTimes {
    let offset: Int

    func instant(_ text: String, at path: String) throws(WeatherError) -> WallTime {
        guard let local = ISO8601.parse(text) else { throw .malformed("\(path): \"\(text)\" is not a time") }
        return local.instant(offsetSeconds: offset)
    }
}

/// A `*_units` block: the unit string of each field, checked before a value is converted.
struct Units {
    let fields: JSONFields?

    init(_ fields: JSONFields?) { self.fields = fields }

    func unit(_ key: String) throws(WeatherError) -> String {
        guard let unit = try fields?.string(key) else {
            throw .malformed("\(fields?.path ?? "units"): no unit for \(key)")
        }
        return unit
    }

    func temperature(_ key: String, _ value: Double?) throws(WeatherError) -> Double? {
        guard let value else { return nil }
        let unit = try unit(key)
        guard let convert = UnitConversion.temperature(unit) else { throw unknown(unit, key) }
        return convert(value)
    }

    func speed(_ key: String, _ value: Double?) throws(WeatherError) -> Double? {
        try scaled(key, value, UnitConversion.speed)
    }

    func precipitation(_ key: String, _ value: Double?) throws(WeatherError) -> Double? {
        try scaled(key, value, UnitConversion.precipitation)
    }

    func pressure(_ key: String, _ value: Double?) throws(WeatherError) -> Double? {
        try scaled(key, value, UnitConversion.pressure)
    }

    private func scaled(_ key: String, _ value: Double?, _ factor: (String) -> Double?) throws(WeatherError) -> Double? {
        guard let value else { return nil }
        let unit = try unit(key)
        guard let factor = factor(unit) else { throw unknown(unit, key) }
        return value * factor
    }

    private func unknown(_ unit: String, _ key: String) -> WeatherError {
        .malformed("\(fields?.path ?? "units").\(key): unknown unit \"\(unit)\"")
    }
}

/// A columnar block: parallel arrays that must all be as long as `time`.
struct Columns {
    let block: JSONFields
    let units: Units
    let count: Int

    init(_ block: JSONFields, units: Units) throws(WeatherError) {
        guard let time = try block.array("time") else { throw .malformed("\(block.at("time")) is missing") }
        self.block = block
        self.units = units
        count = time.count
    }

    func at(_ key: String, _ index: Int) -> String { "\(block.at(key))[\(index)]" }

    func times() throws(WeatherError) -> [String] {
        try strings("time").enumerated().map { (i, text) throws(WeatherError) in
            guard let text else { throw .malformed("\(at("time", i)) is null") }
            return text
        }
    }

    /// The column, or all-nil when the block does not have it (the request may not ask for it).
    func numbers(_ key: String) throws(WeatherError) -> [Double?] {
        guard let items = try column(key) else { return Array(repeating: nil, count: count) }
        return try JSONFields.numbers(items, at: block.at(key))
    }

    func strings(_ key: String) throws(WeatherError) -> [String?] {
        guard let items = try column(key) else { return Array(repeating: nil, count: count) }
        return try items.enumerated().map { (i, item) throws(WeatherError) -> String? in
            switch item {
            case .null: return nil
            case .string(let text): return text
            default: throw .malformed("\(at(key, i)): expected a string, found \(item.kindDescription)")
            }
        }
    }

    func temperatures(_ key: String) throws(WeatherError) -> [Double?] {
        try numbers(key).map { (value) throws(WeatherError) in try units.temperature(key, value) }
    }

    func precipitation(_ key: String) throws(WeatherError) -> [Double?] {
        try numbers(key).map { (value) throws(WeatherError) in try units.precipitation(key, value) }
    }

    private func column(_ key: String) throws(WeatherError) -> [JSONValue]? {
        guard let items = try block.array(key) else { return nil }
        guard items.count == count else {
            throw .malformed("\(block.at(key)) has \(items.count) values for \(count) times")
        }
        return items
    }
}

import HAL
import JSON

/// MET Norway's compact GeoJSON → `WeatherReport` (api.met.no's Locationforecast documentation; docs/design/parts.md#the-weather-service): a `Feature` whose
/// `properties.timeseries` holds hourly, later 6-hourly, steps in UTC; each step has the
/// `instant` values and optional `next_1_hours` / `next_6_hours` / `next_12_hours` periods
/// (absent when the step is longer than the period; `details` may be `{}`).
enum METNorwayDecoder {
    static func report(_ body: [UInt8], receivedAt: WallTime, zone: ZoneRules) throws(WeatherError) -> WeatherReport {
        let root = try JSONFields.document(body)
        guard let geometry = try root.object("geometry"), let coordinates = try geometry.array("coordinates"),
            coordinates.count >= 2
        else { throw .malformed("geometry.coordinates is missing") }
        let longitude = try JSONFields.number(coordinates[0], at: "geometry.coordinates[0]")
        let latitude = try JSONFields.number(coordinates[1], at: "geometry.coordinates[1]")
        let altitude = coordinates.count > 2 ? try JSONFields.number(coordinates[2], at: "geometry.coordinates[2]") : nil
        guard (try? Coordinate(latitude: latitude, longitude: longitude)) != nil else {
            throw .malformed("geometry.coordinates \(longitude), \(latitude) out of range")
        }
        guard let properties = try root.object("properties"), let series = try properties.array("timeseries") else {
            throw .malformed("properties.timeseries is missing")
        }
        try checkUnits(try properties.object("meta")?.object("units"))
        var steps: [Step] = []
        steps.reserveCapacity(series.count)
        for (index, item) in series.enumerated() {
            steps.append(try Step(try JSONFields(item, path: "properties.timeseries[\(index)]")))
        }
        steps.sort { $0.time < $1.time }
        var report = WeatherReport(
            provider: .metNorway, latitude: latitude, longitude: longitude, elevation: altitude, fetchedAt: receivedAt,
            current: nil)
        // "Now" is the last step that has begun; before the first one, the first.
        if let now = steps.last(where: { $0.time <= receivedAt }) ?? steps.first {
            report.current = CurrentConditions(
                time: now.time, temperature: now.temperature, humidity: now.humidity, pressure: now.pressure,
                cloudCover: now.cloudCover, windSpeed: now.windSpeed, windDirection: now.windDirection,
                condition: now.nextHour?.condition ?? now.nextSixHours?.condition)
        }
        report.hours = steps.compactMap { step in
            step.nextHour.map {
                HourlyPoint(time: step.time, temperature: step.temperature, precipitation: $0.precipitation, condition: $0.condition)
            }
        }
        // The barograph takes every step's pressure, the 6-hourly ones too; the "next two hours"
        // line the steps that have a next-hour period (absent past the hourly steps: MET's
        // `ForecastJSON.md`, "will not exist for all time steps").
        report.pressures = steps.map { PressurePoint(time: $0.time, hectopascals: $0.pressure) }
        report.nowcast = steps.compactMap { step in
            step.nextHour.map {
                NowcastStep(start: step.time, length: NowcastStep.hour, precipitation: $0.precipitation, condition: $0.condition)
            }
        }
        report.days = days(steps, zone: zone)
        report.computeMissingSunTimes(utcOffsetSeconds: zone.offset(at: receivedAt))
        return report
    }

    /// Only the compact product's units are accepted; a change would otherwise be shown as is.
    private static func checkUnits(_ units: JSONFields?) throws(WeatherError) {
        guard let units else { return }
        let expected = [
            "air_temperature": "celsius", "wind_speed": "m/s", "precipitation_amount": "mm",
            "air_pressure_at_sea_level": "hPa", "relative_humidity": "%",
        ]
        for (key, unit) in expected.sorted(by: { $0.key < $1.key }) {
            if let found = try units.string(key), found != unit {
                throw .malformed("\(units.at(key)): unexpected unit \"\(found)\" (expected \"\(unit)\")")
            }
        }
    }

    /// Local days: lows and highs of the instants, the sum of the precipitation periods that
    /// tile the day (1-hour periods while the steps are hourly, then 6-hour ones), and the
    /// symbol of the 6-hour period nearest midday, drawn as day.
    private static func days(_ steps: [Step], zone: ZoneRules) -> [DailySummary] {
        var days: [DailySummary] = []
        var middayDistance = Int.max
        for (index, step) in steps.enumerated() {
            let local = CivilDateTime(step.time, offsetSeconds: zone.offset(at: step.time))
            if days.last?.date != local.date {
                days.append(DailySummary(date: local.date))
                middayDistance = Int.max
            }
            var day = days.removeLast()
            if let t = step.temperature {
                day.low = min(day.low ?? t, t)
                day.high = max(day.high ?? t, t)
            }
            let next = index + 1 < steps.count ? steps[index + 1].time : nil
            let stepLength = next.map { $0 - step.time } ?? .seconds(3600)
            let period = stepLength >= .seconds(6 * 3600) ? step.nextSixHours : step.nextHour ?? step.nextSixHours
            if let amount = period?.precipitation { day.precipitation = (day.precipitation ?? 0) + amount }
            if let six = step.nextSixHours?.condition {
                let distance = abs(local.hour * 60 + local.minute + 180 - 12 * 60)
                if distance < middayDistance {
                    middayDistance = distance
                    day.condition = Condition(group: six.group, isNight: false, code: six.code)
                }
            }
            days.append(day)
        }
        return days
    }

    /// One step of the time series.
    struct Step {
        struct Period {
            var condition: Condition?
            var precipitation: Double?
        }

        var time: WallTime
        var temperature: Double?
        var humidity: Double?
        var pressure: Double?
        var cloudCover: Double?
        var windSpeed: Double?
        var windDirection: Double?
        var nextHour: Period?
        var nextSixHours: Period?

        init(_ fields: JSONFields) throws(WeatherError) {
            guard let text = try fields.string("time"), let utc = ISO8601.parse(text), text.hasSuffix("Z") else {
                throw .malformed("\(fields.at("time")) is missing or not a UTC time")
            }
            time = utc.instant(offsetSeconds: 0)
            guard let data = try fields.object("data") else { throw .malformed("\(fields.at("data")) is missing") }
            if let details = try data.object("instant")?.object("details") {
                temperature = try details.number("air_temperature")
                humidity = try details.number("relative_humidity")
                pressure = try details.number("air_pressure_at_sea_level")
                cloudCover = try details.number("cloud_area_fraction")
                windSpeed = try details.number("wind_speed")
                windDirection = try details.number("wind_from_direction")
            }
            nextHour = try Step.period(try data.object("next_1_hours"))
            nextSixHours = try Step.period(try data.object("next_6_hours"))
        }

        private static func period(_ block: JSONFields?) throws(WeatherError) -> Period? {
            guard let block else { return nil }
            var period = Period()
            if let symbol = try block.object("summary")?.string("symbol_code") {
                period.condition = Condition(metSymbol: symbol)
            }
            period.precipitation = try block.object("details")?.number("precipitation_amount")
            return period
        }
    }
}

import HAL
import JSON
import Weather

/// `weather fetch --json`: the normalised model, SI units named in the keys, times in UTC.
enum WeatherJSON {
    static func document(_ report: WeatherReport) -> String {
        var fields: [String] = [
            "\"provider\":\"\(report.provider.rawValue)\"",
            "\"latitude\":\(number(report.latitude, 4))", "\"longitude\":\(number(report.longitude, 4))",
            "\"elevation_m\":\(optional(report.elevation, 0))", "\"fetched_at\":\"\(utc(report.fetchedAt))\"",
            "\"utc_offset_seconds\":\(report.utcOffsetSeconds)",
            "\"timezone\":\(report.timeZone.map { JSONText.quoted($0) } ?? "null")",
            "\"attribution\":\"\(report.provider.attribution)\"",
        ]
        fields.append("\"current\":" + (report.current.map(current) ?? "null"))
        fields.append("\"hourly\":[" + report.hours.map(hour).joined(separator: ",") + "]")
        fields.append("\"daily\":[" + report.days.map(day).joined(separator: ",") + "]")
        return "{" + fields.joined(separator: ",") + "}"
    }

    private static func current(_ now: CurrentConditions) -> String {
        "{\"time\":\"\(utc(now.time))\",\"temperature_c\":\(optional(now.temperature, 2))"
            + ",\"apparent_temperature_c\":\(optional(now.apparentTemperature, 2))"
            + ",\"humidity_pct\":\(optional(now.humidity, 1)),\"precipitation_mm\":\(optional(now.precipitation, 2))"
            + ",\"pressure_hpa\":\(optional(now.pressure, 1)),\"cloud_cover_pct\":\(optional(now.cloudCover, 1))"
            + ",\"wind_speed_ms\":\(optional(now.windSpeed, 2)),\"wind_direction_deg\":\(optional(now.windDirection, 0))"
            + ",\"wind_gusts_ms\":\(optional(now.windGusts, 2)),\(condition(now.condition))}"
    }

    private static func hour(_ point: HourlyPoint) -> String {
        "{\"time\":\"\(utc(point.time))\",\"temperature_c\":\(optional(point.temperature, 2))"
            + ",\"precipitation_probability_pct\":\(point.precipitationChance.map(String.init) ?? "null")"
            + ",\"precipitation_mm\":\(optional(point.precipitation, 2)),\(condition(point.condition))}"
    }

    private static func day(_ day: DailySummary) -> String {
        var sun = "\"sunrise\":null,\"sunset\":null,\"sun\":"
        switch day.sun {
        case .unknown: sun += "null"
        case .polarNight: sun += "\"polar-night\""
        case .midnightSun: sun += "\"midnight-sun\""
        case .times(let rise, let set):
            sun = "\"sunrise\":\"\(utc(rise))\",\"sunset\":\"\(utc(set))\",\"sun\":\"rises-and-sets\""
        }
        return "{\"date\":\"\(day.date)\",\"low_c\":\(optional(day.low, 2)),\"high_c\":\(optional(day.high, 2))"
            + ",\"precipitation_probability_pct\":\(day.precipitationChance.map(String.init) ?? "null")"
            + ",\"precipitation_mm\":\(optional(day.precipitation, 2)),\(sun),\(condition(day.condition))}"
    }

    private static func condition(_ condition: Condition?) -> String {
        guard let condition else { return "\"condition\":null" }
        return "\"condition\":{\"group\":\"\(condition.group.rawValue)\",\"night\":\(condition.isNight),\"code\":\(JSONText.quoted(condition.code))}"
    }

    static func utc(_ time: WallTime) -> String { CivilDateTime(time, offsetSeconds: 0).description + "Z" }

    private static func number(_ value: Double, _ places: Int) -> String { DecimalText.text(value, places: places) }

    private static func optional(_ value: Double?, _ places: Int) -> String { value.map { number($0, places) } ?? "null" }
}

/// `weather fetch` without `--json`: a few lines a person reads, in the units asked for and
/// the local time of the place.
enum WeatherSummary {
    static func text(_ report: WeatherReport, zone: ZoneRules, units: RequestUnits) -> String {
        var lines = [
            "\(report.provider.rawValue) for \(DecimalText.text(report.latitude, places: 2)), "
                + "\(DecimalText.text(report.longitude, places: 2)) · times in \(zone.identifier) (\(zone.abbreviation(at: report.fetchedAt))) · fetched \(clock(report.fetchedAt, zone))"
        ]
        if let now = report.current {
            var line = "now      \(temperature(now.temperature, units))  \(name(now.condition))"
            if let feels = now.apparentTemperature { line += "  feels \(temperature(feels, units))" }
            if let humidity = now.humidity { line += "  \(DecimalText.text(humidity, places: 0)) %" }
            if let wind = now.windSpeed { line += "  wind \(speed(wind, units))" }
            if let pressure = now.pressure { line += "  \(DecimalText.text(pressure, places: 0)) hPa" }
            lines.append(line)
        }
        let upcoming = report.upcomingHours(after: report.fetchedAt, limit: 6)
        if !upcoming.isEmpty {
            lines.append("next     " + upcoming.map { point in
                "\(clock(point.time, zone)) \(temperature(point.temperature, units))"
                    + (point.precipitationChance.map { " \($0)%" } ?? "")
            }.joined(separator: "  "))
        }
        for day in report.days.prefix(3) {
            var line = "\(day.date)  \(temperature(day.low, units)) … \(temperature(day.high, units))  \(name(day.condition))"
            if let chance = day.precipitationChance { line += "  \(chance) %" }
            if let amount = day.precipitation {
                line += units == .imperial ? "  \(DecimalText.text(amount / 25.4, places: 2)) in" : "  \(DecimalText.text(amount, places: 1)) mm"
            }
            if case .times(let rise, let set) = day.sun { line += "  sun \(clock(rise, zone))–\(clock(set, zone))" }
            lines.append(line)
        }
        lines.append(report.provider.attribution)
        return lines.joined(separator: "\n")
    }

    private static func clock(_ time: WallTime, _ zone: ZoneRules) -> String {
        let local = localTime(time, in: zone)
        return "\(local.hour < 10 ? "0" : "")\(local.hour):\(local.minute < 10 ? "0" : "")\(local.minute)"
    }

    private static func temperature(_ celsius: Double?, _ units: RequestUnits) -> String {
        guard let celsius else { return "--" }
        return units == .imperial ? "\(DecimalText.text(celsius * 9 / 5 + 32, places: 0)) °F" : "\(DecimalText.text(celsius, places: 0)) °C"
    }

    private static func speed(_ metresPerSecond: Double, _ units: RequestUnits) -> String {
        units == .imperial
            ? "\(DecimalText.text(metresPerSecond * 2.236_936, places: 0)) mph" : "\(DecimalText.text(metresPerSecond * 3.6, places: 0)) km/h"
    }

    private static func name(_ condition: Condition?) -> String {
        condition.map { $0.group.rawValue + ($0.isNight ? " (night)" : "") } ?? "--"
    }
}

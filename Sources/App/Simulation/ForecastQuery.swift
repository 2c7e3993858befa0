import Weather

/// A `/v1/forecast` request as `SimulatedOpenMeteo` reads it: the query parameters Open-Meteo
/// documents (open-meteo.com/en/docs; docs/design/parts.md#the-weather-service) that the simulation answers,
/// checked the way the real service checks them, so that a request the real service would
/// refuse with 400 is refused here too rather than answered.
struct ForecastQuery: Sendable, Equatable {
    enum TemperatureUnit: String, Sendable { case celsius, fahrenheit }
    enum WindSpeedUnit: String, Sendable { case kmh, ms, mph, kn }
    enum PrecipitationUnit: String, Sendable { case mm, inch }

    var latitude: Double
    var longitude: Double
    var current: [String] = []
    var hourly: [String] = []
    var daily: [String] = []
    var minutely15: [String] = []
    /// `auto` (the simulation's one zone), `UTC`/`GMT`, or that zone's own name; nil when the
    /// request names none, and then every time is GMT (§2: daily values need a zone).
    var timezone: String?
    /// 0…16, default 7.
    var forecastDays = 7
    /// With it, the hourly block starts at the current hour (§2); without it, at local midnight.
    var forecastHours: Int?
    /// Days before today, for the daily block and, without `past_hours`/`forecast_hours`, the
    /// hourly one (0…92, the forecast API's `pastDaysMax`).
    var pastDays = 0
    /// Hours before the current one. With either of the two hourly counts the server's
    /// `getTimerange2` (`ForecastapiQuery.swift`) starts at the current hour minus `past_hours`
    /// and, when `forecast_hours` is absent, runs 16 days (`forecastDaysMax * 24`) ahead.
    var pastHours: Int?
    /// The same for the 15-minute block, from the current 15-minute step; without either count
    /// it is three days from local midnight.
    var pastMinutely15: Int?
    var forecastMinutely15: Int?
    var temperatureUnit = TemperatureUnit.celsius
    var windSpeedUnit = WindSpeedUnit.kmh
    var precipitationUnit = PrecipitationUnit.mm

    /// The variables of each block that the simulation computes.
    static let currentVariables: Set<String> = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "is_day", "precipitation", "weather_code",
        "cloud_cover", "pressure_msl", "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m",
    ]
    static let hourlyVariables = currentVariables.union(["precipitation_probability"])
    /// Open-Meteo's 15-minute variables that the simulation computes (open-meteo.com/en/docs,
    /// "15-Minutely Weather Variables").
    static let minutely15Variables: Set<String> = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "precipitation", "rain", "snowfall",
        "weather_code", "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m", "is_day",
    ]
    static let dailyVariables: Set<String> = [
        "weather_code", "temperature_2m_max", "temperature_2m_min", "sunrise", "sunset", "precipitation_sum",
        "precipitation_probability_max", "wind_speed_10m_max",
    ]

    /// Why a request is refused: the HTTP status and Open-Meteo's `reason`.
    struct Refusal: Error, Sendable, Equatable {
        var status: Int
        var reason: String
    }

    /// Reads `url`: `…/v1/forecast?name=value&…`, values percent-encoded. A path other than
    /// `/v1/forecast` is a 404; a missing or malformed parameter a 400 with the reason the real
    /// service gives where known (the corpus's `open-meteo-error.json` for an unknown variable).
    static func parse(url: String) throws(Refusal) -> ForecastQuery {
        let parts = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts[0].hasSuffix("/v1/forecast") else { throw Refusal(status: 404, reason: "Not Found") }
        var parameters: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                parameters[percentDecoded(nameValue[0])] = nameValue.count == 2 ? percentDecoded(nameValue[1]) : ""
            }
        }
        var query = ForecastQuery(
            latitude: try coordinate(parameters["latitude"], key: "latitude", limit: 90),
            longitude: try coordinate(parameters["longitude"], key: "longitude", limit: 180))
        query.current = try variables(parameters["current"], key: "current", known: currentVariables)
        query.hourly = try variables(parameters["hourly"], key: "hourly", known: hourlyVariables)
        query.daily = try variables(parameters["daily"], key: "daily", known: dailyVariables)
        query.minutely15 = try variables(parameters["minutely_15"], key: "minutely_15", known: minutely15Variables)
        query.timezone = parameters["timezone"]
        if let text = parameters["forecast_days"] {
            guard let days = Int(text), (0...16).contains(days) else {
                throw Refusal(status: 400, reason: "Forecast days is invalid. Allowed range 0 to 16.")
            }
            query.forecastDays = days
        }
        if let text = parameters["forecast_hours"] {
            guard let hours = Int(text), hours >= 0, hours <= 16 * 24 else {
                throw Refusal(status: 400, reason: "Forecast hours is invalid. Allowed range 0 to 384.")
            }
            query.forecastHours = hours
        }
        try query.readPastAndMinutely(parameters)
        query.temperatureUnit = try unit(parameters["temperature_unit"], key: "temperature_unit", default: .celsius)
        query.windSpeedUnit = try unit(parameters["wind_speed_unit"], key: "wind_speed_unit", default: .kmh)
        query.precipitationUnit = try unit(parameters["precipitation_unit"], key: "precipitation_unit", default: .mm)
        return query
    }

    private static func coordinate(_ text: String?, key: String, limit: Double) throws(Refusal) -> Double {
        guard let text, let value = Double(text), value.isFinite else {
            throw Refusal(status: 400, reason: "Value of type 'Float' required for key '\(key)'.")
        }
        guard abs(value) <= limit else {
            let name = key == "latitude" ? "Latitude" : "Longitude"
            throw Refusal(
                status: 400,
                reason: "\(name) must be in range of -\(Int(limit)) to \(Int(limit))°. Given: \(value).")
        }
        return value
    }

    private static func variables(_ text: String?, key: String, known: Set<String>) throws(Refusal) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        let names = text.split(separator: ",").map(String.init)
        if let unknown = names.first(where: { !known.contains($0) }) {
            throw Refusal(status: 400, reason: "Cannot initialize WeatherVariable from invalid String value \(unknown) for key \(key)")
        }
        return names
    }

    private static func unit<Unit: RawRepresentable<String>>(_ text: String?, key: String, default value: Unit)
        throws(Refusal) -> Unit
    {
        guard let text else { return value }
        guard let unit = Unit(rawValue: text) else {
            throw Refusal(
                status: 400, reason: "Cannot initialize \(Unit.self) from invalid String value \(text) for key \(key)")
        }
        return unit
    }

    /// `past_days`, `past_hours` and the two 15-minute counts, refused out of range as the
    /// server refuses them (`ForecastapiError.pastDaysInvalid`, `.forecastDaysInvalid`).
    private mutating func readPastAndMinutely(_ parameters: [String: String]) throws(Refusal) {
        func count(_ key: String, max: Int, past: Bool) throws(Refusal) -> Int? {
            guard let text = parameters[key] else { return nil }
            guard let value = Int(text), value >= 0, value <= max else {
                let what = past ? "Past days" : "Forecast days"
                throw Refusal(status: 400, reason: "\(what) is invalid. Allowed range 0 to \(max). Given \(text).")
            }
            return value
        }
        pastDays = try count("past_days", max: 92, past: true) ?? 0
        pastHours = try count("past_hours", max: 92 * 24, past: true)
        pastMinutely15 = try count("past_minutely_15", max: 92 * 96, past: true)
        forecastMinutely15 = try count("forecast_minutely_15", max: 16 * 96, past: false)
    }

    /// `%2C` → `,` and `+` → space; a malformed escape stays as it is.
    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "%"), input.count >= 2, let high = hex(input[input.startIndex]),
                let low = hex(input[input.startIndex + 1])
            {
                bytes.append(high << 4 | low)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

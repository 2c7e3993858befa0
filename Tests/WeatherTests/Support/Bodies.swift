import HAL
import Weather

/// Small answers built by the tests themselves, so the repository scenarios do not depend on
/// the corpus (whose own tests are reported skipped without it).
enum Bodies {
    /// A 200 from Open-Meteo for Berlin at 2026-01-01 (the virtual clock's default day), with
    /// `temperature` now and three hours.
    static func openMeteo(temperature: Double = 5.5) -> HTTPResponse {
        let body = """
            {"latitude":52.52,"longitude":13.419998,"generationtime_ms":0.1,"utc_offset_seconds":3600,\
            "timezone":"Europe/Berlin","timezone_abbreviation":"GMT+1","elevation":38.0,\
            "current_units":{"time":"iso8601","interval":"seconds","temperature_2m":"°C","is_day":"","weather_code":"wmo code"},\
            "current":{"time":"2026-01-01T01:00","interval":900,"temperature_2m":\(temperature),"is_day":0,"weather_code":1},\
            "hourly_units":{"time":"iso8601","temperature_2m":"°C","weather_code":"wmo code"},\
            "hourly":{"time":["2026-01-01T01:00","2026-01-01T02:00","2026-01-01T03:00"],\
            "temperature_2m":[\(temperature),4.0,3.5],"weather_code":[1,2,3]},\
            "daily_units":{"time":"iso8601","temperature_2m_max":"°C","temperature_2m_min":"°C","sunrise":"iso8601","sunset":"iso8601"},\
            "daily":{"time":["2026-01-01"],"temperature_2m_max":[6.0],"temperature_2m_min":[-1.0],\
            "sunrise":["2026-01-01T08:17"],"sunset":["2026-01-01T16:02"]}}
            """
        return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(body.utf8))
    }

    static func status(_ status: Int, _ body: String = "") -> HTTPResponse {
        HTTPResponse(status: status, body: Array(body.utf8))
    }

    static let berlin = try! Coordinate(latitude: 52.5163, longitude: 13.4069)
}

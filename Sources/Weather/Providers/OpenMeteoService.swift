import HAL
import JSON

/// Open-Meteo `/v1/forecast` (open-meteo.com/en/docs; docs/design/parts.md#the-weather-service): no key, one call for current, hourly
/// and daily values, local times for the place (`timezone=auto`). Free for non-commercial use
/// under 10,000 calls a day; the repository's 15-minute cadence makes ~96.
public struct OpenMeteoService: WeatherService {
    public var baseURL: String
    public var identity: ClientIdentity
    public var timeout: Duration
    /// Today, tomorrow and the day after (the days screen shows three).
    public var forecastDays: Int

    public init(
        baseURL: String = "https://api.open-meteo.com", identity: ClientIdentity, timeout: Duration = .seconds(20),
        forecastDays: Int = 3
    ) {
        self.baseURL = baseURL
        self.identity = identity
        self.timeout = timeout
        self.forecastDays = forecastDays
    }

    public var provider: WeatherProvider { .openMeteo }

    /// 9 + 4 + 6 = 19 variables: a call counts as 1.9 against the limits (over 10 variables a
    /// call counts vars/10), so 96 calls a day count as ~182 of the 10,000.
    static let currentVariables = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "is_day", "precipitation", "weather_code",
        "pressure_msl", "wind_speed_10m", "wind_direction_10m",
    ]
    static let hourlyVariables = ["temperature_2m", "precipitation_probability", "weather_code", "is_day"]
    static let dailyVariables = [
        "weather_code", "temperature_2m_max", "temperature_2m_min", "sunrise", "sunset", "precipitation_sum",
    ]

    public func request(for order: FetchOrder) -> HTTPRequest {
        let place = order.position.rounded(places: 2)
        var url = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        url += "/v1/forecast?latitude=\(DecimalText.text(place.latitude, places: 2))"
        url += "&longitude=\(DecimalText.text(place.longitude, places: 2))"
        url += "&current=" + Self.currentVariables.joined(separator: ",")
        url += "&hourly=" + Self.hourlyVariables.joined(separator: ",")
        url += "&daily=" + Self.dailyVariables.joined(separator: ",")
        // Daily values need a zone, or the days are GMT days (open-meteo.com/en/docs); `auto` picks the place's.
        url += "&timezone=auto&forecast_days=\(forecastDays)"
        if order.units == .imperial {
            url += "&temperature_unit=fahrenheit&wind_speed_unit=mph&precipitation_unit=inch"
        }
        return HTTPRequest(url: url, headers: [HTTPHeader("User-Agent", identity.userAgent)], timeout: timeout)
    }

    public func decode(_ response: HTTPResponse, for order: FetchOrder, receivedAt: WallTime)
        -> Result<FetchOutcome, WeatherError>
    {
        do throws(WeatherError) {
            guard response.status == 200 else { throw Self.error(for: response, receivedAt: receivedAt) }
            let report = try OpenMeteoDecoder.report(response.body, receivedAt: receivedAt)
            return .success(.report(report, .none))
        } catch {
            return .failure(error)
        }
    }

    /// A refusal, with the reason of Open-Meteo's error object `{"error":true,"reason":"…"}`.
    static func error(for response: HTTPResponse, receivedAt: WallTime) -> WeatherError {
        let reason = errorReason(response.body) ?? ""
        switch response.status {
        case 400, 404: return .badRequest(status: response.status, reason: reason.isEmpty ? "no reason given" : reason)
        case 403: return .forbidden(reason: reason.isEmpty ? "no reason given" : reason)
        case 429: return .rateLimited(reason: reason, wait: RateLimits.wait(reason: reason, response: response, receivedAt: receivedAt))
        case 500...599: return .serverError(status: response.status, reason: reason)
        default: return .unexpectedStatus(response.status)
        }
    }

    static func errorReason(_ body: [UInt8]) -> String? {
        guard case .success(.object(let members)) = JSONValue.parse(body), case .string(let reason)? = members["reason"]
        else { return nil }
        return reason
    }
}

/// Reading 429 answers.
enum RateLimits {
    /// Open-Meteo's reasons (`RateLimiter.swift`): "Minutely … in one minute", "Hourly … in the
    /// next hour", "Daily … tomorrow". `Retry-After` wins when present, in either RFC 9110 form
    /// (seconds, or an HTTP-date read against the server's own `Date`); an unknown reason waits
    /// a minute, the shortest limit window.
    static func wait(reason: String, response: HTTPResponse, receivedAt: WallTime) -> RateLimitWait {
        if let header = response.header("Retry-After") {
            let serverNow = response.header("Date").flatMap { HTTPDate.parse($0) } ?? receivedAt
            if let wait = HTTPDate.retryAfter(header, now: serverNow) { return .duration(max(wait, .seconds(1))) }
        }
        if reason.hasPrefix("Hourly") { return .nextHour }
        if reason.hasPrefix("Daily") { return .hourlyRetries }
        return .duration(.seconds(60))
    }
}

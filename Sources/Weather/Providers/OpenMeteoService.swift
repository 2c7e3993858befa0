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
    /// The hourly block runs from `pastHours` before the current hour to `forecastHours` after
    /// it: 48 hours of sea-level pressure behind "now" for the barograph (without a sensor, the
    /// only trend there is), and the screens' 48-hour horizon ahead (`RefreshPolicy.horizon`).
    ///
    /// Why `past_hours` and not `past_days`: the server (`ForecastapiQuery.swift`,
    /// `getTimerange2`) counts `past_days` from local midnight and applies it to the daily block
    /// too, so `past_days=2` gives 48 to 71 hours of history and two daily rows nobody reads;
    /// `past_hours=48` gives exactly 48. It must come with `forecast_hours`: alone, the server
    /// fills the forecast side with its maximum, 16 days (`forecastStepsDefault` =
    /// `forecastDaysMax * 24`).
    public var pastHours: Int
    public var forecastHours: Int
    /// 15-minute steps from the current one: 12 is three hours, so the "next two hours" still
    /// has its whole window from an answer three refreshes (45 minutes) old. Without the
    /// parameter the server sends three days from local midnight, 288 steps.
    public var nowcastSteps: Int

    public init(
        baseURL: String = "https://api.open-meteo.com", identity: ClientIdentity, timeout: Duration = .seconds(20),
        forecastDays: Int = 3, pastHours: Int = 48, forecastHours: Int = 48, nowcastSteps: Int = 12
    ) {
        self.baseURL = baseURL
        self.identity = identity
        self.timeout = timeout
        self.forecastDays = forecastDays
        self.pastHours = pastHours
        self.forecastHours = forecastHours
        self.nowcastSteps = nowcastSteps
    }

    public var provider: WeatherProvider { .openMeteo }

    /// 9 + 5 + 6 + 5 = 25 variables: a call counts as 2.5 against the limits (over 10 variables
    /// a call counts vars/10), so 96 calls a day count as 240 of the 10,000.
    static let currentVariables = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "is_day", "precipitation", "weather_code",
        "pressure_msl", "wind_speed_10m", "wind_direction_10m",
    ]
    static let hourlyVariables = ["temperature_2m", "precipitation_probability", "weather_code", "is_day", "pressure_msl"]
    /// What the "next two hours" line reads; all five are 15-minute variables of
    /// the forecast API (open-meteo.com/en/docs, "15-Minutely Weather Variables").
    static let minutely15Variables = ["precipitation", "rain", "snowfall", "wind_gusts_10m", "weather_code"]
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
        url += "&past_hours=\(pastHours)&forecast_hours=\(forecastHours)"
        url += "&minutely_15=" + Self.minutely15Variables.joined(separator: ",") + "&forecast_minutely_15=\(nowcastSteps)"
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

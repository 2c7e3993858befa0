import HAL

/// MET Norway Locationforecast 2.0 `compact` (api.met.no's Locationforecast documentation; docs/design/parts.md#the-weather-service): free, no commercial
/// restriction, CC BY 4.0. Its terms are stricter than Open-Meteo's: an identifying User-Agent
/// (403 without), at most 4 decimals, no new request before `Expires`, then `If-Modified-Since`
/// with the stored `Last-Modified` so an unchanged forecast costs a 304. Times are UTC; days
/// are cut in `zone`, the device's own, because the service names none.
public struct METNorwayService: WeatherService {
    public var baseURL: String
    public var identity: ClientIdentity
    public var timeout: Duration
    public var zone: ZoneRules

    public init(
        baseURL: String = "https://api.met.no", identity: ClientIdentity, timeout: Duration = .seconds(20),
        zone: ZoneRules = .utc
    ) {
        self.baseURL = baseURL
        self.identity = identity
        self.timeout = timeout
        self.zone = zone
    }

    public var provider: WeatherProvider { .metNorway }

    public func request(for order: FetchOrder) -> HTTPRequest {
        // More than 4 decimals is refused (403 by the terms, "400" by the getting-started page).
        let place = order.position.rounded(places: 4)
        var url = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        url += "/weatherapi/locationforecast/2.0/compact?lat=\(DecimalText.text(place.latitude, places: 4))"
        url += "&lon=\(DecimalText.text(place.longitude, places: 4))"
        var headers = [HTTPHeader("User-Agent", identity.userAgent)]
        if let lastModified = order.validators.lastModified {
            headers.append(HTTPHeader("If-Modified-Since", lastModified))
        }
        return HTTPRequest(url: url, headers: headers, timeout: timeout)
    }

    public func decode(_ response: HTTPResponse, for order: FetchOrder, receivedAt: WallTime)
        -> Result<FetchOutcome, WeatherError>
    {
        do throws(WeatherError) {
            switch response.status {
            // 203: the product is deprecated or in beta; the data are still good.
            case 200, 203:
                let report = try METNorwayDecoder.report(response.body, receivedAt: receivedAt, zone: zone)
                return .success(.report(report, Self.validators(response, receivedAt: receivedAt)))
            case 304:
                var validators = Self.validators(response, receivedAt: receivedAt)
                validators.lastModified = validators.lastModified ?? order.validators.lastModified
                return .success(.notModified(validators))
            case 400, 404: throw WeatherError.badRequest(status: response.status, reason: Self.reason(response))
            case 403: throw WeatherError.forbidden(reason: Self.reason(response))
            case 429:
                throw WeatherError.rateLimited(
                    reason: "throttled", wait: RateLimits.wait(reason: "", response: response, receivedAt: receivedAt))
            case 500...599: throw WeatherError.serverError(status: response.status, reason: "")
            default: throw WeatherError.unexpectedStatus(response.status)
            }
        } catch {
            return .failure(error)
        }
    }

    /// `Last-Modified` verbatim, and `Expires` as a duration from `Date` (both the server's
    /// clock), so a device whose own clock is off still waits as long as asked. Capped at 6 h:
    /// a bogus far-future `Expires` must not silence the device for days.
    static func validators(_ response: HTTPResponse, receivedAt: WallTime) -> CacheValidators {
        var validators = CacheValidators(lastModified: response.header("Last-Modified"))
        if let expiresText = response.header("Expires"), let expires = HTTPDate.parse(expiresText) {
            let sent = response.header("Date").flatMap { HTTPDate.parse($0) } ?? receivedAt
            let wait = expires - sent
            validators.freshFor = min(max(wait, .zero), .seconds(6 * 3600))
        }
        return validators
    }

    /// MET's error bodies are HTML or plain text; the first line, kept short, says enough.
    static func reason(_ response: HTTPResponse) -> String {
        let text = String(decoding: response.body.prefix(160), as: UTF8.self)
        let line = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).first.map(String.init) ?? ""
        return line.isEmpty || line.hasPrefix("<") ? "no reason given" : line
    }
}

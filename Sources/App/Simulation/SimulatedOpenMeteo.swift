import HAL
import Weather

/// The simulated twin of Open-Meteo's `/v1/forecast`: an `HTTPTransport` that answers the
/// requests `OpenMeteoService` builds with a body in the real format, so that the real decoder
/// reads it and the whole weather path — request, transport, decoder, repository, screens — runs
/// in tests and in `simulate` without a network.
///
/// The request's URL is read as the service reads it (`ForecastQuery`): position, the
/// variables of each block (`minutely_15` too), `timezone`, `forecast_days`, `past_days`, the
/// hourly and 15-minute past and forecast counts, and the three unit parameters; what the
/// service would refuse gets its 400 with `{"error":true,"reason":…}`.
/// The values come from `SimulatedClimate`: deterministic in (position, time, seed), with a
/// diurnal curve, sun, rain and snow that follow the latitude and the season, and a front
/// through the pressure on every wet day.
///
/// The simulation has one zone, the one given to `init`: `timezone=auto` (Open-Meteo's "the
/// zone of the coordinates") answers with it wherever the position is, so a test picks the zone
/// that goes with the place it asks about. Local times use the zone's offset at `now()` for the
/// whole body, as the real service does (open-meteo.com/en/docs; docs/design/parts.md#the-weather-service).
public struct SimulatedOpenMeteo: HTTPTransport, Sendable {
    /// The civil time of the answer: a test's or the simulation's virtual clock.
    public var now: @Sendable () -> WallTime
    public var zone: ZoneRules
    /// The IANA name written as `timezone` (`Europe/Berlin`).
    public var zoneName: String
    /// Another seed, another weather; the same seed, the same weather.
    public var seed: UInt64
    /// A scripted low in the pressure it answers with (`SimulatedStorm`).
    public var storm: SimulatedStorm?
    /// False while the simulated network is down: every request then fails as it does on a
    /// device whose Wi-Fi is gone.
    public var isReachable = true
    /// True while the service refuses this device with 429 (Open-Meteo's daily quota used up,
    /// as a device sharing an address with others sees it): every reachable request gets the
    /// answer the real service gives, in its words (open-meteo/open-meteo on GitHub, `RateLimiter.swift`).
    public var isRateLimited = false
    /// Every `send`, answered or not: how often the device tried.
    public private(set) var requestCount = 0

    public init(now: @escaping @Sendable () -> WallTime, zone: ZoneRules, zoneName: String, seed: UInt64 = 1) {
        self.now = now
        self.zone = zone
        self.zoneName = zoneName
        self.seed = seed
    }

    /// With the network down, the failure a real transport gives: with no route, the name
    /// lookup is the first thing to fail, and `SocketTransport` reports glibc's `EAI_AGAIN` as
    /// `.hostNotFound` (`Wire.lookupFailure`), as `CurlTransport` reports
    /// `CURLE_COULDNT_RESOLVE_HOST`.
    public static let networkDown = TransportError(
        .hostNotFound, "cannot resolve the name (Temporary failure in name resolution): the simulated network is down")

    public mutating func send(_ request: HTTPRequest) -> Result<HTTPResponse, TransportError> {
        requestCount += 1
        guard isReachable else { return .failure(Self.networkDown) }
        if isRateLimited { return .success(Self.refusal(.init(status: 429, reason: Self.dailyLimit))) }
        let query: ForecastQuery
        do throws(ForecastQuery.Refusal) {
            query = try ForecastQuery.parse(url: request.url)
        } catch {
            return .success(Self.refusal(error))
        }
        let time = now()
        let offset: Int, timezone: String
        switch query.timezone {
        case nil, "GMT", "UTC":
            (offset, timezone) = (0, "GMT")
        case "auto", zoneName:
            (offset, timezone) = (zone.offset(at: time), zoneName)
        case let other?:
            return .success(Self.refusal(.init(status: 400, reason: "Invalid timezone \(other)")))
        }
        let body = OpenMeteoBody(
            query: query, climate: SimulatedClimate(latitude: query.latitude, longitude: query.longitude, seed: seed, storm: storm),
            now: time, offset: offset, timezone: timezone, abbreviation: Self.abbreviation(offset))
        return .success(HTTPResponse(status: 200, headers: Self.headers, body: Array(body.json().utf8)))
    }

    /// Open-Meteo's reason for a used-up daily quota (`RateLimitWait.hourlyRetries`).
    static let dailyLimit = "Daily API request limit exceeded. Please try again tomorrow."

    static let headers = [HTTPHeader("Content-Type", "application/json; charset=utf-8")]

    static func refusal(_ refusal: ForecastQuery.Refusal) -> HTTPResponse {
        var reason = ""
        for scalar in refusal.reason.unicodeScalars {
            switch scalar {
            case "\"": reason += "\\\""
            case "\\": reason += "\\\\"
            case _ where scalar.value < 0x20: reason += "?"
            default: reason.unicodeScalars.append(scalar)
            }
        }
        return HTTPResponse(
            status: refusal.status, headers: headers, body: Array("{\"error\":true,\"reason\":\"\(reason)\"}".utf8))
    }

    /// `GMT+1`, `GMT-6`, `GMT+5:30`, `GMT`: the form of live answers (open-meteo.com/en/docs; docs/design/parts.md#the-weather-service:
    /// "GMT-4"-style; the docs' "CEST" is not what the server sends). Nobody should parse it.
    static func abbreviation(_ offset: Int) -> String {
        guard offset != 0 else { return "GMT" }
        let magnitude = abs(offset)
        var text = "GMT" + (offset < 0 ? "-" : "+") + String(magnitude / 3_600)
        if magnitude % 3_600 != 0 { text += ":" + OpenMeteoBody.twoDigits(magnitude % 3_600 / 60) }
        return text
    }
}

import HAL

/// Why a fetch gave no new weather, sorted by what to do about it ("errors by kind",
/// docs/design/parts.md#the-weather-service): a request the service refuses is a configuration problem and is
/// not retried; a rate limit waits as the service says; everything else backs off.
public enum WeatherError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 400 or 404: the request itself is wrong (a parameter, coordinates). Retrying sends the
    /// same request again, so the device waits for a configuration change instead.
    case badRequest(status: Int, reason: String)
    /// 403 (MET Norway: a missing or generic User-Agent, or a terms violation). Not retried.
    case forbidden(reason: String)
    /// 429: too many requests; `wait` is what the reason or `Retry-After` asks for.
    case rateLimited(reason: String, wait: RateLimitWait)
    /// 5xx: the service is down or overloaded.
    case serverError(status: Int, reason: String)
    /// A status no provider documents (a captive portal's 302, a proxy's 407).
    case unexpectedStatus(Int)
    /// No answer: timeout, no network, refused, TLS.
    case transport(TransportError)
    /// An answer that is not the documented JSON: empty, truncated, not JSON, wrong types, a
    /// unit the decoder does not know. The text says where.
    case malformed(String)

    /// One line for the log and the command line: the service's reason and the decoder's
    /// quotes of the body are untrusted text, so control characters become spaces and a long
    /// reason is cut (the fuzzer found a key with an escaped newline in it).
    public var description: String { WeatherError.oneLine(rawDescription, limit: 300) }

    /// The line without the wait a 429 asks for, for a caller that says when it really tries
    /// again: the repository waits longer than asked (its jitter) and names that delay itself,
    /// so its line has one "next try" and the right number. Every other error reads as
    /// `description`.
    public var cause: String {
        guard case .rateLimited(let reason, _) = self else { return description }
        return WeatherError.oneLine(Self.rateLimiting(reason), limit: 300)
    }

    private static func rateLimiting(_ reason: String) -> String {
        "the weather service is rate-limiting this device (HTTP 429)\(colon(reason))"
    }

    /// ": reason", or nothing when the service gave none (a 429 with only `Retry-After`).
    private static func colon(_ reason: String) -> String {
        reason.allSatisfy(\.isWhitespace) ? "" : ": \(reason)"
    }

    private var rawDescription: String {
        switch self {
        case .badRequest(let status, let reason):
            "the weather service refused the request (HTTP \(status)): \(reason); check the location and settings"
        case .forbidden(let reason):
            "the weather service forbids access (HTTP 403): \(reason); set a User-Agent with a contact address"
        case .rateLimited(let reason, let wait):
            "\(Self.rateLimiting(reason)); next try \(wait)"
        case .serverError(let status, let reason):
            "the weather service is unavailable (HTTP \(status))\(Self.colon(reason)); retrying with backoff"
        case .unexpectedStatus(let status):
            "the weather service answered HTTP \(status), which it never documents (a captive portal or proxy?)"
        case .transport(let error):
            "no answer from the weather service: \(error.detail)"
        case .malformed(let what):
            "the weather service answered nonsense: \(what)"
        }
    }

    static func oneLine(_ text: String, limit: Int) -> String {
        var line = ""
        for scalar in text.unicodeScalars {
            guard line.unicodeScalars.count < limit else { return line + "…" }
            line.unicodeScalars.append(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}" ? " " : scalar)
        }
        return line
    }

    /// A few words for the status screen.
    public var shortText: String {
        switch self {
        case .badRequest: "bad request"
        case .forbidden: "forbidden"
        case .rateLimited: "rate limited"
        case .serverError(let status, _): "server \(status)"
        case .unexpectedStatus(let status): "HTTP \(status)"
        case .transport(let error):
            switch error.kind {
            case .timeout: "timed out"
            case .connectionRefused: "refused"
            case .hostNotFound: "no network"
            case .tls:
                switch error.certificateTime {
                case .notYetValid: "cert not yet valid"
                case .expired: "cert expired"
                case nil: "TLS failed"
                }
            case .truncated: "cut off"
            case .tooLarge: "too large"
            case .unavailable: "no libcurl"
            case .other: "net error"
            }
        case .malformed: "bad answer"
        }
    }

    /// True when retrying the same request cannot help: the configuration must change.
    public var isConfigurationProblem: Bool {
        switch self {
        case .badRequest, .forbidden: true
        case .transport(let error): error.kind == .unavailable
        default: false
        }
    }
}

/// How long a 429 asks the device to wait. Open-Meteo says it in words ("Minutely API request
/// limit exceeded. Please try again in one minute." / "…in the next hour." / "…tomorrow."),
/// others in `Retry-After`.
public enum RateLimitWait: Sendable, Equatable, CustomStringConvertible {
    case duration(Duration)
    /// Until the start of the next UTC hour.
    case nextHour
    /// The daily quota: try again every hour until it is back.
    case hourlyRetries

    public var description: String {
        switch self {
        case .duration(let d): "in \(d.components.seconds) s"
        case .nextHour: "at the next full hour"
        case .hourlyRetries: "every hour until the daily limit resets"
        }
    }
}

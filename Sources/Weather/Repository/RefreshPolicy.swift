import HAL

/// When to ask, and how old data may get before the screens say so (docs/design/parts.md#the-weather-service).
/// The defaults (docs/design/parts.md#the-weather-service): every 15 minutes plus up to 2 minutes of jitter
/// (so a fleet of displays does not hit the service on the same second), failures backing off
/// from 1 minute, doubling, to 30, each ±20 %.
public struct RefreshPolicy: Sendable, Equatable {
    public var refreshInterval: Duration = .seconds(15 * 60)
    public var refreshJitter: Duration = .seconds(120)
    public var backoffStart: Duration = .seconds(60)
    public var backoffCap: Duration = .seconds(30 * 60)
    /// ± this fraction of each backoff delay.
    public var backoffJitter: Double = 0.2
    /// An early fetch needs the rounded position to move more than this, in degrees (~5 km)…
    public var moveThreshold: Double = 0.05
    /// …and this long since the last fetch began: never a fetch per GPS fix.
    public var moveMinimumInterval: Duration = .seconds(60)
    /// Older data are marked with their age.
    public var staleAfter: Duration = .seconds(3600)
    /// Older current conditions are blanked: a three-hour-old "now" misleads.
    public var blankRealtimeAfter: Duration = .seconds(3 * 3600)
    /// Older `current` values give way to the hourly forecast for this hour.
    public var currentFallbackAfter: Duration = .seconds(45 * 60)
    /// How far past the fetch the hourly forecast is shown; beyond it, "--".
    public var horizon: Duration = .seconds(48 * 3600)
    /// The disk copy is rewritten at most this often (flash wear: 24 small writes a day), and
    /// whenever the place or provider changes.
    public var persistInterval: Duration = .seconds(3600)
    /// The longest wait a server may ask for (`Retry-After`): a day is plenty for any rate
    /// limit, and a bigger number is a bug or an attack that must not silence the device.
    public var longestServerWait: Duration = .seconds(24 * 3600)

    public init() {}

    public static let standard = RefreshPolicy()
}

/// How old the weather on the screens is.
public enum WeatherFreshness: Sendable, Equatable {
    /// Nothing to show.
    case none
    case fresh
    /// Older than `staleAfter`: shown with its age.
    case stale(age: Duration)
    /// Older than `blankRealtimeAfter`: the current conditions are blanked.
    case expired(age: Duration)
    /// Stamped later than now by more than `futureTolerance`: the clock it is read against is
    /// behind the one that stamped it (a cache written under GPS time, read before GPS time
    /// came back), so its age is not known. Treated as expired, never as fresh.
    case ageUnknown
}

extension RefreshPolicy {
    /// How far in the future a stamp may be before its age counts as unknown (clocks a
    /// little apart, a fetch stamped a moment ahead).
    public static let futureTolerance = Duration.seconds(60)

    public func freshness(of report: WeatherReport?, at wallNow: WallTime) -> WeatherFreshness {
        guard let report else { return .none }
        if wallNow - report.fetchedAt < .zero - Self.futureTolerance { return .ageUnknown }
        let age = max(wallNow - report.fetchedAt, .zero)
        if age >= blankRealtimeAfter { return .expired(age: age) }
        if age >= staleAfter { return .stale(age: age) }
        return .fresh
    }
}

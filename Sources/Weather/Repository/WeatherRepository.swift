import HAL

/// The single source of truth for the weather on the device (docs/design/patterns.md): it owns the
/// last good report, decides when to fetch, and says how fresh what it holds is. It does no I/O
/// and reads no clock: the loop hands it the time, runs the `FetchOrder`s it gives out off the
/// loop, and hands back the outcome, so tests drive it through virtual time.
public struct WeatherRepository<Random: RandomNumberGenerator> {
    public let policy: RefreshPolicy
    public private(set) var state: LoadingState<WeatherReport, WeatherError> = .idle
    /// The rounded position the weather is for; nil until the first fix.
    public private(set) var position: Coordinate?
    /// When the next fetch is due; nil while waiting for a position, a fetch in flight, or a
    /// configuration change after a refusal (400/403).
    public private(set) var nextAttempt: Instant?
    public var units: RequestUnits
    private(set) var validators = CacheValidators.none
    private var lastAttempt: Instant?
    private var consecutiveFailures = 0
    private var lastPersisted: (at: Instant, provider: WeatherProvider, position: Coordinate?)?
    /// The monotonic instant the report held now arrived, when it arrived in this run (nil for
    /// one restored from disk): its civil stamp follows the device's time base.
    private var stampedAt: Instant?
    /// The report arrived while no one vouched for the time: it goes to disk, with a stamp a
    /// later run can trust, once someone does.
    private var persistWhenTrusted = false
    private var random: Random

    public init(policy: RefreshPolicy = .standard, units: RequestUnits = .metric, random: Random) {
        self.policy = policy
        self.units = units
        self.random = random
    }

    /// What the loop does after `complete`.
    public enum Effect: Sendable, Equatable {
        /// Write the report's response to disk (the caller keeps the body).
        case persist
        /// One line for the log.
        case log(String)
    }

    // MARK: Inputs

    /// The last good response from the disk cache, decoded: shown (marked stale by its age)
    /// until the network answers. Its validators let MET answer 304.
    /// Its stamp was written under a trusted clock and stays as it is; `base` places it on the
    /// monotonic clock to space the next write.
    public mutating func restore(_ report: WeatherReport, validators: CacheValidators, base: TimeBase) {
        guard state.value == nil else { return }
        state = .success(report)
        stampedAt = nil
        self.validators = CacheValidators(lastModified: validators.lastModified)
        lastPersisted = (base.instant(at: report.fetchedAt), report.provider, report.position?.rounded())
    }

    /// A position from the GPS (or a saved location). The first one fetches at once; later ones
    /// only when the rounded position moved more than `moveThreshold` and `moveMinimumInterval`
    /// passed since the last fetch began (docs/design/parts.md#the-weather-service: never per fix).
    public mutating func updatePosition(_ coordinate: Coordinate, now: Instant) {
        let rounded = coordinate.rounded(places: 2)
        guard let current = position else {
            position = rounded
            if !state.isLoading { nextAttempt = now }
            return
        }
        let moved = max(abs(rounded.latitude - current.latitude), abs(rounded.longitude - current.longitude))
        guard moved > policy.moveThreshold + 1e-9 else { return }
        position = rounded
        validators = .none
        consecutiveFailures = 0
        guard !state.isLoading else { return }
        let earliest = lastAttempt.map { $0 + policy.moveMinimumInterval } ?? now
        nextAttempt = Swift.max(now, earliest)
    }

    /// A setting or the provider changed: a refused request may now succeed, so ask again.
    public mutating func configurationChanged(now: Instant) {
        validators = .none
        consecutiveFailures = 0
        if position != nil, !state.isLoading { nextAttempt = now }
    }

    /// The order to run now, if one is due. The state becomes `loading` (keeping the value).
    public mutating func nextOrder(now: Instant) -> FetchOrder? {
        guard let position, let due = nextAttempt, due <= now, !state.isLoading else { return nil }
        nextAttempt = nil
        lastAttempt = now
        state = .loading(last: state.value)
        return FetchOrder(position: position, units: units, validators: validators)
    }

    /// The outcome of the order given out last, which arrived at the monotonic instant
    /// `receivedAt`; `base` is the device's time now (`base.anchor` is now). The report is
    /// stamped with `base`'s civil time of its arrival, whatever clock the worker saw. An
    /// outcome that arrives when no order is out (after `wipe()`) is dropped.
    public mutating func complete(_ outcome: Result<FetchOutcome, WeatherError>, receivedAt: Instant, base: TimeBase) -> [Effect] {
        guard state.isLoading else { return [] }
        let now = base.anchor
        let wallNow = base.wall
        switch outcome {
        case .success(.report(var report, let newValidators)):
            report.fetchedAt = base.wall(at: receivedAt)
            state = .success(report)
            stampedAt = receivedAt
            validators = newValidators
            consecutiveFailures = 0
            nextAttempt = now + refreshDelay(validators: newValidators)
            guard base.trusted else {
                persistWhenTrusted = true
                return []
            }
            return persistIfDue(report, now: now)
        case .success(.notModified(let newValidators)):
            validators = newValidators
            consecutiveFailures = 0
            nextAttempt = now + refreshDelay(validators: newValidators)
            guard var report = state.value else {
                // A 304 with nothing to keep: ask again without the validator.
                validators = .none
                state = .idle
                nextAttempt = now
                return [.log("weather: 304 Not Modified, but there is no cached forecast; fetching again")]
            }
            report.fetchedAt = base.wall(at: receivedAt)
            state = .success(report)
            stampedAt = receivedAt
            return []
        case .failure(let error):
            state = .failure(error, last: state.value)
            consecutiveFailures += 1
            nextAttempt = failureDelay(error, wallNow: wallNow).map { now + $0 }
            let when = nextAttempt.map { "next try in \(($0 - now).components.seconds) s" } ?? "not retrying until the configuration changes"
            return [.log("weather: \(error.cause) (\(when))")]
        }
    }

    /// Forgets the weather, as after a factory reset: the next position fetches again.
    public mutating func wipe() {
        state = .idle
        position = nil
        nextAttempt = nil
        validators = .none
        lastAttempt = nil
        consecutiveFailures = 0
        lastPersisted = nil
        stampedAt = nil
        persistWhenTrusted = false
    }

    /// The device's time changed source or stepped: the report that arrived in this run gets
    /// its stamp under `base` (its age is monotonic time since it arrived). True when it should
    /// now be written to disk: it arrived under an unsure clock and `base` is trusted.
    public mutating func restamp(_ base: TimeBase) -> Bool {
        guard let stampedAt, var report = state.value else { return false }
        report.fetchedAt = base.wall(at: stampedAt)
        state = state.replacingValue(report)
        guard base.trusted, persistWhenTrusted else { return false }
        persistWhenTrusted = false
        lastPersisted = (base.anchor, report.provider, report.position?.rounded())
        return true
    }

    // MARK: Freshness

    public func freshness(at wallNow: WallTime) -> WeatherFreshness {
        policy.freshness(of: state.value, at: wallNow)
    }

    // MARK: Scheduling

    private mutating func refreshDelay(validators: CacheValidators) -> Duration {
        // MET's terms: no new request before `Expires`, and at a random offset after it, so
        // devices told the same `Expires` do not all ask in the same second.
        let earliest = Swift.max(policy.refreshInterval, validators.freshFor ?? .zero)
        return earliest + jitter(upTo: policy.refreshJitter)
    }

    private mutating func failureDelay(_ error: WeatherError, wallNow: WallTime) -> Duration? {
        if error.isConfigurationProblem { return nil }
        if case .rateLimited(_, let wait) = error {
            switch wait {
            case .duration(let asked):
                // Never earlier than asked (up to a day); up to 20 % later so devices do not
                // return together.
                let d = Swift.min(asked, policy.longestServerWait)
                return d + jitter(upTo: d * policy.backoffJitter)
            case .nextHour:
                let intoHour = Int64(((wallNow.seconds % 3600) + 3600) % 3600)
                return .seconds(3600 - intoHour) + jitter(upTo: policy.refreshJitter)
            case .hourlyRetries:
                return .seconds(3600) + jitter(upTo: policy.refreshJitter)
            }
        }
        var delay = policy.backoffStart
        for _ in 1..<consecutiveFailures where delay < policy.backoffCap { delay *= 2 }
        delay = Swift.min(delay, policy.backoffCap)
        let factor = 1 + Double.random(in: -policy.backoffJitter...policy.backoffJitter, using: &random)
        return delay * factor
    }

    private mutating func jitter(upTo limit: Duration) -> Duration {
        guard limit > .zero else { return .zero }
        return .nanoseconds(Int64.random(in: 0...limit.nanoseconds, using: &random))
    }

    private mutating func persistIfDue(_ report: WeatherReport, now: Instant) -> [Effect] {
        let place = report.position?.rounded()
        persistWhenTrusted = false
        if let last = lastPersisted, last.provider == report.provider, last.position == place,
            now - last.at < policy.persistInterval, now >= last.at
        {
            return []
        }
        lastPersisted = (now, report.provider, place)
        return [.persist]
    }
}

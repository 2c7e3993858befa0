import HAL
import Screens
import Weather

extension AppState {
    /// The cache read at start is shown (marked stale by its age) only if it is for the place
    /// shown now: weather for somewhere else under this place's name would be wrong.
    mutating func restore(_ report: WeatherReport, _ validators: CacheValidators, _ moment: Moment, _ effects: inout [Effect]) {
        let position = report.position
        guard let position, position.degreesApart(from: shownPosition) <= Self.samePlace else {
            effects.append(.log(.text("weather cache is for \(position?.label ?? "no place"), not the shown place; not shown")))
            return
        }
        weather.restore(report, validators: validators, base: moment.base)
        zoneFrom(report, &effects)
        refreshWeatherPanel(moment)
        frameDirty = true
    }

    mutating func weatherOutcome(
        _ token: UInt64, _ outcome: Result<FetchOutcome, WeatherError>, receivedAt: Instant, _ moment: Moment,
        _ effects: inout [Effect]
    ) {
        guard token == weatherToken else { return }  // for a place no longer shown
        for effect in weather.complete(outcome, receivedAt: receivedAt, base: moment.base) {
            switch effect {
            case .persist: effects.append(.saveWeatherCache(token: token))
            case .log(let line): effects.append(.log(.problem(line)))
            }
        }
        if let report = weather.state.value { zoneFrom(report, &effects) }
        refreshWeatherPanel(moment)
        refreshBrightness(moment, &effects)
        frameDirty = true
    }

    /// The provider's zone for the place wins over the position table's and the board's (it
    /// follows the device when it travels); asked for once per name.
    private mutating func zoneFrom(_ report: WeatherReport, _ effects: inout [Effect]) {
        guard let name = report.timeZone else { return }
        zoneFromProvider(name, provider: report.provider, &effects)
    }

    /// Rebuilds the weather part of the screen model from the repository. This allocates (the
    /// hours and days of a new forecast), so it runs when the weather or the zone changes, at
    /// the top of each hour (hour labels move on) and never on a plain minute tick.
    mutating func refreshWeatherPanel(_ moment: Moment) {
        panelRegime = conditionsRegime(at: moment.wall)
        let panel = WeatherPanel(state: weather.state, now: moment.wall, zone: zone, policy: weather.policy)
        if panel != model.weather {
            model.weather = panel
            frameDirty = true
        }
        refreshOutlook(moment)
        refreshBarographPanel(moment.wall)
    }

    /// The weather's age as the minute moves on, without rebuilding the forecast: only the
    /// "n min old" of stale values changes from one minute to the next, unless the age crossed
    /// one of the thresholds at which "now" is shown differently.
    mutating func refreshWeatherAge(_ moment: Moment) {
        if conditionsRegime(at: moment.wall) != panelRegime {
            refreshWeatherPanel(moment)
            return
        }
        let freshness: WeatherPanel.Freshness
        switch weather.freshness(at: moment.wall) {
        case .none, .fresh: freshness = .fresh
        case .stale(let age), .expired(let age): freshness = .stale(minutes: Int(age.components.seconds / 60))
        case .ageUnknown: freshness = .ageUnknown
        }
        if model.weather.freshness != freshness {
            model.weather.freshness = freshness
            if model.weather.problem != nil { frameDirty = true }
        }
        refreshOutlook(moment)
    }

    /// How `WeatherReport.conditions(at:)` picks "now" at `wall`: 0 the report's current
    /// conditions, 1 the hourly forecast once they are `currentFallbackAfter` old, 2 nothing
    /// once the report is `blankRealtimeAfter` old. A change rebuilds the panel.
    func conditionsRegime(at wall: WallTime) -> Int {
        guard let report = weather.state.value else { return 0 }
        let policy = weather.policy
        let age = wall - report.fetchedAt
        if age >= policy.blankRealtimeAfter || age < .zero - RefreshPolicy.futureTolerance { return 2 }
        if let current = report.current, wall - current.time >= policy.currentFallbackAfter { return 1 }
        return 0
    }
}

import HAL
import Screens
import Weather

extension AppState {
    /// The cache read at start is shown (marked stale by its age) only if it is for the place
    /// shown now: weather for somewhere else under this place's name would be wrong.
    mutating func restore(_ report: WeatherReport, _ validators: CacheValidators, _ moment: Moment, _ effects: inout [Effect]) {
        let position = Position(latitude: report.latitude, longitude: report.longitude)
        guard position.degreesApart(from: shownPosition) <= Self.samePlace else {
            effects.append(.log(.text("weather cache is for \(position.label), not the shown place; not shown")))
            return
        }
        weather.restore(report, validators: validators)
        zoneFrom(report, &effects)
        refreshWeatherPanel(moment)
        frameDirty = true
    }

    mutating func weatherOutcome(
        _ token: UInt64, _ outcome: Result<FetchOutcome, WeatherError>, _ moment: Moment, _ effects: inout [Effect]
    ) {
        guard token == weatherToken else { return }  // for a place no longer shown
        for effect in weather.complete(outcome, now: moment.now, wallNow: moment.wall) {
            switch effect {
            case .persist: effects.append(.saveWeatherCache(token: token))
            case .log(let line): effects.append(.log(.text(line)))
            }
        }
        if let report = weather.state.value { zoneFrom(report, &effects) }
        refreshWeatherPanel(moment)
        refreshBrightness(moment, &effects)
        frameDirty = true
    }

    /// The provider's zone for the place wins over the board's (it follows the device when it
    /// travels); asked for once per name.
    private mutating func zoneFrom(_ report: WeatherReport, _ effects: inout [Effect]) {
        guard let name = report.timeZone, name != requestedZone else { return }
        requestedZone = name
        effects.append(.loadZone(name, .provider))
    }

    /// Rebuilds the weather part of the screen model from the repository. This allocates (the
    /// hours and days of a new forecast), so it runs when the weather or the zone changes, at
    /// the top of each hour (hour labels move on) and never on a plain minute tick.
    mutating func refreshWeatherPanel(_ moment: Moment) {
        let panel = WeatherPanel(state: weather.state, now: moment.wall, zone: zone, policy: weather.policy)
        if panel != model.weather {
            model.weather = panel
            frameDirty = true
        }
    }

    /// The weather's age as the minute moves on, without rebuilding the forecast: only the
    /// "n min old" of stale values changes from one minute to the next.
    mutating func refreshWeatherAge(_ moment: Moment) {
        let freshness: WeatherPanel.Freshness
        switch weather.freshness(at: moment.wall) {
        case .none, .fresh: freshness = .fresh
        case .stale(let age), .expired(let age): freshness = .stale(minutes: Int(age.components.seconds / 60))
        }
        let wasBlank: Bool = {
            if case .expired = weather.policy.freshness(of: weather.state.value, at: moment.wall - .seconds(60)) { return true }
            return false
        }()
        if case .expired = weather.freshness(at: moment.wall), !wasBlank {
            refreshWeatherPanel(moment)  // the current conditions are blanked from now on
        }
        if model.weather.freshness != freshness {
            model.weather.freshness = freshness
            if model.weather.problem != nil { frameDirty = true }
        }
    }
}

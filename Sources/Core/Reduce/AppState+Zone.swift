import HAL
import Places
import Weather

/// The zone of the GPS position from the table of zones (docs/design/decisions.md#the-zone-table): what the clock shows before
/// the weather service has answered, and with no network at all. Priority: the provider's zone
/// once it has answered for the shown place, then the position's, then the board's, then UTC.
///
/// This file imports Places and not Screens: both have a `Place`.
struct PositionZone {
    /// The table's zone the device takes the position to be in; a fix in another zone replaces
    /// it only `AppState.zoneMarginMeters` inside that zone.
    var current: Zone?
    /// Whether `current` is the zone asked for last (`requestedZone`), so that a fix in the
    /// same zone compares two indexes and nothing else.
    var requested = false
    /// Where the table was asked last; a fix closer than `AppState.zoneLookupStep` to it is
    /// not looked up again (a GPS epoch with nothing new allocates and computes nothing).
    var lookedUpAt: Coordinate?
    /// The zone the weather service named for the shown place; nil until it answers for it.
    var providerName: String?
    /// "provider|table" pairs of names already logged as a disagreement.
    var disagreements: [String] = []
}

extension AppState {
    /// A fix closer than this (degrees of latitude or longitude, about 100 m or less) to the
    /// last lookup is not looked up again.
    static let zoneLookupStep = 0.001
    /// A fix in another zone than the current one switches to it only this far inside it, so a
    /// road along a border does not flap the clock.
    static let zoneMarginMeters = 2_000
    /// How many provider/table pairs are remembered as logged.
    static let disagreementsKept = 32

    /// The position table's zone for a GPS `position` of the first entry: taken at once when
    /// there is none yet, else only `zoneMarginMeters` inside another zone; asked for with
    /// `.loadZone(name, .position)` unless the weather service has named the place's zone.
    mutating func zoneFromPosition(_ position: Coordinate, _ effects: inout [Effect]) {
        if let last = positionZone.lookedUpAt, last.degreesApart(from: position) < Self.zoneLookupStep { return }
        positionZone.lookedUpAt = position
        let fix = ZoneTable.zone(at: position)
        if let current = positionZone.current {
            if fix.zone.index != current.index {
                guard fix.borderMeters >= Self.zoneMarginMeters else { return }  // near a border: keep
                positionZone.current = fix.zone
                positionZone.requested = false
            }
        } else {
            positionZone.current = fix.zone
            positionZone.requested = false
        }
        guard !positionZone.requested, positionZone.providerName == nil, let table = positionZone.current else { return }
        positionZone.requested = true
        let name = table.name
        guard name != requestedZone else {
            // The board named the same zone: the rules in force are the position's.
            if zoneSource == .board, zone.identifier == name { zoneLoaded(zone, .position, nil, &effects) }
            return
        }
        requestedZone = name
        effects.append(.loadZone(name, .position))
    }

    /// The shown place is another one (the weather was wiped): the provider has not answered
    /// for it yet, and the position's zone is looked up afresh.
    mutating func zonePlaceChanged() {
        positionZone.providerName = nil
        positionZone.lookedUpAt = nil
    }

    /// The weather service names `name` for the shown place: it wins (it is asked for once per
    /// name); if the position table says otherwise, one line says so, once per pair of names.
    mutating func zoneFromProvider(_ name: String, provider: WeatherProvider, _ effects: inout [Effect]) {
        if positionZone.providerName != name { compareZone(name, provider: provider, &effects) }
        positionZone.providerName = name
        guard name != requestedZone else {
            // The position's (or the board's) request named the same zone: its rules are the
            // provider's, now vouched for by the provider.
            if zone.identifier == name { zoneSource = .provider }
            return
        }
        requestedZone = name
        positionZone.requested = false
        effects.append(.loadZone(name, .provider))
    }

    /// `.zone(rules, source)`: an answer the provider has since overtaken counts as the provider's
    /// when it names the same zone.
    /// The position's zone taken is news for the log (it changes when the device crosses a
    /// border, not with every fix).
    mutating func zoneLoaded(_ rules: ZoneRules, _ source: ZoneSource, _ moment: Moment?, _ effects: inout [Effect]) {
        let source = source != .provider && positionZone.providerName == rules.identifier ? .provider : source
        if source == .position, zoneSource != .position || zone.identifier != rules.identifier {
            effects.append(.log(.text("zone: \(rules.identifier) from the GPS position (the position table)")))
        }
        zone = rules
        zoneSource = source
        if zoneRetryDelay?.name == rules.identifier {
            effects.append(.log(.text("zone \(rules.identifier): loaded after all")))
            zoneRetryDelay = nil
        }
        if zoneRetry?.name == rules.identifier { zoneRetry = nil }
        if let moment { refreshTime(moment, &effects, force: true) }
    }

    private mutating func compareZone(_ name: String, provider: WeatherProvider, _ effects: inout [Effect]) {
        let fix = ZoneTable.zone(at: shownPosition)
        let named = Zone(named: name)
        if let named, named.index == fix.zone.index { return }
        let table = fix.zone.name
        let key = name + "|" + table
        guard !positionZone.disagreements.contains(key) else { return }
        // A few dozen pairs at most in a device's life; the oldest goes first if not.
        if positionZone.disagreements.count >= Self.disagreementsKept { positionZone.disagreements.removeFirst() }
        positionZone.disagreements.append(key)
        let clock: String
        if let named, named.keepsSameClock(as: fix.zone) {
            clock = "same clock since 1970"
        } else {
            let tenths = (fix.borderMeters + 50) / 100
            clock = "\(named == nil ? "not in the table" : "different clock"); \(tenths / 10).\(tenths % 10) km from a border"
        }
        effects.append(.log(.text("zone: \(provider.displayName) says \(name), the position table says \(table) (\(clock))")))
    }
}

extension WeatherProvider {
    /// The service's name as people write it.
    var displayName: String {
        switch self {
        case .openMeteo: "Open-Meteo"
        case .metNorway: "MET Norway"
        }
    }
}

extension AppState {
    static let firstZoneRetry = Duration.seconds(60)
    static let longestZoneRetry = Duration.seconds(3600)

    /// A zone that did not load is asked for again, like every other part that fails at start
    /// (the tzdata on a card that was not readable yet, a package installed later): after 1 min,
    /// doubling to 1 h, while it is still the zone wanted. Meanwhile the current zone stays.
    mutating func zoneFailed(_ name: String, _ source: ZoneSource, _ reason: String, _ moment: Moment, _ effects: inout [Effect]) {
        guard name == requestedZone else {
            effects.append(.log(.problem("zone \(name): \(reason); keeping \(zone.identifier)")))
            return
        }
        let last = zoneRetryDelay?.name == name ? zoneRetryDelay?.delay : nil
        let delay = last.map { Swift.min($0 * 2, Self.longestZoneRetry) } ?? Self.firstZoneRetry
        zoneRetry = (name, source, moment.now + delay, delay)
        effects.append(.log(.problem("zone \(name): \(reason); keeping \(zone.identifier), trying again in \(delay.components.seconds) s")))
    }
}

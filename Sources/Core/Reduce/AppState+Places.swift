import HAL
import Screens
import Store
import Weather

extension AppState {
    /// The place after `place` in the cycle of the next-place button: the virtual first entry,
    /// then the saved locations in the store's order less the one whose removal is pending,
    /// then the first entry again.
    func place(after place: ShownPlace) -> ShownPlace {
        var start = 0
        if case .saved(let id) = place, let index = store.index(of: id) { start = index + 1 }
        for index in start..<store.locations.count where store.locations[index].id != pendingRemoval?.location.id {
            return .saved(store.locations[index].id)
        }
        return .here
    }

    /// Where the shown place is: a saved location's coordinate; for the first entry the
    /// current fix, else the last known fix, else the board's default location.
    public var shownPosition: Coordinate {
        switch shown {
        case .saved(let id):
            if let index = store.index(of: id) {
                return store.locations[index].coordinate
            }
            return herePosition
        case .here:
            return herePosition
        }
    }

    private var herePosition: Coordinate { gps.position ?? gps.lastPosition ?? options.defaultPosition }

    /// The name and origin the header shows.
    var shownPlace: Place {
        switch shown {
        case .saved(let id):
            let visible = store.locations.filter { $0.id != pendingRemoval?.location.id }
            if let index = visible.firstIndex(where: { $0.id == id }) {
                return Place(name: visible[index].name.value, source: .saved(index: index + 1, count: visible.count))
            }
            return herePlace
        case .here:
            return herePlace
        }
    }

    private var herePlace: Place {
        // Named after the nearest populated place (docs/design/decisions.md#the-zone-table), the coordinates when none is near.
        if let position = gps.position ?? gps.lastPosition { return Place(name: PlaceNaming.shownName(position), source: .gps) }
        return Place(name: options.defaultName, source: .boardDefault)
    }

    /// The shown place became another one (a button, a removal, the first fix): the weather
    /// of the old place must not be shown under the new name, so the repository starts over
    /// for the new position and fetches at once.
    mutating func placeChanged(_ moment: Moment, _ effects: inout [Effect]) {
        model.place = shownPlace
        let position = shownPosition
        if weather.position.map({ $0.degreesApart(from: position.rounded()) > Self.samePlace }) ?? false {
            weatherToken &+= 1  // an answer for the old place is dropped when it comes
            weather.wipe()
            zonePlaceChanged()
        }
        if shown == .here, let fix = gps.position ?? gps.lastPosition { zoneFromPosition(fix, &effects) }
        weather.updatePosition(position, now: moment.now)
        refreshWeatherPanel(moment)
        refreshBrightness(moment, &effects)
        frameDirty = true
    }

    /// Within this many degrees a new position is the same place for the weather: the
    /// repository's own rule (a fetch after a 0.05° move, not sooner than 60 s) applies.
    static let samePlace = 0.25

    /// The store after a commit, a retry or a change of health.
    mutating func stored(_ state: StoreState, _ health: StoreHealth, _ moment: Moment, _ effects: inout [Effect]) {
        let settingsChanged = state.settings != store.settings
        let listChanged = state.locations != store.locations
        store = state
        if saving.waiting == 0 { requestedSettings = nil }
        if health != storeHealth {
            effects.append(.log(health.isHealthy ? .text("store: ok") : .problem("store: \(health)")))
        }
        storeHealth = health
        refusal = nil
        if let removal = pendingRemoval, state.index(of: removal.location.id) == nil { pendingRemoval = nil }
        if case .saved(let id) = shown, state.index(of: id) == nil {
            shown = .here
            placeChanged(moment, &effects)
        }
        if settingsChanged {
            model.settings = state.settings
            frameDirty = true
            effects.append(.log(.settings(state.settings)))
            refreshBrightness(moment, &effects)
        }
        if listChanged {
            model.place = shownPlace
            frameDirty = true
        }
    }

    /// The location service's news: the state for the marks and the status screen, and the
    /// position for the first entry. The first fix (or one far from where the weather is for)
    /// makes the first entry another place.
    mutating func gps(_ report: GPSReport, _ moment: Moment, _ effects: inout [Effect]) {
        let before = (gps.position ?? gps.lastPosition)?.rounded()
        gps = report
        let mark = GPSMark(report)
        if model.gps != mark {
            model.gps = mark
            frameDirty = true
        }
        guard shown == .here else { return }
        // The position's zone (docs/design/decisions.md#the-zone-table), after the place has changed if it did; a fix that
        // moved less than `zoneLookupStep` costs one comparison.
        defer { if let fix = report.position ?? report.lastPosition { zoneFromPosition(fix, &effects) } }
        let after = (report.position ?? report.lastPosition)?.rounded()
        guard before != after else {
            if let position = report.position { weather.updatePosition(position, now: moment.now) }
            return
        }
        // The first entry's name follows the position (the first fix, a drive); placeChanged
        // names it itself, so the nearest place is looked up once.
        let position = herePosition
        if let current = weather.position, current.degreesApart(from: position.rounded()) <= Self.samePlace {
            model.place = shownPlace
            frameDirty = true
            weather.updatePosition(position, now: moment.now)
        } else {
            placeChanged(moment, &effects)
        }
    }
}

extension GPSMark {
    init(_ report: GPSReport) {
        switch report.kind {
        case .fix: self = .fix
        case .stale: self = .stale
        case .noFix, .waiting: self = .noFix(satellites: report.satellites)
        case .noDevice, .noData, .noValidSentences: self = .noReceiver
        }
    }
}

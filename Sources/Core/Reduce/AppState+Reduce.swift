import HAL
import Screens
import Store
import Weather

extension AppState {
    /// Applies one event at `moment` and appends what the runtime must do to `effects`.
    ///
    /// The one way the state changes. `effects` is the caller's buffer (reserved once), so an
    /// event allocates nothing unless its own work does (a new forecast, a new status line).
    public mutating func reduce(_ event: Event, at moment: Moment, into effects: inout [Effect]) {
        observeClock(moment, &effects)
        switch event {
        case .start:
            start(moment, &effects)
        case .tick:
            break
        case .resume(let place, let previous):
            if case .saved(let id) = place, store.index(of: id) != nil, shown != place {
                shown = place
                placeChanged(moment, &effects)
            }
            if previous != screen, Self.screens.contains(previous), previous != .indoor || options.hasSensor {
                screen = previous
                frameDirty = true
            }
        case .closing:
            saveBarographIfNewer(&effects)
            if let removal = pendingRemoval {
                pendingRemoval = nil
                effects.append(.log(.text("removing \(removal.location.name) now: the device is stopping inside the undo window")))
                effects.append(.commit(.removeLocation(removal.location.id)))
            }
        case .button(let gesture):
            button(gesture, moment, &effects)
        case .gps(let report):
            gps(report, moment, &effects)
        case .store(let state, let health):
            stored(state, health, moment, &effects)
        case .refused(let change, let error):
            refusal = error.description
            requestedSettings = nil
            effects.append(.log(.problem("store refused \(Self.describe(change)): \(error)")))
            frameDirty = true
        case .saving(let saving):
            self.saving = saving
            if saving.waiting == 0 { requestedSettings = nil }
        case .weatherRestored(let report, let validators):
            restore(report, validators, moment, &effects)
        case .barographRestored(let history):
            restoreBarograph(history, moment, &effects)
        case .stormAlarmResumed(let previous):
            if previous.configuration == stormAlarm.configuration, previous != stormAlarm {
                stormAlarm = previous
                refreshBarographPanel(moment.wall)
                frameDirty = true
            }
        case .weather(let token, let outcome, let receivedAt):
            weatherOutcome(token, outcome, receivedAt: receivedAt, moment, &effects)
        case .zone(let rules, let source):
            zoneLoaded(rules, source, moment, &effects)
        case .zoneFailed(let name, let source, let reason):
            zoneFailed(name, source, reason, moment, &effects)
        case .indoor(let reading):
            if case .reading(_, _, let pressure) = reading { stationPressure(pressure, moment, &effects) }
            if indoor != reading {
                indoor = reading
                model.indoor = IndoorPanel(reading)
                if screen == .indoor { frameDirty = true }
            }
        case .altitude(let metres):
            altitudeTrack.add(metres, at: moment.now)
        case .display(let health):
            if display != health {
                display = health
                switch health {
                case .failing(let why): effects.append(.log(.problem("display: \(why)")))
                case .ok: effects.append(.log(.text("display: answering again")))
                }
            }
        case .droppedEdges(let count):
            edgesDropped(count, moment, &effects)
        case .buttonNoise(let name, let noisy):
            noisyButtons.removeAll { $0 == name }
            if noisy { noisyButtons.append(name) }
        }
        timers(moment, &effects)
        refreshStatus(moment)
    }

    /// When the runtime must send `.tick` even if nothing else happens: the next minute, fetch,
    /// sensor reading, orbit step, screen rotation, committed removal or the end of an edge
    /// loss on the status screen, whichever is first.
    public var nextDeadline: Instant? {
        var next = Instant.earliest(nextMinute, weather.nextAttempt)
        next = Instant.earliest(next, nextSensor)
        next = Instant.earliest(next, nextOrbit)
        next = Instant.earliest(next, nextRotation)
        next = Instant.earliest(next, edgesLostAt.map { $0 + Self.edgeLossShownFor })
        next = Instant.earliest(next, zoneRetry?.at)
        return Instant.earliest(next, pendingRemoval?.deadline)
    }

    // MARK: Start and timers

    private mutating func start(_ moment: Moment, _ effects: inout [Effect]) {
        let now = moment.now
        if let zone = options.boardZone {
            requestedZone = zone
            effects.append(.loadZone(zone, .board))
        }
        if options.hasSensor { nextSensor = now }
        if options.orbit { nextOrbit = now + options.orbitEvery }
        if let every = options.rotateEvery { nextRotation = now + every }
        model.settings = store.settings
        placeChanged(moment, &effects)
        refreshTime(moment, &effects, force: true)
        frameDirty = true
    }

    /// Everything that is due by `moment`: the minute, the orbit, the rotation, the sensor, the
    /// committed removal, and the weather repository's next order. Runs after every event, so
    /// a deadline missed while the loop was busy is met at the next wake-up.
    private mutating func timers(_ moment: Moment, _ effects: inout [Effect]) {
        let now = moment.now
        if let due = nextMinute, due <= now { refreshTime(moment, &effects, force: false) }
        if let lost = edgesLostAt, lost + Self.edgeLossShownFor <= now { edgesQuiet(&effects) }
        if let retry = zoneRetry, retry.at <= now {
            zoneRetry = nil
            // Only if it is still the zone wanted: a later answer may have named another.
            if retry.name == requestedZone { effects.append(.loadZone(retry.name, retry.source)) }
            zoneRetryDelay = (retry.name, retry.delay)
        }
        if let due = nextOrbit, due <= now {
            orbitStep &+= 1
            nextOrbit = Self.following(due, every: options.orbitEvery, after: now)
            frameDirty = true
        }
        if let every = options.rotateEvery, let due = nextRotation, due <= now {
            screen = next(after: screen, rotating: true)
            nextRotation = Self.following(due, every: every, after: now)
            frameDirty = true
        }
        if let due = nextSensor, due <= now {
            effects.append(.measureIndoor)
            nextSensor = Self.following(due, every: options.sensorEvery, after: now)
        }
        if let removal = pendingRemoval, removal.deadline <= now {
            pendingRemoval = nil
            effects.append(.commit(.removeLocation(removal.location.id)))
        }
        // What is shown stays as it is while a fetch is out (a problem line too, until the
        // outcome replaces it): no flicker, and nothing to rebuild.
        if var order = weather.nextOrder(now: now) {
            order.time = moment.base
            weatherToken &+= 1
            effects.append(.fetchWeather(order, token: weatherToken))
        }
    }

    /// The next instant on the grid `start + k·every` after `now` (a periodic deadline that
    /// stays on its grid however late it is met).
    static func following(_ start: Instant, every: Duration, after now: Instant) -> Instant {
        let late = (now - start).nanoseconds / every.nanoseconds
        return start + .nanoseconds(every.nanoseconds &* (late + 1))
    }

    static func describe(_ change: StoreChange) -> String {
        switch change {
        case .settings: "the settings"
        case .addLocation(let location): "saving \(location.name)"
        case .removeLocation(let id): "removing location \(id)"
        case .renameLocation(let id, _): "renaming location \(id)"
        case .moveLocation(let id, _): "moving location \(id)"
        }
    }
}

extension IndoorPanel {
    init(_ reading: IndoorReading) {
        switch reading {
        case .reading(let t, let h, let p): self = .reading(temperature: t, humidity: h, pressure: p)
        case .failed(let why): self = .offline(problem: why)
        }
    }
}

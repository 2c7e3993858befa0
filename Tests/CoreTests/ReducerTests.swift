import Board
import Core
import HAL
import Screens
import Store
import Testing
import Weather

/// The reducer with plain values: no runtime, no hardware.
@Suite("Core: reduce")
struct ReducerTests {
    static let options = DeviceOptions(
        defaultName: "Berlin", defaultPosition: try! Coordinate(latitude: 52.52, longitude: 13.405),
        buttons: [
            .init(press: .cycleTemperatureUnit, longPress: .nextLocation),
            .init(press: .cycleUnits, longPress: .savePosition),
            .init(press: .cycleTimeNotation, longPress: .nextScreen),
            .init(press: .removeLocation, longPress: .cycleBrightness),
        ],
        hasSensor: false, boardZone: nil)

    static let noon = WallTime(seconds: 1_782_043_200)  // 2026-06-21T12:00:00Z

    static func moment(_ seconds: Int64) -> Moment {
        Moment(now: Instant(nanoseconds: seconds * 1_000_000_000), wall: noon + .seconds(seconds), source: .system)
    }

    static func started(_ store: StoreState = .initial) -> (AppState, [Effect]) {
        var state = AppState(options: options, store: store, storeHealth: .healthy, seed: 1)
        var effects: [Effect] = []
        state.reduce(.start, at: moment(0), into: &effects)
        return (state, effects)
    }

    static func press(_ button: Int, _ kind: ButtonGesture.Kind = .short, at seconds: Int64) -> Event {
        .button(ButtonGesture(button: button, kind: kind, time: Instant(nanoseconds: seconds * 1_000_000_000)))
    }

    @Test("start: the default place, a fetch at once, a clock and a frame")
    func start() {
        let (state, effects) = Self.started()
        #expect(state.model.place == Place(name: "Berlin", source: .boardDefault))
        #expect(effects.contains { if case .fetchWeather = $0 { true } else { false } })
        #expect(state.model.clock == ClockTime(hour: 12, minute: 0))
        #expect(state.frameDirty)
        #expect(state.nextDeadline != nil)
    }

    @Test("a settings button asks for one commit and changes nothing until the store answers")
    func settingsCommit() {
        var (state, _) = Self.started()
        var effects: [Effect] = []
        state.reduce(Self.press(0, at: 1), at: Self.moment(1), into: &effects)
        let expected = Settings(temperature: .fahrenheit)
        #expect(effects == [.commit(.settings(expected))])
        #expect(state.model.settings.temperature == .celsius, "shown after the acknowledgement, not before")
        effects.removeAll()
        var stored = StoreState.initial
        stored.settings = expected
        state.frameDirty = false
        state.reduce(.store(stored, .healthy), at: Self.moment(1), into: &effects)
        #expect(state.model.settings.temperature == .fahrenheit)
        #expect(state.frameDirty)
        #expect(effects.contains(.log(.settings(expected))))
    }

    @Test("a refusal keeps the old value and puts the reason on the status screen")
    func refusal() {
        var (state, _) = Self.started()
        var effects: [Effect] = []
        state.reduce(Self.press(1, at: 1), at: Self.moment(1), into: &effects)
        state.reduce(.refused(.settings(Settings(units: .imperial)), .readOnly("newer schema")), at: Self.moment(1), into: &effects)
        #expect(state.model.settings.units == .metric)
        #expect(state.model.statusLines.contains { $0.label == "Store" && $0.isProblem && $0.text.contains("read-only") })
    }

    @Test("the brightness button cycles the policy; automatic dims at night at the shown place")
    func brightness() {
        var (state, _) = Self.started()
        var effects: [Effect] = []
        state.reduce(Self.press(3, .long, at: 1), at: Self.moment(1), into: &effects)
        #expect(effects == [.commit(.settings(Settings(brightness: .alwaysBright)))])
        // Berlin at 23:00 UTC in June is night.
        var night = AppState(options: Self.options, store: .initial, storeHealth: .healthy, seed: 1)
        effects.removeAll()
        night.reduce(.start, at: Moment(now: .zero, wall: Self.noon + .seconds(11 * 3600), source: .system), into: &effects)
        #expect(effects.contains(.setDimmed(true)))
        #expect(night.dimmed)
    }

    @Test("places cycle GPS → saved → GPS; removal hides at once, commits after the window, undo brings it back")
    func places() throws {
        var store = StoreState.initial
        store.apply(.addLocation(SavedLocation(id: LocationID(1), name: try LocationName("Oslo"), coordinate: try Coordinate(latitude: 59.91, longitude: 10.75))))
        store.apply(.addLocation(SavedLocation(id: LocationID(2), name: try LocationName("Rome"), coordinate: try Coordinate(latitude: 41.9, longitude: 12.5))))
        var (state, _) = Self.started(store)
        var effects: [Effect] = []
        state.reduce(Self.press(0, .long, at: 1), at: Self.moment(1), into: &effects)
        #expect(state.shown == .saved(LocationID(1)))
        #expect(state.model.place == Place(name: "Oslo", source: .saved(index: 1, count: 2)))
        #expect(effects.contains { if case .fetchWeather(let order, _) = $0 { abs(order.position.latitude - 59.91) < 0.01 } else { false } })
        effects.removeAll()
        state.reduce(Self.press(3, at: 2), at: Self.moment(2), into: &effects)
        #expect(state.shown == .saved(LocationID(2)))
        #expect(state.model.place == Place(name: "Rome", source: .saved(index: 1, count: 1)))
        #expect(!effects.contains { if case .commit = $0 { true } else { false } })
        effects.removeAll()
        state.reduce(Self.press(3, .long, at: 4), at: Self.moment(4), into: &effects)
        #expect(state.shown == .saved(LocationID(1)), "a long press of the same button undoes")
        #expect(state.pendingRemoval == nil)
        #expect(!effects.contains { if case .commit(.settings) = $0 { true } else { false } }, "the undo is not the button's brightness action")
        effects.removeAll()
        state.reduce(Self.press(3, at: 5), at: Self.moment(5), into: &effects)
        state.reduce(.tick, at: Self.moment(10), into: &effects)
        #expect(effects.contains(.commit(.removeLocation(LocationID(1)))))
    }

    @Test("a weather answer for a place no longer shown is dropped")
    func staleToken() throws {
        var store = StoreState.initial
        store.apply(.addLocation(SavedLocation(id: LocationID(1), name: try LocationName("Oslo"), coordinate: try Coordinate(latitude: 59.91, longitude: 10.75))))
        var (state, effects) = Self.started(store)
        guard case .fetchWeather(_, let token)? = effects.first(where: { if case .fetchWeather = $0 { true } else { false } }) else {
            Issue.record("no fetch at start")
            return
        }
        effects.removeAll()
        state.reduce(Self.press(0, .long, at: 1), at: Self.moment(1), into: &effects)  // to Oslo
        effects.removeAll()
        state.reduce(.weather(token: token, .failure(.unexpectedStatus(500)), receivedAt: Self.moment(2).now), at: Self.moment(2), into: &effects)
        #expect(state.weather.state.isLoading, "the Oslo fetch is still out; Berlin's answer changed nothing")
    }

    @Test("the status lines are rebuilt only when what they say changes")
    func statusOnlyOnChange() {
        var (state, _) = Self.started()
        var effects: [Effect] = []
        let lines = state.model.statusLines
        state.reduce(.tick, at: Self.moment(1), into: &effects)
        #expect(state.model.statusLines == lines)
        state.reduce(.gps(GPSReport(kind: .noDevice)), at: Self.moment(2), into: &effects)
        #expect(state.model.statusLines.first { $0.label == "GPS" } == StatusLine("GPS", "no receiver", isProblem: true))
    }

    @Test("the orbit moves the frame along its path every few minutes, and never on an LCD")
    func orbit() {
        var (state, _) = Self.started()
        var effects: [Effect] = []
        #expect(state.orbitOffset.x == 0 && state.orbitOffset.y == 0)
        state.reduce(.tick, at: Self.moment(180), into: &effects)
        #expect(state.orbitOffset.x == 1 && state.orbitOffset.y == 0)
        var lcd = Self.options
        lcd.orbit = false
        var still = AppState(options: lcd, store: .initial, storeHealth: .healthy, seed: 1)
        still.reduce(.start, at: Self.moment(0), into: &effects)
        still.reduce(.tick, at: Self.moment(3600), into: &effects)
        #expect(still.orbitOffset.x == 0 && still.orbitOffset.y == 0)
    }
}

/// What "now" shows as the weather ages without a new answer: the report's current conditions,
/// then the hourly forecast after 45 minutes, then nothing after 3 hours (RefreshPolicy).
@Suite("Core: the weather's age on the minute tick")
struct WeatherAgeTests {
    @Test("the panel is rebuilt exactly when the age crosses 45 min and 3 h, and the age line follows every minute")
    func regimes() {
        // Fetched at 12:30, so the 45-minute and 3-hour marks (13:15, 15:30) fall between the
        // top of the hour, where the panel is rebuilt anyway.
        let noon = ReducerTests.noon
        let fetched = noon + .seconds(1800)
        var hours: [HourlyPoint] = []
        for hour in 0..<6 { hours.append(HourlyPoint(time: noon + .seconds(3600 * hour), temperature: Double(10 + hour))) }
        let report = WeatherReport(
            provider: .openMeteo, latitude: 52.52, longitude: 13.41, fetchedAt: fetched,
            current: CurrentConditions(time: fetched, temperature: 20), hours: hours)
        var state = AppState(options: ReducerTests.options, store: .initial, storeHealth: .healthy, seed: 1)
        var effects: [Effect] = []
        // Restored at 12:30 (a report stamped later than the clock has an unknown age).
        state.reduce(.weatherRestored(report, CacheValidators()), at: ReducerTests.moment(1800), into: &effects)
        state.reduce(.start, at: ReducerTests.moment(1800), into: &effects)
        #expect(state.model.weather.forecast?.current.temperature == 20)
        func tick(_ seconds: Int64) {
            // Ticks only: the fetch the start ordered never answers.
            state.reduce(.tick, at: ReducerTests.moment(seconds), into: &effects)
        }
        tick(74 * 60)  // 13:14
        #expect(state.model.weather.forecast?.current.temperature == 20)
        tick(76 * 60)  // 13:16
        #expect(state.model.weather.forecast?.current.temperature == 11, "the hourly forecast for 13:00")
        tick(209 * 60)  // 15:29
        #expect(state.model.weather.forecast?.current.temperature == 13)
        tick(211 * 60)  // 15:31
        #expect(state.model.weather.forecast?.current.temperature == nil, "blanked after 3 hours")
        guard case .stale(let minutes) = state.model.weather.freshness else {
            Issue.record("not marked stale: \(state.model.weather.freshness)")
            return
        }
        #expect(minutes == 181)
    }
}

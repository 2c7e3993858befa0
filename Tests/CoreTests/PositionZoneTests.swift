import Core
import HAL
import Screens
import Store
import Testing
import Weather

/// The zone and the place's name from the GPS position alone, before and without
/// the weather service.
@Suite("Core: zone and place name from the position")
struct PositionZoneTests {
    static func at(_ latitude: Double, _ longitude: Double) -> Coordinate {
        try! Coordinate(latitude: latitude, longitude: longitude)
    }

    static func fix(_ latitude: Double, _ longitude: Double) -> Event {
        .gps(GPSReport(kind: .fix, position: at(latitude, longitude), satellites: 8, threeD: true, detail: "3D fix"))
    }

    static func zoneRequests(_ effects: [Effect]) -> [String] {
        effects.compactMap { effect in
            if case .loadZone(let name, let source) = effect { "\(name) \(source)" } else { nil }
        }
    }

    static func logLines(_ effects: [Effect]) -> [String] {
        effects.compactMap { effect in
            if case .log(let line) = effect, line.words.hasPrefix("zone:") { line.words } else { nil }
        }
    }

    static func lastFetchToken(_ effects: [Effect]) -> UInt64? {
        effects.compactMap { effect in
            if case .fetchWeather(_, let token) = effect { token } else { nil }
        }.last
    }

    static func report(_ latitude: Double, _ longitude: Double, zone: String, at seconds: Int64) -> WeatherReport {
        WeatherReport(
            provider: .openMeteo, latitude: latitude, longitude: longitude, fetchedAt: ReducerTests.noon + .seconds(seconds),
            timeZone: zone, current: CurrentConditions(time: ReducerTests.noon + .seconds(seconds), temperature: 5))
    }

    @Test("a fix in Tromsø with no weather asks for Europe/Oslo from the position; the clock follows its answer")
    func tromso() {
        var (state, effects) = ReducerTests.started()
        #expect(Self.zoneRequests(effects).isEmpty, "no board zone, no fix: UTC")
        effects.removeAll()
        state.reduce(Self.fix(69.6492, 18.9553), at: ReducerTests.moment(5), into: &effects)
        #expect(Self.zoneRequests(effects) == ["Europe/Oslo position"])
        let oslo = ZoneRules.fixed(offsetSeconds: 7200, identifier: "Europe/Oslo")
        state.reduce(.zone(oslo, .position), at: ReducerTests.moment(5), into: &effects)
        #expect(state.zoneSource == .position)
        #expect(state.zone.identifier == "Europe/Oslo")
        #expect(Self.logLines(effects) == ["zone: Europe/Oslo from the GPS position (the position table)"])
        #expect(state.model.clock == ClockTime(hour: 14, minute: 0))
        effects.removeAll()
        // The same fix again, and one 30 m away: nothing asked again.
        state.reduce(Self.fix(69.6494, 18.9556), at: ReducerTests.moment(6), into: &effects)
        state.reduce(Self.fix(69.6492, 18.9553), at: ReducerTests.moment(7), into: &effects)
        #expect(Self.zoneRequests(effects).isEmpty)
    }

    @Test("the provider's different zone wins, and one line says the two disagree, once per pair")
    func providerWins() {
        var (state, effects) = ReducerTests.started()
        effects.removeAll()
        state.reduce(Self.fix(69.6492, 18.9553), at: ReducerTests.moment(5), into: &effects)
        state.reduce(.zone(.fixed(offsetSeconds: 7200, identifier: "Europe/Oslo"), .position), at: ReducerTests.moment(5), into: &effects)
        guard let token = Self.lastFetchToken(effects) else {
            Issue.record("the fix in Tromsø ordered no fetch")
            return
        }
        effects.removeAll()
        let answer = Self.report(69.65, 18.96, zone: "Europe/Berlin", at: 6)
        state.reduce(.weather(token: token, .success(.report(answer, CacheValidators())), receivedAt: ReducerTests.moment(6).now), at: ReducerTests.moment(6), into: &effects)
        #expect(Self.zoneRequests(effects) == ["Europe/Berlin provider"])
        #expect(Self.logLines(effects) == ["zone: Open-Meteo says Europe/Berlin, the position table says Europe/Oslo (same clock since 1970)"])
        state.reduce(.zone(.fixed(offsetSeconds: 7200, identifier: "Europe/Berlin"), .provider), at: ReducerTests.moment(6), into: &effects)
        #expect(state.zoneSource == .provider)
        #expect(state.zone.identifier == "Europe/Berlin")
        effects.removeAll()
        // A second answer naming the same zone, and a fix nearby: no line, no request.
        state.reduce(Self.fix(69.66, 18.97), at: ReducerTests.moment(60), into: &effects)
        state.reduce(.weather(token: token, .success(.report(answer, CacheValidators())), receivedAt: ReducerTests.moment(61).now), at: ReducerTests.moment(61), into: &effects)
        #expect(Self.zoneRequests(effects).isEmpty)
        #expect(Self.logLines(effects).isEmpty)
        #expect(state.zoneSource == .provider)
    }

    @Test("a provider naming another clock near a border is logged with the distance to the border")
    func differentClock() {
        var (state, effects) = ReducerTests.started()
        state.reduce(Self.fix(65.835, 24.137), at: ReducerTests.moment(5), into: &effects)  // Haparanda
        #expect(Self.zoneRequests(effects) == ["Europe/Stockholm position"])
        guard let token = Self.lastFetchToken(effects) else {
            Issue.record("no fetch")
            return
        }
        effects.removeAll()
        let answer = Self.report(65.84, 24.14, zone: "Europe/Helsinki", at: 6)
        state.reduce(.weather(token: token, .success(.report(answer, CacheValidators())), receivedAt: ReducerTests.moment(6).now), at: ReducerTests.moment(6), into: &effects)
        #expect(Self.zoneRequests(effects) == ["Europe/Helsinki provider"])
        #expect(Self.logLines(effects) == ["zone: Open-Meteo says Europe/Helsinki, the position table says Europe/Stockholm (different clock; 0.5 km from a border)"])
    }

    @Test("a fix along the Swedish–Finnish border keeps its zone; one clearly inside Finland switches")
    func hysteresis() {
        var (state, effects) = ReducerTests.started()
        state.reduce(Self.fix(65.80, 24.00), at: ReducerTests.moment(1), into: &effects)  // Sweden, 3.7 km inside
        #expect(Self.zoneRequests(effects) == ["Europe/Stockholm position"])
        effects.removeAll()
        // Haparanda, Tornio, Haparanda, Tornio: each within 2 km of the border.
        state.reduce(Self.fix(65.835, 24.137), at: ReducerTests.moment(2), into: &effects)
        state.reduce(Self.fix(65.848, 24.147), at: ReducerTests.moment(3), into: &effects)
        state.reduce(Self.fix(65.840, 24.130), at: ReducerTests.moment(4), into: &effects)
        state.reduce(Self.fix(65.850, 24.160), at: ReducerTests.moment(5), into: &effects)
        #expect(Self.zoneRequests(effects).isEmpty, "no flapping along the border")
        // ~10 km inside Finland (the table vouches for 6.5 km: its distances are lower bounds).
        state.reduce(Self.fix(65.88, 24.40), at: ReducerTests.moment(6), into: &effects)
        #expect(Self.zoneRequests(effects) == ["Europe/Helsinki position"])
    }

    @Test("the board's zone stands until the first fix; the position's zone then wins")
    func overBoard() {
        var options = ReducerTests.options
        options.boardZone = "Europe/London"
        var state = AppState(options: options, store: .initial, storeHealth: .healthy, seed: 1)
        var effects: [Effect] = []
        state.reduce(.start, at: ReducerTests.moment(0), into: &effects)
        #expect(Self.zoneRequests(effects) == ["Europe/London board"])
        state.reduce(.zone(.fixed(offsetSeconds: 3600, identifier: "Europe/London"), .board), at: ReducerTests.moment(0), into: &effects)
        effects.removeAll()
        state.reduce(Self.fix(69.6492, 18.9553), at: ReducerTests.moment(5), into: &effects)
        #expect(Self.zoneRequests(effects) == ["Europe/Oslo position"])
    }

    @Test("a board naming the position's zone: nothing is loaded again, the source becomes the position")
    func boardAgrees() {
        var options = ReducerTests.options
        options.boardZone = "Europe/Berlin"
        var state = AppState(options: options, store: .initial, storeHealth: .healthy, seed: 1)
        var effects: [Effect] = []
        state.reduce(.start, at: ReducerTests.moment(0), into: &effects)
        state.reduce(.zone(.fixed(offsetSeconds: 7200, identifier: "Europe/Berlin"), .board), at: ReducerTests.moment(0), into: &effects)
        #expect(state.zoneSource == .board)
        effects.removeAll()
        state.reduce(Self.fix(52.53, 13.41), at: ReducerTests.moment(5), into: &effects)
        #expect(Self.zoneRequests(effects).isEmpty)
        #expect(state.zoneSource == .position)
        #expect(Self.logLines(effects) == ["zone: Europe/Berlin from the GPS position (the position table)"])
    }

    @Test("the GPS entry is named after the nearest place; far from every place, by its coordinates")
    func shownName() {
        var (state, effects) = ReducerTests.started()
        state.reduce(Self.fix(69.6492, 18.9553), at: ReducerTests.moment(5), into: &effects)
        #expect(state.model.place == Place(name: "Tromsø", source: .gps))
        state.reduce(Self.fix(40.0, -40.0), at: ReducerTests.moment(6), into: &effects)  // mid-Atlantic
        #expect(state.model.place == Place(name: "40.00N 40.00W", source: .gps))
    }

    @Test("saving the position names it \"near\" the nearest place, or by its coordinates far from any")
    func savedName() {
        var (state, effects) = ReducerTests.started()
        state.reduce(Self.fix(69.6492, 18.9553), at: ReducerTests.moment(5), into: &effects)
        effects.removeAll()
        state.reduce(ReducerTests.press(1, .long, at: 6), at: ReducerTests.moment(6), into: &effects)
        guard case .commit(.addLocation(let saved))? = effects.first(where: { if case .commit = $0 { true } else { false } }) else {
            Issue.record("no commit: \(effects)")
            return
        }
        #expect(saved.name.value == "near Tromsø")
        effects.removeAll()
        state.reduce(Self.fix(40.0, -40.0), at: ReducerTests.moment(7), into: &effects)
        effects.removeAll()
        state.reduce(ReducerTests.press(1, .long, at: 8), at: ReducerTests.moment(8), into: &effects)
        #expect(effects.contains { if case .commit(.addLocation(let far)) = $0 { far.name.value == "40.00N 40.00W" } else { false } })
    }
}

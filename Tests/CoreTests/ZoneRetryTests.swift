import Core
import HAL
import Testing
import Weather

/// A zone that does not load at start is asked for again, like every other
/// part that fails at start: after 1 min, doubling to 1 h, while it is still the zone wanted.
@Suite("Core: a zone that did not load is retried")
struct ZoneRetryTests {
    static func loads(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .loadZone(let name, .board) = $0 { return name } else { return nil } }
    }

    static func logs(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .log(let line) = $0 { return line.words } else { return nil } }
    }

    @Test("tzdata missing at start: asked again at 60 s, then 120 s later; once it loads, one line and the clock in that zone")
    func retriedWithBackoff() {
        var options = ReducerTests.options
        options.boardZone = "Europe/Berlin"
        var state = AppState(options: options, store: .initial, storeHealth: .healthy, seed: 1)
        var effects: [Effect] = []
        state.reduce(.start, at: ReducerTests.moment(0), into: &effects)
        #expect(Self.loads(effects) == ["Europe/Berlin"])
        effects.removeAll()
        state.reduce(.zoneFailed("Europe/Berlin", .board, reason: "no such file"), at: ReducerTests.moment(0), into: &effects)
        #expect(Self.logs(effects).contains { $0.hasSuffix("keeping UTC, trying again in 60 s") })
        #expect(state.nextDeadline! <= ReducerTests.moment(60).now)
        effects.removeAll()
        state.reduce(.tick, at: ReducerTests.moment(59), into: &effects)
        #expect(Self.loads(effects).isEmpty)
        state.reduce(.tick, at: ReducerTests.moment(60), into: &effects)
        #expect(Self.loads(effects) == ["Europe/Berlin"])
        effects.removeAll()
        state.reduce(.zoneFailed("Europe/Berlin", .board, reason: "no such file"), at: ReducerTests.moment(60), into: &effects)
        #expect(Self.logs(effects).contains { $0.hasSuffix("trying again in 120 s") })
        effects.removeAll()
        state.reduce(.tick, at: ReducerTests.moment(180), into: &effects)
        #expect(Self.loads(effects) == ["Europe/Berlin"])
        effects.removeAll()
        state.reduce(.zone(.fixed(offsetSeconds: 3600, identifier: "Europe/Berlin"), .board), at: ReducerTests.moment(181), into: &effects)
        #expect(state.zone.identifier == "Europe/Berlin")
        #expect(Self.logs(effects).contains("zone Europe/Berlin: loaded after all"))
        effects.removeAll()
        state.reduce(.tick, at: ReducerTests.moment(4000), into: &effects)
        #expect(Self.loads(effects).isEmpty, "no retry once loaded")
    }
}

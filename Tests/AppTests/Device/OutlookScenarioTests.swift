import App
import Core
import HAL
import HALSim
import Screens
import Testing
import Weather

/// The "next two hours" line on the whole device: the simulated Open-Meteo's 15-minute data
/// through the real decoder, repository, reducer and screens.
@Suite("Device: the next two hours")
struct OutlookScenarioTests {
    /// 2026-06-21T06:00:00Z, a summer morning in Berlin with the simulated climate dry for
    /// hours (checked below, so a change of the climate shows up here first).
    static let dryMorning = DeviceRig.at(2026, 6, 21, 6, 0)

    @Test("a forecast that goes stale stops saying dry: it says its age, then nothing")
    func staleForecastNeverSaysDry() {
        let board = DeviceRig.make(start: Self.dryMorning)
        board.advance(by: .seconds(60))
        let report = board.device.state.weather.state.value
        #expect(report?.nowcast.isEmpty == false, "the simulated Open-Meteo serves minutely_15")
        #expect(board.device.state.model.outlook == .dry)
        DeviceRig.expectGlassAgrees(board)

        board.apply(.network(up: false))
        // Still within the hour in which the screens call the data fresh: dry.
        board.advance(by: .seconds(50 * 60))
        #expect(board.device.state.model.outlook == .dry)
        // Past it: never "dry" again, on any minute, until the data is too old to say anything.
        var sawAge = false
        for _ in 0..<150 {
            board.advance(by: .seconds(60))
            let outlook = board.device.state.model.outlook
            guard let fetched = report?.fetchedAt else { break }
            let age = board.clock.wallTime() - fetched
            if age > .seconds(3600) { #expect(outlook != .dry, "dry from data \(age) old") }
            if case .unsure(let minutes) = outlook {
                sawAge = true
                #expect(minutes > 60)
            }
        }
        #expect(sawAge, "the line said the data's age before going silent")
        #expect(board.device.state.model.outlook == nil, "over 3 hours old: nothing")
        DeviceRig.expectGlassAgrees(board)

        board.apply(.network(up: true))
        board.advance(by: .seconds(40 * 60))  // the backoff is capped at 30 min ±20 %
        #expect(board.device.state.model.outlook == .dry, "a fresh forecast may say dry again")
    }

    /// 2026-11-10T00:00:00Z: Berlin in November, when the simulated climate has wet spells.
    static let november = DeviceRig.at(2026, 11, 10, 0, 0)

    @Test("through two November days the line foretells the simulated climate's rain and then says when it stops")
    func wetSpellsAreForetold() {
        let board = DeviceRig.make(start: Self.november)
        var startsBeforeRain = false
        var stops = false
        var dry = false
        var last: OutlookLine?
        for _ in 0..<(2 * 24 * 4) {
            board.advance(by: .seconds(15 * 60))
            let line = board.device.state.model.outlook
            switch line {
            case .startsIn?, .startsAt?: startsBeforeRain = true
            case .until(_, _?)?: stops = true
            case .dry?: dry = true
            default: break
            }
            if line != last { board.note("outlook: \(String(describing: line))") }
            last = line
        }
        #expect(startsBeforeRain, "no start of rain or snow was foretold in two days")
        #expect(stops, "no end of rain was foretold")
        #expect(dry, "never dry in two days")
        DeviceRig.expectGlassAgrees(board)
    }
}

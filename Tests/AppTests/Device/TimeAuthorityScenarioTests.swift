import App
import Core
import HAL
import HALSim
import Screens
import Store
import Testing
import SystemPackage
import Weather

/// One authority for time on the simulated board, whose system clock, GPS time and
/// monotonic clock are set apart (`SimulationSetup.systemClockOffset`, script clock events).
/// Each scenario asserts on the state and on the glass.
@Suite("Device: one authority for time")
struct TimeAuthorityScenarioTests {
    /// 2026-12-01T10:00:00Z, after this build's release date (a GPS date before it would be
    /// taken for a week-number rollover, `GPSTimeRules`).
    static let december = DeviceRig.at(2026, 12, 1, 10, 0)

    /// The true time of day at the shown place, as the clock must show it.
    static func trueClock(_ board: SimulatedBoard) -> ClockTime {
        let now = board.trueTime
        let local = CivilDateTime(now, offsetSeconds: board.device.state.zone.offset(at: now))
        return ClockTime(hour: local.hour, minute: local.minute)
    }

    /// Runs in 50 ms steps until the GPS time is vouched for; returns that instant.
    static func untilGPSTime(_ board: SimulatedBoard) -> Instant? {
        for _ in 0..<400 {
            if let vouched = board.device.location.clockTime { return vouched.at }
            board.advance(by: .milliseconds(50))
        }
        return nil
    }

    /// `within`: how long ago the last fetch may have arrived (on the true time).
    static func expectWeatherFresh(_ board: SimulatedBoard, within: Duration, sourceLocation: SourceLocation = #_sourceLocation) {
        let state = board.device.state
        let report = state.weather.state.value
        #expect(report != nil, "no weather", sourceLocation: sourceLocation)
        guard let report else { return }
        let stampError = report.fetchedAt - board.trueTime
        #expect(stampError <= .zero && stampError > .zero - within, "stamped \(stampError) from the true time", sourceLocation: sourceLocation)
        #expect(state.weather.freshness(at: board.device.moment.wall) == .fresh, sourceLocation: sourceLocation)
        #expect(state.model.weather.freshness == .fresh, sourceLocation: sourceLocation)
        #expect(state.model.weather.forecast?.current.temperature != nil, "the current temperature is blank", sourceLocation: sourceLocation)
        #expect(state.model.weather.forecast?.hours.isEmpty == false, "the hours are empty", sourceLocation: sourceLocation)
    }

    @Test(
        "system clock 3 d behind, 3 d ahead, 2 months behind, GPS good: the right clock within 1 s of the vouched fix, fresh weather",
        .enabled(if: DeviceRig.hasZones), arguments: [-3 * 86_400, 3 * 86_400, -61 * 86_400] as [Int64])
    func skewedSystemClock(offset: Int64) {
        let board = DeviceRig.make(start: Self.december) {
            $0.systemClock = .unsynchronised
            $0.systemClockOffset = .seconds(offset)
        }
        board.advance(by: .milliseconds(500))
        #expect(board.device.state.clockSource == .unsure)
        #expect(board.device.state.model.clock?.unsure == true, "the system clock's guess is shown marked unsure")
        guard let vouched = Self.untilGPSTime(board) else {
            Issue.record("no GPS time was vouched for in 20 s")
            return
        }
        // The wake-up that vouched redrew the clock: the true time, not marked.
        #expect(board.clock.now() - vouched < .milliseconds(50))
        #expect(board.device.state.clockSource == .gps)
        #expect(board.device.state.model.clock == Self.trueClock(board))
        #expect(board.timeline.contains { $0.text.hasPrefix("clock: now GPS time") })
        board.advance(by: .seconds(30))
        Self.expectWeatherFresh(board, within: .seconds(45))
        #expect(board.device.state.model.clock == Self.trueClock(board))
        DeviceRig.expectGlassAgrees(board)
        // An hour on: the weather was refreshed and is still fresh, the hours moved on.
        board.advance(by: .seconds(3600))
        Self.expectWeatherFresh(board, within: .seconds(17 * 60))
        DeviceRig.expectGlassAgrees(board)
    }

    @Test("an NTP step of +1 h and of −1 h mid-run: the clock follows at once, no fetch storm, the weather neither stale nor fresh by mistake", arguments: [3600, -3600] as [Int64])
    func ntpStep(by seconds: Int64) throws {
        let script = try SimulationScript.parse(#"{"at": 600, "clock": "step", "by": \#(seconds)}"#)
        let board = DeviceRig.make(start: Self.december) { $0.weather = .sample }
        board.run(script, duration: .seconds(599))
        #expect(board.device.state.clockSource == .system)
        let fetchesBefore = board.network?.fetches ?? 0
        let stampBefore = try #require(board.device.state.weather.state.value?.fetchedAt)
        board.apply(script.steps[0].action)  // at 599 s: the step, and the wake-up it causes
        let system = board.clock.wallTime()
        // The clock shows the stepped system time: the kernel vouches for it.
        let local = CivilDateTime(system, offsetSeconds: board.device.state.zone.offset(at: system))
        #expect(board.device.state.model.clock == ClockTime(hour: local.hour, minute: local.minute))
        #expect(board.timeline.contains { $0.text.hasPrefix("clock: the synchronised system clock stepped by") })
        // The report that arrived before the step keeps its age (monotonic), under the new clock.
        let stampAfter = try #require(board.device.state.weather.state.value?.fetchedAt)
        #expect(stampAfter - stampBefore == .seconds(seconds))
        #expect(board.device.state.model.weather.freshness == .fresh)
        #expect(board.device.state.model.weather.forecast?.current.temperature != nil)
        // No fetch storm: the next ten minutes ask at most once more (every 15 min + jitter).
        board.advance(by: .seconds(600))
        #expect((board.network?.fetches ?? 0) - fetchesBefore <= 1)
        DeviceRig.expectGlassAgrees(board)
    }

    @Test("an NTP step from the script is seen at once: the clock is right 1 s after it, not at the next minute")
    func stepSeenAtOnce() throws {
        // At 10:00:20 the system clock steps +7 h 30 min: 17:30 is on the clock by 10:00:21.
        let script = try SimulationScript.parse(#"{"at": 20, "clock": "step", "by": 27000}"#)
        let board = DeviceRig.make(start: Self.december) { $0.weather = .offline }
        board.run(script, duration: .seconds(21))
        let system = board.clock.wallTime()
        let local = CivilDateTime(system, offsetSeconds: board.device.state.zone.offset(at: system))
        #expect(board.device.state.model.clock == ClockTime(hour: local.hour, minute: local.minute))
        #expect(local.hour != CivilDateTime(board.trueTime, offsetSeconds: board.device.state.zone.offset(at: board.trueTime)).hour)
        DeviceRig.expectGlassAgrees(board)
    }

    @Test("no GPS and no NTP: the clock marked unsure, the weather aged by the monotonic clock however wrong the system clock")
    func noGPSNoNTP() {
        let board = DeviceRig.make(start: Self.december) {
            $0.gps = .none
            $0.systemClock = .unsynchronised
            $0.systemClockOffset = .seconds(-3 * 86_400)
        }
        board.advance(by: .seconds(10))
        let state = board.device.state
        #expect(state.clockSource == .unsure)
        #expect(state.model.clock?.unsure == true)
        #expect(DeviceRig.line(board, "Clock")?.text == "unsure, no NTP/GPS")
        #expect(DeviceRig.line(board, "Clock")?.isProblem == true)
        #expect(state.weather.state.value != nil, "the weather for the board's place")
        #expect(state.model.weather.freshness == .fresh)
        DeviceRig.expectGlassAgrees(board)
        // Two hours without the network: 2 h old by the monotonic clock.
        board.apply(.network(up: false))
        board.advance(by: .seconds(2 * 3600))
        guard case .stale(let minutes) = board.device.state.model.weather.freshness else {
            Issue.record("not stale after 2 h: \(board.device.state.model.weather.freshness)")
            return
        }
        #expect((119...121).contains(minutes))
        // Written under no trusted time: nothing went to disk with the unsure stamp.
        #expect(!board.setup.disk.exists(FilePath("/state/" + WeatherCache.fileName)))
    }

    @Test("restart with the cache written under GPS time and the system clock still behind: age unknown until GPS time, then its real age")
    func cacheAgeAcrossRestart() throws {
        let disk = CrashableFileSystem()
        let first = DeviceRig.make(start: Self.december, disk: disk) {
            $0.systemClock = .unsynchronised
            $0.systemClockOffset = .seconds(-3 * 86_400)
        }
        first.advance(by: .seconds(30))
        #expect(first.device.state.clockSource == .gps)
        let stamp = try #require(first.device.state.weather.state.value?.fetchedAt)
        #expect(disk.exists(FilePath("/state/" + WeatherCache.fileName)), "written once GPS time vouched for the stamp")
        disk.crash()  // power off: only what is durable remains
        // Two hours later the Pi boots, fake-hwclock 3 days behind, no network.
        let restart = Self.december + .seconds(2 * 3600)
        let second = DeviceRig.make(start: restart, disk: disk) {
            $0.systemClock = .unsynchronised
            $0.systemClockOffset = .seconds(-3 * 86_400)
            $0.weather = .offline
        }
        second.advance(by: .milliseconds(500))
        #expect(second.device.state.clockSource == .unsure)
        #expect(second.device.state.weather.state.value?.fetchedAt == stamp)
        #expect(second.device.state.model.weather.freshness == .ageUnknown, "stamped 3 days ahead of this clock: not fresh")
        #expect(second.device.state.model.weather.forecast?.current.temperature == nil, "an old \"now\" is blanked")
        _ = Self.untilGPSTime(second)
        second.advance(by: .milliseconds(100))
        guard case .stale(let minutes) = second.device.state.model.weather.freshness else {
            Issue.record("not stale once GPS time came: \(second.device.state.model.weather.freshness)")
            return
        }
        #expect((120...122).contains(minutes), "the cache's real age: \(minutes) min")
        DeviceRig.expectGlassAgrees(second)
    }

    @Test("NTP steps the clock, then marks it synchronised without waking anyone: the flag is read again 250 ms after the step")
    func syncFlagAfterStep() {
        let board = DeviceRig.make(start: Self.december) {
            $0.systemClock = .unsynchronised
            $0.weather = .offline
        }
        _ = Self.untilGPSTime(board)
        board.advance(by: .milliseconds(100))
        #expect(board.device.state.clockSource == .gps)
        let trueClock = Self.trueClock(board)
        board.apply(.clock(.set(offset: .seconds(3600))))  // the step: not synchronised yet
        #expect(board.device.state.clockSource == .gps)
        #expect(board.device.state.model.clock == trueClock, "GPS time still rules")
        board.systemClockSynchronised = true  // adjtimex clears STA_UNSYNC: no wake-up
        board.advance(by: .milliseconds(300))
        #expect(board.device.state.clockSource == .system)
        let system = board.clock.wallTime()
        let local = CivilDateTime(system, offsetSeconds: board.device.state.zone.offset(at: system))
        #expect(board.device.state.model.clock == ClockTime(hour: local.hour, minute: local.minute))
        DeviceRig.expectGlassAgrees(board)
    }

    @Test("a receiver that dates its fixes 1,024 weeks back (week-number rollover): the clock is still the true time", .enabled(if: DeviceRig.hasZones))
    func weekRollover() {
        let board = DeviceRig.make(start: Self.december) {
            $0.systemClock = .unsynchronised
            $0.systemClockOffset = .seconds(-40 * 86_400)
            $0.weather = .offline
        }
        board.apply(.gpsWeekRollover)
        #expect(board.timeline.contains { $0.text.contains("1024 weeks back") })
        _ = Self.untilGPSTime(board)
        board.advance(by: .milliseconds(100))
        #expect(board.device.state.clockSource == .gps)
        #expect(board.device.state.model.clock == Self.trueClock(board))
        // 1,024 weeks are whole days: the time of day alone would not show the error.
        let error = board.device.moment.wall - board.trueTime
        #expect(error < .seconds(2) && error > .seconds(-2), "the device's time is \(error) from the true time")
        DeviceRig.expectGlassAgrees(board)
    }
}


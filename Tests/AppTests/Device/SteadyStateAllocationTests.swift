import AllocationCounting
import App
import Core
import DeviceTesting
import HAL
import Testing
import Weather

/// docs/design/architecture.md#the-loop: the loop's steady state allocates nothing. Counted with
/// malloc itself (`countMallocs`) on the rig whose parts allocate nothing of their own.
@Suite("Device: steady state allocates nothing")
struct SteadyStateAllocationTests {
    static func expectNone(_ count: Int, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(count == 0, "\(what): \(count) allocations", sourceLocation: sourceLocation)
    }

    @Test("NMEA epochs, minute ticks, orbit steps and the screen rotation between two weather updates")
    func minutesOfEpochs() throws {
        let rig = try SteadyStateRig(seconds: 1800, rotation: true)
        rig.advance(by: .seconds(60))  // fix, weather, zone, first frames: allowed to allocate
        #expect(rig.device.state.gps.kind == .fix)
        #expect(rig.device.state.weather.state.value != nil)
        #expect(rig.device.state.model.outlook != nil, "the next-two-hours line is on the screen")
        let frames = rig.device.counters.frames
        let wakes = rig.device.counters.wakeups
        let fetches = rig.device.counters.fetches
        // countMallocs runs the body twice (once to warm up): 2 × 390 s, up to 14 min after the
        // first fetch, before the next one (15 min + jitter). A weather update is news, and
        // building its forecast panel allocates (measured in the closing note).
        Self.expectNone(countMallocs { rig.advance(by: .seconds(390)) }, "390 s of epochs, ticks and orbit steps")
        #expect(rig.device.counters.fetches == fetches, "no weather update inside the window")
        #expect(rig.device.counters.frames - frames >= 12, "minute ticks, orbit steps and rotations drew frames")
        #expect(rig.device.counters.wakeups - wakes >= 780)
    }

    @Test("minute ticks while the forecast ages past the hour: the line says its age, minute by minute, allocating nothing")
    func outlookAging() throws {
        let rig = try SteadyStateRig(seconds: 7200, weatherUpdates: false)
        rig.advance(by: .seconds(61 * 60))  // the one forecast is an hour old: no longer "dry"
        guard case .unsure(let before)? = rig.device.state.model.outlook else {
            Issue.record("expected the data's age, got \(String(describing: rig.device.state.model.outlook))")
            return
        }
        Self.expectNone(countMallocs { rig.advance(by: .seconds(300)) }, "5 minutes of ticks with the age moving on")
        guard case .unsure(let after)? = rig.device.state.model.outlook else {
            Issue.record("the age went away: \(String(describing: rig.device.state.model.outlook))")
            return
        }
        #expect(after >= before + 10, "the age moved on, every minute (2 × 5 minutes counted)")
    }

    @Test("a drive inside one zone: fixes 100 m or more apart look the zone up and allocate nothing")
    func zoneLookupOnTheMove() throws {
        let options = DeviceOptions(
            defaultName: "Berlin", defaultPosition: try Coordinate(latitude: 52.52, longitude: 13.405), buttons: [],
            hasSensor: false, boardZone: nil, orbit: false)
        var state = AppState(options: options, store: .initial, storeHealth: .healthy, seed: 1)
        var effects: [Effect] = []
        effects.reserveCapacity(16)
        let wall = WallTime(seconds: 1_782_043_200)
        func moment(_ seconds: Int64) -> Moment {
            Moment(now: Instant(nanoseconds: seconds * 1_000_000_000), wall: wall + .seconds(seconds), source: .system)
        }
        state.reduce(.start, at: moment(0), into: &effects)
        // Three fixes 150–200 m apart in the same 0.01° cell (the place's name stays), built
        // before counting.
        let fixes = try [(52.5210, 13.4010), (52.5225, 13.4025), (52.5240, 13.4040)].map { latitude, longitude in
            Event.gps(GPSReport(kind: .fix, position: try Coordinate(latitude: latitude, longitude: longitude), satellites: 9, threeD: true))
        }
        state.reduce(fixes[0], at: moment(1), into: &effects)
        #expect(effects.contains(.loadZone("Europe/Berlin", .position)))
        effects.removeAll(keepingCapacity: true)
        let moments = (2...7).map { moment(Int64($0)) }
        var step = 0
        Self.expectNone(
            countMallocs {
                for index in 0..<fixes.count {
                    state.reduce(fixes[index], at: moments[step], into: &effects)
                    step += 1
                }
                effects.removeAll(keepingCapacity: true)
            }, "fixes on the move in one zone")
        #expect(state.zoneSource != .provider)
    }

    @Test("a button press through the debouncer, the commit, the render and the flush")
    func buttonPress() throws {
        let rig = try SteadyStateRig(seconds: 600)
        rig.advance(by: .seconds(60))
        // Warm: one round trip of the setting, so every buffer on the path has been used.
        rig.press(0)
        rig.advance(by: .seconds(1))
        rig.press(0)
        rig.advance(by: .seconds(1))
        let sequence = rig.device.store.sequence
        Self.expectNone(
            countMallocs {
                rig.press(0)
                rig.advance(by: .seconds(1))
            }, "a press of A (°C ↔ °F), committed and drawn")
        // Run twice by countMallocs: °F, then °C again.
        #expect(rig.device.store.sequence == sequence + 2)
        #expect(rig.device.state.store.settings.temperature == .celsius)
    }
}

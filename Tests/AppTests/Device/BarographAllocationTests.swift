import AllocationCounting
import Core
import HAL
import Testing
import Weather

/// docs/design/architecture.md#the-loop: a sensor reading that closes the barograph's
/// 10-minute interval (the sample recorded in the ring, the tendency, the storm alarm, and
/// the hourly `.saveBarograph` when due) allocates nothing in the logic. Only the runtime's
/// file image for the hourly write allocates (`BarographFile.encode`, off the sample's path).
@Suite("Device: a barograph sample allocates nothing")
struct BarographAllocationTests {
    @Test("an hour of readings through the reducer, six samples and one hourly write among them")
    func samplesAllocateNothing() throws {
        let options = DeviceOptions(
            defaultName: "Berlin", defaultPosition: try Coordinate(latitude: 52.52, longitude: 13.405), buttons: [],
            hasSensor: true, boardZone: nil, orbit: false)
        var state = AppState(options: options, store: .initial, storeHealth: .healthy, seed: 1)
        var effects: [Effect] = []
        effects.reserveCapacity(16)
        let wall = WallTime(seconds: 1_782_043_200)  // 2026-06-21T12:00:00Z, a whole 10 minutes
        func moment(_ seconds: Int64) -> Moment {
            Moment(now: Instant(nanoseconds: seconds * 1_000_000_000), wall: wall + .seconds(seconds), source: .system)
        }
        state.reduce(.start, at: moment(0), into: &effects)
        let reading = Event.indoor(.reading(temperature: 21.5, humidity: 40, pressure: 1005.25))
        // A GPS height every minute, as the runtime sends it: the samples are good, so the
        // tendency is sure and the alarm's whole update runs.
        let height = Event.altitude(48.5)
        var minute: Int64 = 0
        var saves = 0
        func readings(_ count: Int) {
            for _ in 0..<count {
                minute += 1
                effects.removeAll(keepingCapacity: true)
                state.reduce(height, at: moment(minute * 60), into: &effects)
                state.reduce(reading, at: moment(minute * 60 + 1), into: &effects)
                // By index: an unoptimised `for … in` allocates per element (Device.send).
                for index in 0..<effects.count where effects[index] == .saveBarograph { saves += 1 }
            }
        }
        readings(5 * 60)  // the ring holds 5 hours, the tendency is known, every buffer used once
        #expect(state.barograph.count >= 29)
        guard case .sure = state.pressureTendency else {
            Issue.record("no sure tendency: \(state.pressureTendency)")
            return
        }
        let (samples, writes) = (state.barograph.count, saves)
        let mallocs = countMallocs { readings(60) }
        #expect(mallocs == 0, "an hour of readings: \(mallocs) allocations")
        #expect(state.barograph.count - samples == 12, "two hours counted (countMallocs runs twice)")
        #expect(saves - writes == 2, "one hourly write an hour")
    }
}

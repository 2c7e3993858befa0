import HAL
import Testing
@testable import Store

@Suite struct InMemoryStoreTests {
    @Test func changesAreValidatedAppliedAndObserved() throws {
        let store = InMemoryStore()
        var events: [StoreEvent] = []
        store.observe { events.append($0) }
        let zurich = try store.addLocation(name: "Zürich", latitude: 47.3769, longitude: 8.5417)
        #expect(try store.update { $0.temperature = .fahrenheit } == .durable(sequence: 2))
        #expect(try store.update { $0.temperature = .fahrenheit } == .unchanged)
        #expect(throws: StoreError.unknownLocation(LocationID(9))) { try store.removeLocation(LocationID(9)) }
        #expect(throws: StoreError.nameEmpty) { try store.addLocation(name: "  ", latitude: 0, longitude: 0) }
        #expect(throws: StoreError.latitudeOutOfRange(90.5)) { try store.addLocation(name: "x", latitude: 90.5, longitude: 0) }
        #expect(store.sequence == 2 && store.locations.map(\.id) == [zurich])
        #expect(events.count == 2)
    }
}

/// A crafted store can hold `nextLocationID` at `UInt32.max`; adding from there
/// used to accept the same id twice (`max(next, id &+ 1)` stays at the maximum).
@Suite struct LocationIDExhaustionTests {
    static func state() throws -> StoreState {
        StoreState(
            locations: [SavedLocation(id: LocationID(7), name: try LocationName("Oslo"), coordinate: try Coordinate(latitude: 59.91, longitude: 10.75))],
            nextLocationID: LocationID(UInt32.max))
    }

    @Test func noLocationIsAddedOnceTheIdsAreUsedUp() throws {
        var state = try Self.state()
        let last = SavedLocation(id: LocationID(UInt32.max), name: try LocationName("Bergen"), coordinate: try Coordinate(latitude: 60.39, longitude: 5.32))
        #expect(throws: StoreError.locationIDsExhausted) { _ = try state.validate(.addLocation(last)) }
        // Even a caller that skips validation cannot make two locations share an id.
        if (try? state.validate(.addLocation(last))) == true { state.apply(.addLocation(last)) }
        if (try? state.validate(.addLocation(last))) == true { state.apply(.addLocation(last)) }
        #expect(Set(state.locations.map(\.id)).count == state.locations.count)
    }

    @Test func theStoreSaysSoInOneLine() throws {
        let store = InMemoryStore(try Self.state())
        #expect(throws: StoreError.locationIDsExhausted) { try store.addLocation(name: "Bergen", latitude: 60.39, longitude: 5.32) }
        #expect(store.locations.map(\.id) == [LocationID(7)])
        #expect(!StoreError.locationIDsExhausted.description.contains("\n"))
    }
}

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

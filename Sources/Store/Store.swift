import HAL

/// Settings and saved locations that survive power cuts (docs/design/patterns.md, the original
/// design's `Store`): the file store on the device, the in-memory store in tests and
/// simulation. One loop owns a store; nothing here is thread-safe.
public protocol Store: AnyObject {
    /// Everything the store holds now, including changes not yet durable in a degraded store.
    var state: StoreState { get }
    /// The number of the last durable commit.
    var sequence: UInt64 { get }
    var health: StoreHealth { get }
    /// Validates and commits one atomic change. Throws (changing nothing) when the change is
    /// refused; otherwise says whether it is durable.
    func commit(_ change: StoreChange) throws(StoreError) -> CommitOutcome
    /// Calls `observer` after every durable change and every change of health, on the loop
    /// that commits. Observers are kept for the store's life.
    func observe(_ observer: @escaping (StoreEvent) -> Void)
}

extension Store {
    public var settings: Settings { state.settings }
    public var locations: [SavedLocation] { state.locations }

    /// Sets several settings in one atomic commit.
    @discardableResult
    public func update(_ body: (inout Settings) -> Void) throws(StoreError) -> CommitOutcome {
        var settings = state.settings
        body(&settings)
        return try commit(.settings(settings))
    }

    /// Saves a location and returns its new id.
    @discardableResult
    public func addLocation(name: String, latitude: Double, longitude: Double) throws(StoreError) -> LocationID {
        let location = try SavedLocation(
            id: state.nextLocationID, name: try LocationName(name), latitude: latitude, longitude: longitude)
        _ = try commit(.addLocation(location))
        return location.id
    }

    @discardableResult
    public func removeLocation(_ id: LocationID) throws(StoreError) -> CommitOutcome {
        try commit(.removeLocation(id))
    }

    @discardableResult
    public func renameLocation(_ id: LocationID, to name: String) throws(StoreError) -> CommitOutcome {
        try commit(.renameLocation(id, try LocationName(name)))
    }

    @discardableResult
    public func moveLocation(_ id: LocationID, to index: Int) throws(StoreError) -> CommitOutcome {
        try commit(.moveLocation(id, to: index))
    }
}

/// The observers of one store: registered once at start-up, called in order.
struct StoreObservers {
    private var observers: [(StoreEvent) -> Void] = []

    mutating func add(_ observer: @escaping (StoreEvent) -> Void) { observers.append(observer) }

    func send(_ event: StoreEvent) {
        for observer in observers { observer(event) }
    }
}

/// One atomic change: all of it is durable, or none of it.
public enum StoreChange: Equatable, Sendable {
    /// Sets every setting to these values; only the keys that differ are written.
    case settings(Settings)
    /// Appends a location; its id must be the store's `nextLocationID`.
    case addLocation(SavedLocation)
    case removeLocation(LocationID)
    case renameLocation(LocationID, LocationName)
    /// Moves a location to `index` in the list as it is after the location was taken out.
    case moveLocation(LocationID, to: Int)
}

/// Everything the store holds. A value: the in-memory and the file store share it, and the
/// file store's recovery replays records into it.
public struct StoreState: Equatable, Sendable {
    public static let maximumLocations = 50

    public var settings: Settings
    public private(set) var locations: [SavedLocation]
    /// The id the next added location gets; ids are never reused.
    public private(set) var nextLocationID: LocationID

    public init(settings: Settings = .defaults, locations: [SavedLocation] = [], nextLocationID: LocationID? = nil) {
        self.settings = settings
        self.locations = locations
        self.nextLocationID =
            nextLocationID ?? LocationID((locations.map(\.id.rawValue).max() ?? 0) + 1)
        self.locations.reserveCapacity(Self.maximumLocations)
    }

    public static let initial = StoreState()

    public func index(of id: LocationID) -> Int? { locations.firstIndex { $0.id == id } }

    /// Whether `change` would change anything; throws if it would be refused.
    public func validate(_ change: StoreChange) throws(StoreError) -> Bool {
        switch change {
        case .settings(let new):
            return new != settings
        case .addLocation(let location):
            guard locations.count < Self.maximumLocations else { throw .tooManyLocations(limit: Self.maximumLocations) }
            // The last id cannot be handed out: the one after it does not exist, so the next
            // add would get the same id again.
            guard nextLocationID.rawValue < UInt32.max else { throw .locationIDsExhausted }
            // Ids are handed out in order; anything else is a caller that raced another add.
            guard location.id == nextLocationID else { throw .unknownLocation(location.id) }
            return true
        case .removeLocation(let id):
            guard index(of: id) != nil else { throw .unknownLocation(id) }
            return true
        case .renameLocation(let id, let name):
            guard let i = index(of: id) else { throw .unknownLocation(id) }
            return locations[i].name != name
        case .moveLocation(let id, let to):
            guard let i = index(of: id) else { throw .unknownLocation(id) }
            guard locations.indices.contains(to) else { throw .indexOutOfRange(to, count: locations.count) }
            return i != to
        }
    }

    /// Applies a change that `validate` accepted.
    public mutating func apply(_ change: StoreChange) {
        switch change {
        case .settings(let new):
            settings = new
        case .addLocation(let location):
            locations.append(location)
            nextLocationID = LocationID(max(nextLocationID.rawValue, location.id.rawValue &+ 1))
        case .removeLocation(let id):
            if let i = index(of: id) { locations.remove(at: i) }
        case .renameLocation(let id, let name):
            if let i = index(of: id) { locations[i].name = name }
        case .moveLocation(let id, let to):
            guard let i = index(of: id), locations.indices.contains(to) else { return }
            let location = locations.remove(at: i)
            locations.insert(location, at: to)
        }
    }
}

import HAL

/// A change the store refused. Nothing changed, in memory or on disk.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case latitudeOutOfRange(Double)
    case longitudeOutOfRange(Double)
    case nameEmpty
    case nameTooLong(bytes: Int, limit: Int)
    case nameHasControlCharacters
    case unknownLocation(LocationID)
    case indexOutOfRange(Int, count: Int)
    case tooManyLocations(limit: Int)
    /// Every location id has been handed out (ids are never reused; only a crafted or damaged
    /// store gets here, 4 billion adds in).
    case locationIDsExhausted
    /// The store cannot be written: it holds data from a newer build, or it was opened for
    /// reading only.
    case readOnly(String)
    /// The store was closed.
    case closed

    /// The reason a store opened with `FileStoreConfiguration.readOnly` refuses changes.
    public static let openedForReading = "opened for reading only"

    public var description: String {
        switch self {
        case .latitudeOutOfRange(let v): "latitude \(v) is outside −90…90"
        case .longitudeOutOfRange(let v): "longitude \(v) is outside −180…180"
        case .nameEmpty: "the name is empty"
        case .nameTooLong(let bytes, let limit): "the name is \(bytes) bytes of UTF-8; at most \(limit) fit"
        case .nameHasControlCharacters: "the name contains control characters"
        case .unknownLocation(let id): "no saved location has id \(id)"
        case .indexOutOfRange(let i, let count): "index \(i) is outside 0…\(max(count - 1, 0))"
        case .tooManyLocations(let limit): "at most \(limit) locations can be saved"
        case .locationIDsExhausted: "no location id is left to give a new location (the store's next id is at its maximum)"
        case .readOnly(let why): "the store is read-only: \(why)"
        case .closed: "the store is closed"
        }
    }
}

extension StoreError {
    /// A coordinate's range error as the store reports it (a usage error, exit 64).
    public init(_ error: CoordinateError) {
        switch error {
        case .latitudeOutOfRange(let value): self = .latitudeOutOfRange(value)
        case .longitudeOutOfRange(let value): self = .longitudeOutOfRange(value)
        }
    }
}

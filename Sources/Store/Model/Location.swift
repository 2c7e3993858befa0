import HAL

/// A saved location's stable id: assigned once, never reused, kept across reorders and renames.
public struct LocationID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public static func < (a: LocationID, b: LocationID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// A place name as the display shows it: 1…40 bytes of UTF-8, no control characters, not only
/// spaces. 40 bytes is two lines of the smallest font on a 128-pixel panel.
public struct LocationName: Hashable, Sendable, CustomStringConvertible {
    public static let maximumBytes = 40
    public let value: String

    public init(_ value: String) throws(StoreError) {
        let bytes = value.utf8.count
        guard value.contains(where: { !$0.isWhitespace }) else { throw .nameEmpty }
        guard bytes <= Self.maximumBytes else { throw .nameTooLong(bytes: bytes, limit: Self.maximumBytes) }
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw .nameHasControlCharacters
        }
        self.value = value
    }

    public var description: String { value }
}

public struct SavedLocation: Hashable, Sendable {
    public var id: LocationID
    public var name: LocationName
    /// Kept at the store's resolution, 10⁻⁷ degree (about 1 cm), which is what the file holds
    /// (two `Int32`s): a finer position, such as a GPS fix, is rounded when it is set, so what
    /// is saved is what is read back, bit for bit.
    public var coordinate: Coordinate {
        didSet { coordinate = coordinate.rounded(places: 7) }
    }

    public init(id: LocationID, name: LocationName, coordinate: Coordinate) {
        self.id = id
        self.name = name
        self.coordinate = coordinate.rounded(places: 7)
    }

    /// A location at `latitude`, `longitude` degrees; fails with the store's error kinds.
    public init(id: LocationID, name: LocationName, latitude: Double, longitude: Double) throws(StoreError) {
        do throws(CoordinateError) {
            self.init(id: id, name: name, coordinate: try Coordinate(latitude: latitude, longitude: longitude))
        } catch {
            throw StoreError(error)
        }
    }
}

/// A saved location's stable id: assigned once, never reused, kept across reorders and renames.
public struct LocationID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public static func < (a: LocationID, b: LocationID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// A position in exact fixed point: 10⁻⁷ degree (about 1 cm), so what is stored is what is
/// read back, bit for bit, with no floating-point drift across saves.
public struct Coordinate: Hashable, Sendable {
    public static let scale = 10_000_000
    /// −90°…90° in 10⁻⁷ degree.
    public let latitudeE7: Int32
    /// −180°…180° in 10⁻⁷ degree.
    public let longitudeE7: Int32

    /// Fails when a value is outside its range.
    public init(latitudeE7: Int32, longitudeE7: Int32) throws(StoreError) {
        guard abs(Int(latitudeE7)) <= 90 * Self.scale else {
            throw .latitudeOutOfRange(Double(latitudeE7) / Double(Self.scale))
        }
        guard abs(Int(longitudeE7)) <= 180 * Self.scale else {
            throw .longitudeOutOfRange(Double(longitudeE7) / Double(Self.scale))
        }
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
    }

    /// Degrees, rounded to 10⁻⁷; fails on NaN, infinity or a value out of range.
    public init(latitude: Double, longitude: Double) throws(StoreError) {
        guard latitude.isFinite, abs(latitude) <= 90 else { throw .latitudeOutOfRange(latitude) }
        guard longitude.isFinite, abs(longitude) <= 180 else { throw .longitudeOutOfRange(longitude) }
        try self.init(
            latitudeE7: Int32((latitude * Double(Self.scale)).rounded()),
            longitudeE7: Int32((longitude * Double(Self.scale)).rounded()))
    }

    public var latitude: Double { Double(latitudeE7) / Double(Self.scale) }
    public var longitude: Double { Double(longitudeE7) / Double(Self.scale) }
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
    public var coordinate: Coordinate

    public init(id: LocationID, name: LocationName, coordinate: Coordinate) {
        self.id = id
        self.name = name
        self.coordinate = coordinate
    }
}

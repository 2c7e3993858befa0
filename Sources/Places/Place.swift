import CPlaceData
import HAL

/// One populated place of the generated table (GeoNames cities5000, CC BY 4.0; see
/// Sources/CPlaceData/places.c for which places and how many): an index into read-only data.
///
/// Every property reads the table in place: `nameUTF8` and `countryCodeUTF8` allocate nothing;
/// `name` and `countryCode` make a `String`, for the edges. The index is only meaningful for one
/// build of the table; store a place by its name and coordinate, not by its index.
public struct Place: Sendable, Hashable {
    /// The place's position in the table, `0..<PlaceTable.count`.
    public let index: Int

    /// The place at `index`, or nil when `index` is not in `0..<PlaceTable.count`.
    public init?(index: Int) {
        guard index >= 0, index < PlaceTable.count else { return nil }
        self.index = index
    }

    init(checkedIndex index: Int) {
        self.index = index
    }

    /// The name as GeoNames writes it ("Tromsø", "São Paulo"), UTF-8 without a terminator. The
    /// bytes are the table's own: static, read-only, valid for the life of the process.
    public var nameUTF8: UnsafeBufferPointer<UInt8> {
        let table = thunderstorm_places
        let block = index / Int(PLACES_NAME_BLOCK)
        var start = Int(table.name_block_start[block])
        var earlier = block * Int(PLACES_NAME_BLOCK)
        while earlier < index {
            start += Int(table.name_length[earlier])
            earlier += 1
        }
        return UnsafeBufferPointer(start: table.names + start, count: Int(table.name_length[index]))
    }

    /// Calls `body` with the name's UTF-8 bytes (see `nameUTF8`).
    public func withName<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(nameUTF8)
    }

    /// The name as GeoNames writes it. Allocates; use `nameUTF8` on the device's loop.
    public var name: String { String(decoding: nameUTF8, as: UTF8.self) }

    /// The ISO 3166-1 alpha-2 country code as two uppercase ASCII letters ("NO").
    public var countryCodeUTF8: (UInt8, UInt8) {
        let table = thunderstorm_places
        // The last run that starts at or before this place.
        var low = 0, high = Int(PLACES_COUNTRY_RUN_COUNT)  // run `low` starts ≤ index; `high` > index
        while high - low > 1 {
            let middle = (low + high) / 2
            if Int(table.country_run_start[middle]) <= index { low = middle } else { high = middle }
        }
        let country = Int(table.country_run_country[low])
        return (UInt8(bitPattern: table.country_codes[2 * country]), UInt8(bitPattern: table.country_codes[2 * country + 1]))
    }

    /// The ISO 3166-1 alpha-2 country code ("NO"); two ASCII letters fit a small string.
    public var countryCode: String {
        withUnsafeBytes(of: countryCodeUTF8) { String(decoding: $0, as: UTF8.self) }
    }

    /// The latitude in 10⁻⁴ degree, as stored (GeoNames' position rounded half away from zero).
    public var latitudeE4: Int32 { Int32(PlaceGrid.position(of: index).latitude) }
    /// The longitude in 10⁻⁴ degree, as stored.
    public var longitudeE4: Int32 { Int32(PlaceGrid.position(of: index).longitude) }

    /// The stored position, exactly (10⁻⁴ degree is 600,000 nano-minutes).
    public var coordinate: Coordinate {
        let position = PlaceGrid.position(of: index)
        do {
            return try Coordinate(latitudeE7: Int32(position.latitude * 1000), longitudeE7: Int32(position.longitude * 1000))
        } catch {
            // The generator checks every position's range.
            preconditionFailure("place \(index) has a position out of range: \(error)")
        }
    }
}

/// The nearest place to a position and how far it is.
public struct NearbyPlace: Sendable, Hashable {
    public let place: Place
    /// The great-circle distance on a sphere of radius `PlaceTable.earthRadiusMeters`, rounded to
    /// the metre.
    public let distanceMeters: Int

    public init(place: Place, distanceMeters: Int) {
        self.place = place
        self.distanceMeters = distanceMeters
    }
}

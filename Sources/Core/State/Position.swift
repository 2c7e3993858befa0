import Weather

/// A position in degrees, as the device's logic uses it: the weather service's coordinate type,
/// which the store's fixed-point coordinate and the GPS's exact angles are converted into at
/// the edge (the store and the GPS keep their exact forms for what they do).
public typealias Position = Weather.Coordinate

extension Position {
    /// "52.52N 13.41E": how a place is named until a place name is known (2 decimals, ~1 km,
    /// the resolution the weather is fetched at).
    public var label: String {
        func part(_ value: Double, _ positive: String, _ negative: String) -> String {
            let magnitude = abs(value)
            let hundredths = Int((magnitude * 100).rounded())
            let fraction = hundredths % 100
            return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)\(value < 0 ? negative : positive)"
        }
        return "\(part(latitude, "N", "S")) \(part(longitude, "E", "W"))"
    }

    /// The larger of the latitude and longitude differences, in degrees: the repository's notion
    /// of "moved" (weather-and-sensor.md §4.2).
    public func degreesApart(from other: Position) -> Double {
        max(abs(latitude - other.latitude), abs(longitude - other.longitude))
    }
}

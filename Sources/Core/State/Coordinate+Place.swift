import HAL

/// How the device's logic names and compares places. Every place is a `Coordinate` (HAL's):
/// the GPS fix, a saved location, the board's default and the weather's position alike.
extension Coordinate {
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
    /// of "moved" (docs/design/parts.md#the-weather-service).
    public func degreesApart(from other: Coordinate) -> Double {
        max(abs(latitude - other.latitude), abs(longitude - other.longitude))
    }
}

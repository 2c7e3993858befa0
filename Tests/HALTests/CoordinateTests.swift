import HAL
import Testing

/// The one coordinate: exact for each of its users' forms (the GPS's nano-minutes, the store's
/// 10⁻⁷ degree, the weather's decimal degrees), range-checked on every way in, and rounded
/// exactly for the weather requests.
@Suite struct CoordinateTests {
    @Test func storeIntegersRoundTripExactly() throws {
        let latitudes: [Int32] = [0, 1, -1, 599_100_000, -377_847_000, 123_456_789, 899_999_999, 900_000_000, -900_000_000]
        for latitudeE7 in latitudes {
            let longitudeE7 = latitudeE7 * 2  // to ±1,800,000,000
            let c = try Coordinate(latitudeE7: latitudeE7, longitudeE7: longitudeE7)
            #expect(c.latitudeE7 == latitudeE7 && c.longitudeE7 == longitudeE7)
            #expect(c.latitude == Double(latitudeE7) / 10_000_000 && c.longitude == Double(longitudeE7) / 10_000_000)
            #expect(c.rounded(places: 7) == c)
        }
    }

    @Test func decimalDegreesComeBackAsTheSameDouble() throws {
        let degrees: [Double] = [52.52, 13.41, -104.9849, 59.913_86, 10.752_245, -37.7847, 175.314_893_5, 0.000_000_000_1, 89.999_999_999_9, -180]
        for value in degrees {
            let c = try Coordinate(latitude: value / 2, longitude: value)
            #expect(c.longitude == value)
            #expect(c.latitude == value / 2)
        }
    }

    @Test func aGPSAngleIsKeptToTheNanominute() throws {
        // 44° 04.14063′ N, 121° 18.85478′ W: not on the store's 10⁻⁷° grid.
        let latitude = GeoAngle(degrees: 44, minutes: 4, nanominutesFraction: 140_630_000)
        let longitude = GeoAngle(degrees: 121, minutes: 18, nanominutesFraction: 854_780_001, negative: true)
        let c = try Coordinate(latitude: latitude, longitude: longitude)
        #expect(c.latitudeAngle == latitude && c.longitudeAngle == longitude)
        #expect(c.longitudeAngle.nanominutes % Coordinate.nanominutesPerE7 != 0)
        #expect(c.rounded(places: 7).longitudeE7 == c.longitudeE7)
    }

    @Test func everyWayInChecksTheRange() {
        #expect(throws: CoordinateError.latitudeOutOfRange(90.5)) { try Coordinate(latitude: 90.5, longitude: 0) }
        #expect(throws: CoordinateError.longitudeOutOfRange(-180.5)) { try Coordinate(latitude: 0, longitude: -180.5) }
        #expect(throws: CoordinateError.self) { try Coordinate(latitude: .nan, longitude: 0) }
        #expect(throws: CoordinateError.self) { try Coordinate(latitude: 0, longitude: .infinity) }
        #expect(throws: CoordinateError.latitudeOutOfRange(90.0000001)) { try Coordinate(latitudeE7: 900_000_001, longitudeE7: 0) }
        #expect(throws: CoordinateError.longitudeOutOfRange(-180.0000001)) { try Coordinate(latitudeE7: 0, longitudeE7: -1_800_000_001) }
        let justOver = GeoAngle(nanominutes: 90 * GeoAngle.nanominutesPerDegree + 1)
        #expect(throws: CoordinateError.self) { try Coordinate(latitude: justOver, longitude: GeoAngle(nanominutes: 0)) }
        #expect(throws: CoordinateError.self) { try Coordinate(latitude: GeoAngle(nanominutes: .min), longitude: GeoAngle(nanominutes: 0)) }
    }

    @Test func roundingIsExactAndHalfAwayFromZero() throws {
        let c = try Coordinate(latitude: 52.515, longitude: -52.515)
        #expect(c.rounded(places: 2) == (try Coordinate(latitude: 52.52, longitude: -52.52)))
        #expect(c.rounded(places: 2).latitude == 52.52)
        let met = try Coordinate(latitude: 59.913_86, longitude: 10.752_245)
        #expect(met.rounded(places: 4) == (try Coordinate(latitude: 59.9139, longitude: 10.7522)))
        #expect(met.rounded(places: 0) == (try Coordinate(latitude: 60, longitude: 11)))
        let edge = try Coordinate(latitude: 89.999_9, longitude: -179.999_9)
        #expect(edge.rounded(places: 2) == (try Coordinate(latitude: 90, longitude: -180)))
        #expect(met.rounded(places: 12) == met)
    }

    @Test func equalityIsTheIntegers() throws {
        let zero = try Coordinate(latitude: 0, longitude: 0)
        let negativeZero = try Coordinate(latitude: -0.0, longitude: -0.0)
        #expect(zero == negativeZero)
        #expect(Set([zero, negativeZero]).count == 1)
        #expect(try Coordinate(latitudeE7: 599_100_000, longitudeE7: 107_500_000) == Coordinate(latitude: 59.91, longitude: 10.75))
    }
}

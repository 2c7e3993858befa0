#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AllocationCounting
import HAL
import Places
import Testing

/// The nearest populated place with no network: named positions, the search against
/// a scan of the whole table, no allocation, and the table's own contents.
@Suite("Nearest place")
struct PlaceTableTests {
    static func at(_ latitude: Double, _ longitude: Double) -> Coordinate {
        try! Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The search's answer, checked against the scan on the way.
    static func nearest(_ latitude: Double, _ longitude: Double) -> NearbyPlace {
        let position = at(latitude, longitude)
        let found = PlaceTable.nearest(to: position)
        #expect(found == PlaceTable.nearestByScanning(to: position), "search and scan differ at \(latitude), \(longitude)")
        return found
    }

    @Test("a position in Tromsø is in Tromsø, Norway")
    func tromso() {
        let found = Self.nearest(69.6496, 18.9560)  // the cathedral
        #expect(found.place.name == "Tromsø")
        #expect(found.place.countryCode == "NO")
        #expect(found.distanceMeters < 1_000)
    }

    @Test("central London is London, Great Britain")
    func london() {
        let found = Self.nearest(51.5080, -0.1281)  // Trafalgar Square
        #expect(found.place.name.contains("London"), "got \(found.place.name)")
        #expect(found.place.countryCode == "GB")
        #expect(found.distanceMeters < 3_000)
    }

    @Test("east of the antimeridian in Chukotka the nearest place is west of it: Anadyr")
    func chukotka() {
        let found = Self.nearest(64.9, -179.8)
        #expect(found.place.name == "Anadyr")
        #expect(found.place.countryCode == "RU")
        #expect(found.place.coordinate.longitude > 170)
        #expect((100_000...250_000).contains(found.distanceMeters), "\(found.distanceMeters) m")
    }

    @Test("Fiji across the antimeridian: a point at 179.9° W finds a Fijian place at east longitude")
    func fiji() {
        let found = Self.nearest(-16.5, -179.9)
        #expect(found.place.countryCode == "FJ", "got \(found.place.name), \(found.place.countryCode)")
        #expect(found.place.coordinate.longitude > 178)
        #expect(found.distanceMeters < 150_000, "\(found.distanceMeters) m")
    }

    @Test("the North Pole and the South Pole find a place thousands of kilometres away")
    func poles() {
        for longitude in [-180.0, -90, 0, 45, 180] {
            let north = Self.nearest(90, longitude)
            let south = Self.nearest(-90, longitude)
            #expect(north == Self.nearest(90, 0), "every longitude at the pole is the same point")
            #expect(south == Self.nearest(-90, 0))
            // Southernmost and northernmost kept places: ~54.8° S and ~70–72° N.
            #expect((1_500_000...3_000_000).contains(north.distanceMeters), "\(north.place.name) \(north.distanceMeters) m")
            #expect((3_500_000...4_500_000).contains(south.distanceMeters), "\(south.place.name) \(south.distanceMeters) m")
            #expect(north.place.coordinate.latitude > 65)
            #expect(south.place.coordinate.latitude < -50)
        }
    }

    @Test("the middle of the Pacific is thousands of kilometres from any place")
    func pacific() {
        let found = Self.nearest(-35.0, -125.0)
        #expect(found.distanceMeters > 1_500_000, "\(found.place.name) \(found.distanceMeters) m")
        #expect(Self.nearest(30.0, -150.0).distanceMeters > 1_000_000)
    }

    @Test("a place's own position finds that place at 0 m")
    func ownPosition() {
        for index in stride(from: 0, to: PlaceTable.count, by: 211) {
            let place = PlaceTable.place(at: index)
            let found = PlaceTable.nearest(to: place.coordinate)
            #expect(found.place == place && found.distanceMeters == 0, "\(index) \(place.name)")
        }
    }

    /// 2,400 points uniform on the sphere (SplitMix64, seed fixed), in parallel chunks.
    @Test("the search finds the scan's place for pseudo-random points on the sphere", arguments: 0..<8)
    func againstScan(chunk: Int) {
        var random = SplitMix64(seed: 0x7075_6C61_6365_0000 &+ UInt64(chunk))
        for _ in 0..<300 {
            let u = Double(random.next() >> 11) * 0x1p-53
            let v = Double(random.next() >> 11) * 0x1p-53
            let latitude = asin(2 * u - 1) * 180 / Double.pi
            let longitude = 360 * v - 180
            let position = Self.at(latitude, longitude)
            let found = PlaceTable.nearest(to: position)
            let scanned = PlaceTable.nearestByScanning(to: position)
            #expect(found == scanned, "at \(latitude), \(longitude): \(found.place.name) vs \(scanned.place.name)")
        }
    }

    /// Where a grid search goes wrong: on cell edges (whole degrees), astride the antimeridian,
    /// and in the polar rows where every longitude is near. 1,600 points, latitude uniform in
    /// degrees (so the polar caps are oversampled), half of them within 1° of ±180°.
    @Test("the search finds the scan's place on cell edges, at the antimeridian and near the poles", arguments: 0..<4)
    func edgesAgainstScan(chunk: Int) {
        var random = SplitMix64(seed: 0x6564_6765_0000 &+ UInt64(chunk))
        for trial in 0..<400 {
            var latitude = Double(random.next(in: -90_000_000...90_000_000)) / 1_000_000
            var longitude = Double(random.next(in: -180_000_000...180_000_000)) / 1_000_000
            if trial % 2 == 0 { longitude = (longitude < 0 ? -180 : 180) - longitude / 180 }
            if trial % 3 == 0 { latitude = latitude.rounded() }
            if trial % 5 == 0 { longitude = longitude.rounded() }
            if trial % 50 == 0 { latitude = trial % 100 == 0 ? 90 : -90 }
            let position = Self.at(latitude, longitude)
            let found = PlaceTable.nearest(to: position)
            let scanned = PlaceTable.nearestByScanning(to: position)
            #expect(found == scanned, "at \(latitude), \(longitude): \(found.place.name) vs \(scanned.place.name)")
        }
    }

    @Test("nearest, the name bytes and the country letters allocate nothing")
    func noAllocation() {
        var random = SplitMix64(seed: 16)
        var positions: [Coordinate] = []
        for _ in 0..<200 {
            positions.append(Self.at(Double(random.next(in: -90_000...90_000)) / 1000, Double(random.next(in: -180_000...180_000)) / 1000))
        }
        positions += [Self.at(90, 0), Self.at(-90, 0), Self.at(64.9, -179.8), Self.at(69.6496, 18.9560)]
        let mallocs = countMallocs {
            var sum = 0
            // By index: `for position in positions` costs a malloc per element in a debug build.
            for index in positions.indices {
                let found = PlaceTable.nearest(to: positions[index])
                sum &+= found.distanceMeters &+ found.place.nameUTF8.count &+ Int(found.place.countryCodeUTF8.0)
            }
            keepAlive(sum)
        }
        #expect(mallocs == 0)
        #expect(countMallocs { keepAlive(PlaceTable.place(at: 0).name + String(repeating: "x", count: 40)) } > 0, "the counter counts")
    }

    @Test("every name is valid, non-empty UTF-8 without control characters; every country two capitals")
    func contents() {
        #expect(PlaceTable.count > 50_000)
        for index in 0..<PlaceTable.count {
            let place = PlaceTable.place(at: index)
            let bytes = place.nameUTF8
            let name = String(validating: bytes, as: UTF8.self)
            #expect(name != nil && !bytes.isEmpty, "place \(index)")
            #expect(!bytes.contains { $0 < 0x20 || $0 == 0x7F }, "place \(index): \(place.name)")
            let (first, second) = place.countryCodeUTF8
            #expect((0x41...0x5A).contains(first) && (0x41...0x5A).contains(second), "place \(index): \(first) \(second)")
            #expect(abs(place.latitudeE4) <= 900_000 && abs(place.longitudeE4) <= 1_800_000)
            #expect(place.coordinate.latitudeE7 == place.latitudeE4 * 1000)
        }
        #expect(Place(index: PlaceTable.count) == nil)
        #expect(Place(index: -1) == nil)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AllocationCounting
import HAL
import Testing

@testable import Places

/// The zone table against the places where zone lookups go wrong (docs/design/decisions.md#the-zone-table),
/// each expectation from the reference (timezonefinder on timezone-boundary-builder's full
/// polygons, the generator's source).
@Suite struct ZoneTableTests {
    static func zone(_ latitude: Double, _ longitude: Double) -> ZoneFix {
        ZoneTable.zone(at: try! Coordinate(latitude: latitude, longitude: longitude))
    }

    @Test(arguments: [
        ("Indianapolis", 39.7684, -86.1581, "America/Indiana/Indianapolis"),
        ("Evansville, on Central time", 37.9716, -87.5711, "America/Chicago"),
        ("Gary, on Central time", 41.5934, -87.3464, "America/Chicago"),
        ("Knox", 41.2959, -86.6250, "America/Indiana/Knox"),
        ("Tell City", 37.9514, -86.7678, "America/Indiana/Tell_City"),
        ("Vincennes", 38.6773, -87.5286, "America/Indiana/Vincennes"),
        ("Petersburg", 38.4920, -87.2786, "America/Indiana/Petersburg"),
    ])
    func indiana(place: String, latitude: Double, longitude: Double, zone: String) {
        #expect(Self.zone(latitude, longitude).zone.name == zone, "\(place)")
    }

    @Test(arguments: [
        ("Phoenix", 33.4484, -112.0740, "America/Phoenix"),
        ("Flagstaff", 35.1983, -111.6513, "America/Phoenix"),
        ("Page, outside the Navajo Nation", 36.9147, -111.4558, "America/Phoenix"),
        ("Window Rock, Navajo Nation (DST)", 35.6806, -109.0526, "America/Denver"),
        ("Tuba City, Navajo Nation", 36.1350, -111.2399, "America/Denver"),
        ("Kayenta, Navajo Nation", 36.7278, -110.2546, "America/Denver"),
        ("Second Mesa, the Hopi Reservation inside the Navajo Nation (no DST)", 35.7989, -110.5029, "America/Phoenix"),
    ])
    func arizonaAndTheNavajoNation(place: String, latitude: Double, longitude: Double, zone: String) {
        #expect(Self.zone(latitude, longitude).zone.name == zone, "\(place)")
    }

    @Test(arguments: [
        ("Broken Hill, NSW on South Australia's clock", -31.9539, 141.4539, "Australia/Broken_Hill"),
        ("Wilcannia, NSW", -31.5588, 143.3786, "Australia/Sydney"),
        ("Adelaide", -34.9285, 138.6007, "Australia/Adelaide"),
        ("Lord Howe Island (+10:30, half-hour DST)", -31.5553, 159.0821, "Australia/Lord_Howe"),
        ("Kathmandu (+5:45)", 27.7172, 85.3240, "Asia/Kathmandu"),
        ("Biratnagar, near the Indian border", 26.4525, 87.2718, "Asia/Kathmandu"),
        ("Waitangi, Chatham Islands (+12:45)", -43.9535, -176.5597, "Pacific/Chatham"),
        ("Kiritimati (+14)", 1.8721, -157.4278, "Pacific/Kiritimati"),
        ("Kanton (+13)", -2.8107, -171.6813, "Pacific/Kanton"),
        ("Tarawa (+12)", 1.4518, 173.0319, "Pacific/Tarawa"),
        ("Longyearbyen, Svalbard", 78.2232, 15.6267, "Arctic/Longyearbyen"),
        ("Ny-Ålesund, Svalbard", 78.9250, 11.9300, "Arctic/Longyearbyen"),
        ("Ceuta", 35.8894, -5.3213, "Africa/Ceuta"),
        ("Fnideq, across the Ceuta border", 35.8490, -5.3575, "Africa/Casablanca"),
        ("Tangier", 35.7595, -5.8340, "Africa/Casablanca"),
        ("Melilla", 35.2923, -2.9381, "Africa/Ceuta"),
        ("Nador, next to Melilla", 35.1681, -2.9335, "Africa/Casablanca"),
        ("Algeciras", 36.1408, -5.4562, "Europe/Madrid"),
        ("Tarifa", 36.0143, -5.6044, "Europe/Madrid"),
    ])
    func oddOffsetsIslandsAndCoasts(place: String, latitude: Double, longitude: Double, zone: String) {
        #expect(Self.zone(latitude, longitude).zone.name == zone, "\(place)")
    }

    @Test(arguments: [
        (0.0, -30.0, "Etc/GMT+2"), (0.0, -37.4, "Etc/GMT+2"), (0.0, -37.6, "Etc/GMT+3"),
        (-40.0, 100.0, "Etc/GMT-7"), (10.0, -140.0, "Etc/GMT+9"), (0.0, 179.0, "Etc/GMT-12"),
        (-35.0, -179.0, "Etc/GMT+12"), (-10.0, 7.4, "Etc/GMT"), (-10.0, 7.6, "Etc/GMT-1"),
        (-45.0, 0.0, "Etc/GMT"), (90.0, 0.0, "Etc/GMT"),
    ])
    func openSeaByLongitude(latitude: Double, longitude: Double, zone: String) {
        let fix = Self.zone(latitude, longitude)
        #expect(fix.zone.name == zone)
        #expect(fix.atSea)
    }

    @Test func theSouthPoleIsOnLand() {
        let fix = Self.zone(-90, 0)
        #expect(fix.zone.name == "Antarctica/McMurdo")
        #expect(!fix.atSea)
    }

    @Test func theBorderDistanceGrowsAwayFromTheBorder() {
        // Across the Indiana / Illinois line (87.53° W at Terre Haute's latitude): Terre Haute is
        // ~8 km from it, Indianapolis ~115 km; (25° S, 134° E) is 111 km north of the border of
        // the Northern Territory (no DST) and South Australia (DST) at 26° S.
        let terreHaute = Self.zone(39.4667, -87.4139)
        let indianapolis = Self.zone(39.7684, -86.1581)
        let alice = Self.zone(-25.0, 134.0)
        #expect(terreHaute.borderMeters < 12_000)
        #expect(indianapolis.borderMeters > 40_000)
        #expect(indianapolis.borderMeters < 130_000)
        // On a coast the limit of the territorial sea is no border: Amsterdam is ~100 km from
        // Germany (Belgium keeps the same clock), Waitangi hundreds of km from any land border.
        let amsterdam = Self.zone(52.3676, 4.9041)
        let waitangi = Self.zone(-43.9535, -176.5597)
        #expect(amsterdam.borderMeters > 50_000)
        #expect(amsterdam.borderMeters < 130_000)
        #expect(waitangi.borderMeters > 200_000)
        #expect(alice.borderMeters > 80_000)
        #expect(alice.borderMeters <= 111_200)
    }

    @Test func zonesKeepingOneClockSince1970AreKnownAsSuch() {
        let berlin = Zone(named: "Europe/Berlin")!
        #expect(Zone(named: "Europe/Oslo")!.keepsSameClock(as: berlin))
        #expect(Zone(named: "Arctic/Longyearbyen")!.keepsSameClock(as: berlin))
        #expect(!Zone(named: "Europe/Paris")!.keepsSameClock(as: berlin))
        #expect(!Zone(named: "Asia/Hebron")!.keepsSameClock(as: Zone(named: "Asia/Jerusalem")!))
        #expect(Zone(named: "Nowhere/Atlantis") == nil)
    }

    @Test func aLookupAllocatesNothing() {
        var points: [Coordinate] = []
        var random = SplitMix64(seed: 7)
        for _ in 0..<500 { points.append(random.coordinate()) }
        var sum = 0
        let mallocs = countMallocs {
            for index in 0..<points.count {
                let fix = ZoneTable.zone(at: points[index])
                sum &+= fix.zone.index &+ fix.borderMeters &+ fix.zone.nameUTF8.count
            }
        }
        #expect(mallocs == 0)
        #expect(sum != 0)
    }

    @Test func everyPositionHasAZoneWithAName() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<20_000 {
            let fix = ZoneTable.zone(at: random.coordinate())
            #expect(fix.zone.index < Zone.count)
            #expect(fix.borderMeters >= 0)
        }
        // The edges of the map: the poles and the antimeridian at every corner.
        for latitude in [-90.0, -89.999, 0, 89.999, 90] {
            for longitude in [-180.0, -179.999, 0, 179.999, 180] {
                _ = Self.zone(latitude, longitude)
            }
        }
    }
}

extension SplitMix64 {
    /// A point uniform on the sphere: the sine of the latitude is uniform.
    mutating func coordinate() -> Coordinate {
        let sine = Double(next() >> 11) / Double(1 << 53) * 2 - 1
        let longitude = Double(next() >> 11) / Double(1 << 53) * 360 - 180
        return try! Coordinate(latitude: asin(sine) * 180 / .pi, longitude: longitude)
    }
}

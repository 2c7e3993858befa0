import CorpusTesting
import HAL
import Testing

@testable import Places

/// The table against the full polygons: Tools/places/generate.py records the reference zone
/// (timezonefinder on timezone-boundary-builder's polygons) of every GeoNames place of 15,000 or
/// more and of 100,000 random points on land in Fixtures/zone-reference.tsv, with each point's
/// distance to the nearest border between clocks. A point agrees when the table names the same
/// zone or one that has kept the same clock since 1970.
@Suite struct ZoneAccuracyTests {
    /// Every disagreement is at most this far from a border between clocks: the table's cells at
    /// a border are 0.044° (4.9 km of latitude) or finer and their chords are within 0.4 km on
    /// average (1 km where three clocks meet); measured: 1.12 km.
    static let disagreementBorderKm = 1.5

    struct Row {
        let kind: Character, coordinate: Coordinate, zone: String, borderKm: Double
    }

    static func rows() throws -> [Row] {
        let path = String(#filePath.dropLast("ZoneAccuracyTests.swift".count)) + "Fixtures/zone-reference.tsv"
        let text = String(decoding: try Corpus.readFile(path), as: UTF8.self)
        var rows: [Row] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t")
            guard fields.count == 5, let latitude = Double(fields[1]), let longitude = Double(fields[2]),
                let border = Double(fields[4])
            else { throw FixtureError.malformed(String(line)) }
            rows.append(Row(kind: fields[0].first!, coordinate: try Coordinate(latitude: latitude, longitude: longitude),
                            zone: String(fields[3]), borderKm: border))
        }
        return rows
    }

    @Test func placesAndRandomLandPointsGetTheirZone() throws {
        let rows = try Self.rows()
        var zones: [String: Zone] = [:]
        for zone in Zone.all { zones[zone.name] = zone }
        var total: [Character: Int] = [:], agree: [Character: Int] = [:], sameName: [Character: Int] = [:]
        var farthest = 0.0
        var worst: [String] = []
        for row in rows {
            let found = ZoneTable.zone(at: row.coordinate).zone
            total[row.kind, default: 0] += 1
            guard let reference = zones[row.zone] else {
                Issue.record("the table has no zone \(row.zone)")
                continue
            }
            if found == reference { sameName[row.kind, default: 0] += 1 }
            if found.keepsSameClock(as: reference) {
                agree[row.kind, default: 0] += 1
            } else {
                farthest = max(farthest, row.borderKm)
                if row.borderKm > Self.disagreementBorderKm {
                    worst.append("\(row.coordinate.latitude),\(row.coordinate.longitude): \(found) for \(row.zone), \(row.borderKm) km from a border")
                }
            }
        }
        let places = Double(agree["c", default: 0]) / Double(total["c", default: 1])
        let land = Double(agree["l", default: 0]) / Double(total["l", default: 1])
        print("""
            zone table vs full polygons: places ≥ 15,000: \(agree["c", default: 0])/\(total["c", default: 0]) \
            (\(percent(places)) %, same name \(sameName["c", default: 0])); random land points: \
            \(agree["l", default: 0])/\(total["l", default: 0]) (\(percent(land)) %, same name \(sameName["l", default: 0])); \
            farthest disagreement \(farthest) km from a border
            """)
        #expect(total["c", default: 0] > 30_000)
        #expect(total["l", default: 0] == 100_000)
        #expect(places >= 0.999)
        #expect(land >= 0.99)
        #expect(worst.isEmpty, "\(worst.prefix(20))")
    }

    enum FixtureError: Error { case malformed(String) }

    private func percent(_ fraction: Double) -> String {
        let hundredths = Int((fraction * 10_000).rounded(.down))
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }
}

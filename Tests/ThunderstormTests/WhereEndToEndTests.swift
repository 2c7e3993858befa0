import Foundation
import Testing

/// `thunderstorm where` as a user runs it: the built executable, its output and exit status.
@Suite("where end to end")
struct WhereEndToEndTests {
    typealias CLI = BoardCheckEndToEndTests

    static var hasTzdata: Bool { FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Asia/Kathmandu") }

    @Test func tromsøInWords() throws {
        let run = try CLI.run(["where", "--lat", "69.6492", "--lon", "18.9553"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("zone    Europe/Oslo"))
        #expect(run.stdout.contains("place   Tromsø, NO, 0.0 km away"))
        #expect(run.stderr.isEmpty)
    }

    @Test func kathmanduAsJSON() throws {
        let run = try CLI.run(["where", "--lat", "27.7172", "--lon", "85.3240", "--json"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["zone"] as? String == "Asia/Kathmandu")
        #expect(object["place"] as? String == "Kathmandu")
        #expect(object["country"] as? String == "NP")
        #expect((object["distance_km"] as? Double).map { $0 < 5 } == true)
        #expect((object["border_km"] as? Double).map { $0 > 0 } == true)
        if Self.hasTzdata {
            #expect(object["utc_offset_seconds"] as? Int == 5 * 3600 + 45 * 60)  // Nepal has no DST
        } else {
            #expect(object["utc_offset_seconds"] is NSNull)
        }
        for key in ["zone", "utc_offset_seconds", "place", "country", "distance_km", "border_km"] {
            #expect(object[key] != nil, "\(key)")
        }
    }

    @Test func theOpenSeaIsItsBand() throws {
        let run = try CLI.run(["where", "--lat", "0", "--lon", "-30", "--json"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["zone"] as? String == "Etc/GMT+2")
        #expect(object["at_sea"] as? Bool == true)
        if Self.hasTzdata { #expect(object["utc_offset_seconds"] as? Int == -7200) }
    }

    @Test(arguments: [["91", "0"], ["0", "180.5"], ["nan", "0"], ["-90.0001", "10"]])
    func badCoordinatesExit64WithOneLine(_ position: [String]) throws {
        let run = try CLI.run(["where", "--lat", position[0], "--lon", position[1]])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.contains("--lat must be within"))
    }
}

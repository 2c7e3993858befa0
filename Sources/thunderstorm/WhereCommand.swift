import ArgumentParser
import HAL
import HALLinux
import JSON
import Places
import Weather

/// `thunderstorm where --lat --lon`: what the device knows of a position with no network, from
/// the generated tables (Sources/Places): the IANA zone (timezone-boundary-builder), its offset
/// and abbreviation now from this machine's tzdata, the nearest populated place (GeoNames) and
/// how far the nearest change of clock is. Exit codes (docs/reference/exit-codes.md): 64 bad coordinates.
struct WhereCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "where",
        abstract: "The time zone and the nearest place for a position, offline.",
        discussion: """
            Zones: timezone-boundary-builder (OpenStreetMap contributors, ODbL 1.0). Places: \
            GeoNames (CC BY 4.0). border_km is a lower bound of the distance to the nearest \
            border between zones that keep different clocks. utc_offset_seconds is null when this \
            machine's tzdata (/usr/share/zoneinfo) lacks the zone.
            """
    )

    // `.unconditional`: a negative coordinate (`--lon -21.9`) is a value, not an option.
    @Option(name: .customLong("lat"), parsing: .unconditional, help: "Latitude in degrees, -90…90.")
    var latitude: Double

    @Option(name: .customLong("lon"), parsing: .unconditional, help: "Longitude in degrees, -180…180.")
    var longitude: Double

    @Flag(help: "Print one JSON object instead of lines.")
    var json = false

    func run() throws {
        // One line and 64, not ArgumentParser's usage block: scripts read the line.
        let position: Coordinate
        do {
            position = try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            printError("thunderstorm where: --lat must be within -90…90 and --lon within -180…180, not \(latitude), \(longitude)")
            throw ExitCode(64)
        }
        let fix = ZoneTable.zone(at: position)
        let nearby = PlaceTable.nearest(to: position)
        var files = LinuxFileSystem()
        let now = LinuxClock().wallTime()
        let rules = try? ZoneRules.load(identifier: fix.zone.name, files: &files).get()
        let offset = rules?.offset(at: now)
        let distanceKm = Self.tenths(nearby.distanceMeters)
        let borderKm = Self.tenths(fix.borderMeters)
        if json {
            var line = #"{"zone":\#(JSONText.quoted(fix.zone.name))"#
            line += #","utc_offset_seconds":\#(offset.map(String.init) ?? "null")"#
            line += #","abbreviation":\#(rules.map { JSONText.quoted($0.abbreviation(at: now)) } ?? "null")"#
            line += #","place":\#(JSONText.quoted(nearby.place.name)),"country":\#(JSONText.quoted(nearby.place.countryCode))"#
            line += #","distance_km":\#(distanceKm),"border_km":\#(borderKm),"at_sea":\#(fix.atSea)}"#
            print(line)
            return
        }
        let clock: String
        if let rules, let offset {
            clock = "UTC\(Self.offset(offset)) \(rules.abbreviation(at: now)) now"
        } else {
            clock = "not in this machine's tzdata (/usr/share/zoneinfo)"
        }
        print("zone    \(fix.zone.name), \(clock)\(fix.atSea ? ", open sea" : "")")
        print("border  at least \(borderKm) km to a zone with another clock")
        print("place   \(nearby.place.name), \(nearby.place.countryCode), \(distanceKm) km away")
    }

    /// Metres as km with one decimal.
    static func tenths(_ meters: Int) -> String {
        let tenths = (meters + 50) / 100
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// "+05:45", "-03:30", "+00:00".
    static func offset(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        let hours = minutes / 60, rest = minutes % 60
        return "\(seconds < 0 ? "-" : "+")\(hours < 10 ? "0" : "")\(hours):\(rest < 10 ? "0" : "")\(rest)"
    }
}

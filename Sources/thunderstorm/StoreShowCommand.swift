import ArgumentParser
import JSON
import HAL
import HALLinux
import Store

/// `thunderstorm store --dir DIR show`: the whole store as one JSON object. Opens read-only,
/// so it never writes, not even to create a missing store.
struct StoreShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the settings and saved locations as one JSON object.",
        discussion: """
            For example:
              {"sequence":7,"settings":{"time":"24h","units":"metric","temperature":"celsius","brightness":"automatic"},"locations":[{"id":1,"name":"Hamilton","lat":-37.7847,"lon":175.3149}],"health":"store ok"}
            sequence is the number of the last durable commit; lat and lon have at most 7 decimals (the store keeps 10⁻⁷ degree); health is the line the status screen shows.

            Exit status: 0 done; 64 bad arguments; 65 the store is unreadable; 66 no store; 74 I/O error; 75 in use.
            """
    )

    @OptionGroup var options: StoreOptions

    func run() throws {
        let directory = try options.resolve("show")
        let store = try directory.open(LinuxFileSystem(), readOnly: true)
        defer { store.close() }
        print(StoreJSON.object(state: store.state, sequence: store.sequence, health: StoreJSON.health(of: store)))
    }
}

/// The JSON `store show` prints, written by hand: Foundation stays out of the store's types,
/// and the field order is fixed, so scripts and tests can compare lines.
enum StoreJSON {
    static func object(state: StoreState, sequence: UInt64, health: String) -> String {
        let s = state.settings
        var out = #"{"sequence":\#(sequence),"settings":{"#
        out += #""time":"\#(s.time.name)","units":"\#(s.units.name)","#
        out += #""temperature":"\#(s.temperature.name)","brightness":"\#(s.brightness.name)"},"#
        out += #""locations":["#
        out += state.locations.map { location in
            #"{"id":\#(location.id),"name":\#(string(location.name.value)),"#
                + #""lat":\#(degrees(location.coordinate.latitudeE7)),"lon":\#(degrees(location.coordinate.longitudeE7))}"#
        }.joined(separator: ",")
        out += #"],"health":\#(string(health))}"#
        return out
    }

    static func health<Files: FileSystem>(of store: StoreDirectory.Opened<Files>) -> String {
        store.health.description
    }

    /// 10⁻⁷ degree as an exact decimal, trailing zeros trimmed: the stored integer is printed,
    /// so no binary floating point can add digits (`-37.7847`, `0`, `175.3148935`).
    static func degrees(_ e7: Int32) -> String {
        let scale = 10_000_000
        let magnitude = abs(Int(e7))
        var fraction = String(magnitude % scale)
        fraction = String(repeating: "0", count: 7 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let whole = "\(e7 < 0 ? "-" : "")\(magnitude / scale)"
        return fraction.isEmpty ? whole : "\(whole).\(fraction)"
    }

    static func string(_ text: String) -> String { JSONText.quoted(text) }

}

import ArgumentParser
import HALLinux
import Store

// The saved-location subcommands of `thunderstorm store`. Arguments are strings checked here,
// so a missing or malformed one is one line and exit 64; values the store refuses (a latitude
// out of range, a bad name: 64; an unknown id or index: 65) come back as `StoreError`.

/// `store add-location --name NAME --lat LAT --lon LON`: prints the new id.
struct StoreAddLocationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-location",
        abstract: "Save a location at the end of the list and print its id.",
        discussion: """
            NAME is 1 to 40 bytes of UTF-8 without control characters; LAT is −90…90 and LON −180…180 decimal degrees (kept to 10⁻⁷ degree). Ids are never reused.

            Exit status: 0 done; 64 bad arguments; 65 50 locations already saved; 74 not saved; 75 in use.
            """
    )

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("The name the display shows.", valueName: "name"))
    var name: String?

    // `.unconditional` so that a negative value (`--lat -37.78`) is not taken for an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("Latitude in decimal degrees, north positive.", valueName: "lat"))
    var lat: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Longitude in decimal degrees, east positive.", valueName: "lon"))
    var lon: String?

    func run() throws {
        let directory = try options.resolve("add-location")
        guard let name, let lat, let lon else {
            throw usage("store add-location: give --name, --lat and --lon, e.g. --name Hamilton --lat -37.7847 --lon 175.3149")
        }
        let latitude = try degrees(lat, "--lat")
        let longitude = try degrees(lon, "--lon")
        let store = try directory.openForChange(LinuxFileSystem())
        defer { store.close() }
        // Built here rather than with `Store.addLocation`, which drops the commit outcome, so a
        // change that was not saved (.pending) still exits 74.
        let id = store.state.nextLocationID
        _ = try directory.commit(store) { () throws(StoreError) in
            .addLocation(try SavedLocation(id: id, name: try LocationName(name), latitude: latitude, longitude: longitude))
        }
        print(id)
    }

    private func degrees(_ text: String, _ option: String) throws(ExitCode) -> Double {
        // `Double("nan")` and `Double("inf")` parse; the store refuses them as out of range.
        guard let value = Double(text) else {
            throw usage("store add-location: \(option) \(text) is not a number; give decimal degrees, e.g. -37.7847")
        }
        return value
    }
}

/// `store remove-location ID`.
struct StoreRemoveLocationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-location",
        abstract: "Remove a saved location; prints the new sequence.",
        discussion: "Exit status: 0 done; 64 bad arguments; 65 no location has that id; 74 not saved; 75 in use."
    )

    @OptionGroup var options: StoreOptions

    @Argument(help: ArgumentHelp("The location's id, as `show` prints it.", valueName: "id"))
    var id: String?

    func run() throws {
        let directory = try options.resolve("remove-location")
        let location = try locationID(id, "remove-location")
        let store = try directory.openForChange(LinuxFileSystem())
        defer { store.close() }
        printOutcome(try directory.commit(store) { .removeLocation(location) })
    }
}

/// `store rename-location ID NAME`.
struct StoreRenameLocationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename-location",
        abstract: "Rename a saved location; prints the new sequence, or \"unchanged\".",
        discussion: "Exit status: 0 done; 64 bad arguments or name; 65 no location has that id; 74 not saved; 75 in use."
    )

    @OptionGroup var options: StoreOptions

    @Argument(help: ArgumentHelp("The location's id.", valueName: "id"))
    var id: String?

    @Argument(help: ArgumentHelp("The new name: 1 to 40 bytes of UTF-8.", valueName: "name"))
    var name: String?

    func run() throws {
        let directory = try options.resolve("rename-location")
        let location = try locationID(id, "rename-location")
        guard let name else { throw usage("store rename-location: give the new name after the id") }
        let store = try directory.openForChange(LinuxFileSystem())
        defer { store.close() }
        printOutcome(try directory.commit(store) { () throws(StoreError) in .renameLocation(location, try LocationName(name)) })
    }
}

/// `store move-location ID --to INDEX`.
struct StoreMoveLocationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move-location",
        abstract: "Move a saved location to another place in the list; prints the new sequence, or \"unchanged\".",
        discussion: """
            INDEX counts from 0 in the list as it is with the location taken out, so --to 0 makes it the first.

            Exit status: 0 done; 64 bad arguments; 65 no location has that id, or INDEX is past the end; 74 not saved; 75 in use.
            """
    )

    @OptionGroup var options: StoreOptions

    @Argument(help: ArgumentHelp("The location's id.", valueName: "id"))
    var id: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Its new index, from 0.", valueName: "index"))
    var to: String?

    func run() throws {
        let directory = try options.resolve("move-location")
        let location = try locationID(id, "move-location")
        guard let to else { throw usage("store move-location: give the new index with --to, e.g. --to 0") }
        guard let index = Int(to), index >= 0 else {
            throw usage("store move-location: --to \(to) is not an index; give a whole number from 0")
        }
        let store = try directory.openForChange(LinuxFileSystem())
        defer { store.close() }
        printOutcome(try directory.commit(store) { .moveLocation(location, to: index) })
    }
}

/// Parses a location id argument, or exits 64 with one line.
private func locationID(_ text: String?, _ command: String) throws(ExitCode) -> LocationID {
    guard let text else { throw usage("store \(command): give the location's id, as `show` prints it") }
    guard let raw = UInt32(text), raw > 0 else {
        throw usage("store \(command): '\(text)' is not a location id; ids are whole numbers from 1, as `show` prints them")
    }
    return LocationID(raw)
}

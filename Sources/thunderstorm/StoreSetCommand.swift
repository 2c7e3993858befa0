import ArgumentParser
import HALLinux
import Store

/// `thunderstorm store --dir DIR set KEY VALUE`: one setting, as a button press would change it.
struct StoreSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change one setting.",
        discussion: """
            KEY and VALUE are one of:
              temperature celsius|fahrenheit
              units       metric|imperial      (wind, precipitation, pressure)
              clock       12h|24h
              brightness  automatic|bright|dim
            Prints the new sequence number, or "unchanged" when the setting already had that value (then nothing is written).

            Exit status: 0 done; 64 bad key or value; 65 store damaged beyond reading or newer; 74 not saved; 75 in use.
            """
    )

    @OptionGroup var options: StoreOptions

    // Optional and checked in `run`, so a missing or wrong one is one line, exit 64.
    @Argument(help: ArgumentHelp("temperature, units, clock or brightness.", valueName: "key"))
    var key: String?

    @Argument(help: ArgumentHelp("The new value (see above).", valueName: "value"))
    var value: String?

    func run() throws {
        let directory = try options.resolve("set")
        guard let key, let value else {
            throw usage("store set: give a setting and its value, e.g. `set temperature fahrenheit`")
        }
        guard let change = Self.setter(key: key, value: value) else {
            let choices = Self.choices[key].map { "\(key) is one of \($0)" } ?? "the settings are temperature, units, clock and brightness"
            throw usage("store set: '\(key) \(value)' is not a setting; \(choices)")
        }
        let store = try directory.openForChange(LinuxFileSystem())
        defer { store.close() }
        var settings = store.settings
        change(&settings)
        printOutcome(try directory.commit(store) { .settings(settings) })
    }

    static let choices = [
        "temperature": "celsius, fahrenheit", "units": "metric, imperial", "clock": "12h, 24h",
        "brightness": "automatic, bright, dim",
    ]

    /// What `set KEY VALUE` does to the settings, or nil when KEY or VALUE is unknown.
    static func setter(key: String, value: String) -> ((inout Settings) -> Void)? {
        switch (key, value) {
        case ("temperature", "celsius"): { $0.temperature = .celsius }
        case ("temperature", "fahrenheit"): { $0.temperature = .fahrenheit }
        case ("units", "metric"): { $0.units = .metric }
        case ("units", "imperial"): { $0.units = .imperial }
        case ("clock", "12h"): { $0.time = .twelveHour }
        case ("clock", "24h"): { $0.time = .twentyFourHour }
        case ("brightness", "automatic"): { $0.brightness = .automatic }
        case ("brightness", "bright"): { $0.brightness = .alwaysBright }
        case ("brightness", "dim"): { $0.brightness = .alwaysDim }
        default: nil
        }
    }
}

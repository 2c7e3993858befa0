import ArgumentParser
import Glibc

/// The `thunderstorm` command. Exit codes follow sysexits (docs/reference/exit-codes.md): 0 success,
/// 64 usage, 65 bad data, 66 no input, 69 unavailable, 74 I/O error, 75 temporary failure.
@main
struct Thunderstorm: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thunderstorm",
        abstract: "A GPS weather display for Linux single-board computers.",
        version: thunderstormVersion,
        subcommands: [SetupCommand.self, RunCommand.self, SimulateCommand.self, HALCommand.self, BoardCommand.self, GPSCommand.self, StoreCommand.self, SnapshotCommand.self, GlassCommand.self, SensorCommand.self, WeatherCommand.self, WhereCommand.self]
    )
}

/// Writes one line to standard error.
func printError(_ line: String) {
    var stderr = StandardError()
    print(line, to: &stderr)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var text = string
        text.withUTF8 { bytes in _ = Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }
}

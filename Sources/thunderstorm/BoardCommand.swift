import App
import ArgumentParser
import HAL
import HALLinux
import SystemPackage
import Board

/// `thunderstorm board …`: work with board files, the JSON description of one physical build
/// (see board/README.md).
struct BoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "Check a board file: the JSON that describes one physical build.",
        subcommands: [Check.self]
    )

    /// Validates one board file and says exactly which field is wrong.
    ///
    /// Exit codes (sysexits, docs/reference/exit-codes.md): 0 valid; 65 (EX_DATAERR) the file has problems,
    /// each printed as `FILE: path: reason` on stderr; 66 (EX_NOINPUT) the file cannot be read.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a board file and list every problem with its field path.",
            discussion: """
                Prints one line on success:
                  FILE: ok — NAME: DISPLAY, N buttons, GPS DEVICE @ BAUD (simulated: PARTS, if any)
                and otherwise one line per problem on standard error:
                  FILE: buttons[1].line: buttons[0] ("A") is already on GPIO17; …
                Exit status: 0 valid, 65 invalid, 66 unreadable.
                """
        )

        @Argument(help: ArgumentHelp("The board file, e.g. board/raspberry-pi-4.json.", valueName: "file"))
        var file: String

        func run() throws {
            let bytes: [UInt8]
            switch BoardFileReader.read(file) {
            case .success(let contents):
                bytes = contents
            case .failure(.unreadable(let reason)):
                printError("\(file): cannot read: \(reason); check the path (board files ship in board/)")
                throw ExitCode(66)
            case .failure(.tooLarge(let limit)):
                printError("\(file): larger than \(limit / 1024) KiB, far more than a board file; is this the right file?")
                throw ExitCode(65)
            }
            switch BoardFile.check(bytes) {
            case .success(let config):
                print(Self.summary(file: file, config: config))
            case .failure(let failure):
                for problem in failure.problems { printError("\(file): \(problem)") }
                throw ExitCode(65)
            }
        }

        /// `FILE: ok — NAME: SSD1306 128x64 at 0x3C on /dev/i2c-1, 3 buttons, GPS /dev/serial0 @ 9600`.
        static func summary(file: String, config: BoardConfig) -> String {
            let count = config.buttons.count
            let buttons = count == 1 ? "1 button" : "\(count) buttons"
            let twins = config.simulatedParts
            let simulated = twins.isEmpty ? "" : " (simulated: \(twins.joined(separator: ", ")))"
            let gps = config.gps.simulated ? "GPS simulated drive" : "GPS \(config.gps.device) @ \(config.gps.baud)"
            return "\(file): ok — \(config.name): \(config.display.summary), \(buttons), \(gps)\(simulated)"
        }
    }
}

import App
import ArgumentParser
import SystemPackage

/// `thunderstorm run`: the daemon on a real board, under systemd (board/thunderstorm.service).
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the device on a board: the daemon systemd starts (board/thunderstorm.service).",
        discussion: """
            Every part of the board file runs on the hardware, or on its simulated twin where the file says "simulated": true (board/desk-simulated.json simulates them all, so the daemon starts on any Linux machine).
            A part that is missing or fails (no display on the bus, no GPS, GPIO lines busy) is logged and retried; the daemon keeps running.
            systemd: READY=1 once the first frame is on the glass, STATUS= when the status line changes, WATCHDOG=1 at half of $WATCHDOG_USEC, STOPPING=1 on the way out.
            Signals: SIGTERM or SIGINT leave the panel off or showing "stopped" (display.onStop) and exit 0; SIGHUP reads the board file again and applies it if it is valid.
            Log: one line per state change on standard error (with journald's priority prefix under systemd); a failure that repeats is summarised every 10 minutes.
            Exit status: 0 stopped by a signal; 64 bad arguments; 65 invalid board file; 66 board file unreadable; 71 the event loop failed; 75 the store is held by another process.
            """)

    @Option(help: ArgumentHelp("The board file (see board/README.md).", valueName: "file"))
    var board: String

    @Option(name: .customLong("state-dir"), help: ArgumentHelp("Where settings, places, the weather cache and the barograph live (systemd: /var/lib/thunderstorm).", valueName: "dir"))
    var stateDir = "/var/lib/thunderstorm"

    @Option(name: .customLong("log-level"), help: ArgumentHelp("info (every state change) or warning (problems only).", valueName: "level"))
    var logLevel = "info"

    @Option(help: ArgumentHelp("With a simulated display: write its glass as a PBM image here after every frame.", valueName: "file"))
    var glass: String?

    @Option(name: .customLong("stall-after"), help: .hidden)
    var stallAfter: Double?

    @Flag(name: .customLong("assume-clock-unsynchronised"), help: .hidden)
    var assumeClockUnsynchronised = false

    func run() throws {
        var options = Daemon.Options(boardPath: board, stateDirectory: FilePath(stateDir))
        options.glassPath = glass.map { FilePath($0) }
        options.assumeClockUnsynchronised = assumeClockUnsynchronised
        switch logLevel {
        case "info": options.logLevel = .info
        case "warning": options.logLevel = .warning
        case "debug": options.logLevel = .debug
        default: throw ExitCode(64, printing: "run: --log-level \(logLevel) must be info, warning or debug")
        }
        if let stallAfter {
            guard stallAfter >= 0, stallAfter.isFinite else { throw ExitCode(64, printing: "run: --stall-after must be a number of seconds") }
            options.stallAfter = .milliseconds(Int64(stallAfter * 1000))
        }
        let daemon: Daemon
        do throws(Daemon.Failure) {
            daemon = try Daemon(options)
        } catch {
            throw ExitCode(error.code, printing: "run: \(error.message)")
        }
        let status = daemon.run()
        if status != 0 { throw ExitCode(status) }
    }
}

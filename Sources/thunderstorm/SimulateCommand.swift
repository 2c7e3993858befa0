import App
import ArgumentParser
import Board
import HAL
import HALLinux
import HALSim
import SystemPackage
import Weather
import WeatherHTTP

/// `thunderstorm simulate`: the whole device on the simulated board (docs/reference/simulate-scripts.md).
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run the whole device with every part simulated: the panel in your terminal, keys as buttons.",
        discussion: """
            Keys: a b c d press button A B C D (short press); A B C D hold it (long press, 1.2 s); q quits (Ctrl-C too), restoring the terminal.
            Default buttons (board/raspberry-pi-4.json): A = temperature unit / next place, B = units / save the GPS position, C = clock notation / next screen.
            Under the panel: GPS state and position, the weather's state and age, the store's health, the bytes the last frame cost on the I²C bus.

            --headless runs without a terminal, as fast as the CPU allows, for --duration seconds of virtual time, and writes a JSON report (--report FILE, else standard output). --script FILE applies timed events, one JSON object per line, times in seconds from the start:
              {"at": 12, "press": "a"}   {"at": 30, "hold": "b", "ms": 1500}
              {"at": 60, "gps": "unplug"} / "replug"     {"at": 90, "network": "down"} / "up"
              {"at": 95, "i2c": "nack", "count": 3}       {"at": 100, "disk": "eio"} / "enospc" / "readonly" / "ok"
              {"at": 120, "power": "cut"}  (ends the run as at a power cut: what was not synced is lost)
            A malformed script line exits 65 naming the line, before anything runs.
            Exit status: 0 done; 64 bad arguments; 65 bad board file or script; 66 a file cannot be read; 73/74 an output cannot be written.
            """)

    @Option(help: ArgumentHelp("The panel: ssd1306-128x64, ssd1306-128x32, sh1106-128x64, hd44780-16x2 or hd44780-20x4 (default: the board's).", valueName: "display"))
    var display: String?
    @Option(help: ArgumentHelp("A board file (default: the reference build, \(ReferenceBoard.fileName)).", valueName: "file"))
    var board: String?
    @Option(help: ArgumentHelp("route (a built-in drive that gets a fix within seconds), none, or an NMEA capture FILE replayed in real time.", valueName: "route|none|file"))
    var gps = "route"
    @Option(help: ArgumentHelp("sample (the simulated service), offline (no network), ratelimited (the simulated service answering 429), or live (the real Open-Meteo through the daemon's transport).", valueName: "sample|offline|ratelimited|live"))
    var weather = "sample"
    @Option(name: .customLong("base-url"), help: ArgumentHelp("With --weather live: the service's address (e.g. a server on 127.0.0.1).", valueName: "url"))
    var baseURL: String?
    @Option(name: .customLong("state-dir"), help: ArgumentHelp("Keep settings, places, the weather cache and the barograph here across runs (default: a fresh, empty store each run).", valueName: "dir"))
    var stateDir: String?
    @Option(help: ArgumentHelp("Virtual time runs this many times faster than real time (interactive).", valueName: "n"))
    var speed: Double = 1
    @Flag(help: "No terminal: run --duration seconds of virtual time as fast as possible and write a report.")
    var headless = false
    @Option(help: ArgumentHelp("With --headless: how many seconds of virtual time to run.", valueName: "seconds"))
    var duration: Double?
    @Option(help: ArgumentHelp("With --headless: a JSON Lines script of timed events.", valueName: "file"))
    var script: String?
    @Option(help: ArgumentHelp("With --headless: write the JSON report here (default: standard output).", valueName: "file"))
    var report: String?
    @Option(name: .customLong("i2c-log"), help: ArgumentHelp("With --headless: write every I²C transaction from power-on (the snapshot log format).", valueName: "file"))
    var i2cLog: String?
    @Option(help: ArgumentHelp("With --headless: write the last frame on the glass as a PBM image.", valueName: "file"))
    var pbm: String?
    @Option(help: ArgumentHelp("Start at this UTC time, e.g. 2026-03-28T22:00:00Z (default: now).", valueName: "time"))
    var start: String?
    @Option(help: ArgumentHelp("The zone the simulated weather service names (the real service names the place's own).", valueName: "zone"))
    var zone = "Europe/Berlin"
    @Option(help: ArgumentHelp("on or off: override the board's burn-in orbit (for measuring it).", valueName: "on|off"))
    var orbit: String?
    @Option(help: ArgumentHelp("host (ask this machine's kernel, as the device does; the default on a terminal), system (synchronised; the default with --headless) or gps (not synchronised: the clock waits for GPS time).", valueName: "host|system|gps"))
    var clock: String?
    @Option(help: ArgumentHelp("Start the system clock this far from the true time, e.g. --clock-offset=-3d, +2h, -90s (a Pi whose fake-hwclock restored an old time); the GPS and the weather service keep the true time. With --clock gps the clock is not synchronised.", valueName: "±Nd|h|m|s"))
    var clockOffset: String?
    @Option(help: ArgumentHelp("Seed of the simulated bounce, weather and jitter.", valueName: "n"))
    var seed: UInt64 = 1
    @Flag(help: "Print what the device logs on standard error (headless).")
    var verbose = false

    func run() throws {
        var setup = try SimulationOptions.setup(self)
        let script = try SimulationOptions.script(self.script)
        if let stateDir {
            do {
                try StateDirectory.load(from: FilePath(stateDir), into: setup.disk, at: setup.stateDirectory)
            } catch {
                throw ExitCode(74, printing: "simulate: cannot read the state directory \(stateDir): \(error)")
            }
        }
        var wake: WakeDescriptor<LiveSystemCalls>?
        if weather == "live" {
            let descriptor = try? WakeDescriptor(calls: LiveSystemCalls())
            wake = descriptor
            setup.weather = .live(SimulationOptions.liveLink(baseURL: baseURL, wake: descriptor))
        }
        let simulated = SimulatedBoard(setup)
        var cut = false
        if headless {
            cut = try runHeadless(simulated, script: script)
        } else {
            try runInteractive(simulated, wake: wake)
        }
        try saveState(simulated, poweredOff: cut)
    }

    /// Returns whether the run ended at a scripted power cut.
    private func runHeadless(_ board: SimulatedBoard, script: SimulationScript) throws -> Bool {
        // The log lines go to a spool file as they come, not into memory: a year's run must
        // show the device's memory, not its log's (TimelineSpool).
        let spool = TimelineSpool()
        if spool != nil { board.keepsTimeline = false }
        let printing = verbose
        board.onLog = { seconds, text in
            spool?.append(seconds: seconds, text: text)
            if printing { printError("[\(decimalText(seconds, places: 1))] \(text)") }
        }
        if i2cLog != nil { board.bus.isLogging = true }
        board.start()
        // The process at the end of each simulated day: a soak's memory and descriptors
        // (scripts/soak.py), one read of /proc per day, nothing in between.
        var daily: [ProcessSample] = []
        let cut = board.run(script, duration: .nanoseconds(Int64((duration ?? 0) * 1e9)), every: .seconds(86_400)) { day in
            daily.append(.now(day: day))
        }
        var summary = SimulationReport(board: board, endedByPowerCut: cut)
        summary.daily = daily
        summary.spool = spool
        let json = summary.json
        if let report {
            try SnapshotFiles.write(Array((json + "\n").utf8), to: report, command: "simulate")
        } else {
            print(json)
        }
        if let i2cLog { try SnapshotFiles.write(Array(board.bus.log.render().utf8), to: i2cLog, command: "simulate") }
        if let pbm { try SnapshotFiles.write(board.glass.pbm(), to: pbm, command: "simulate") }
        return cut
    }

    private func runInteractive(_ board: SimulatedBoard, wake: WakeDescriptor<LiveSystemCalls>?) throws {
        let terminal: TerminalSession
        do {
            terminal = try TerminalSession()
        } catch {
            throw ExitCode(64, printing: "simulate: \(error); run with --headless --duration SECONDS to simulate without a terminal")
        }
        board.keepsTimeline = false  // nothing reads it here, and a session may run for days
        let session = InteractiveSimulation(board: board, terminal: terminal, speed: speed, wake: wake)
        do {
            let reason = try session.run()
            terminal.restore()
            if reason != "quit" { printError("simulate: stopped (\(reason))") }
        } catch {
            terminal.restore()
            throw ExitCode(74, printing: "simulate: the loop failed: \(error)")
        }
    }

    /// With --state-dir: what the medium holds goes back to the directory; after a power
    /// cut, only what was durable.
    private func saveState(_ board: SimulatedBoard, poweredOff: Bool) throws {
        guard let stateDir else { return }
        let image = poweredOff ? board.setup.disk.durableImage() : board.setup.disk.image()
        do {
            try StateDirectory.save(image, from: board.setup.stateDirectory, to: FilePath(stateDir))
        } catch {
            throw ExitCode(74, printing: "simulate: cannot write the state directory \(stateDir): \(error)")
        }
    }

}

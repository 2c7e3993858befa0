import App
import ArgumentParser
import Board
import Drivers
import HAL
import HALLinux
import HALSim
import SystemPackage
import Weather
import WeatherHTTP

/// Turns `simulate`'s options into a `SimulationSetup`, each mistake one line and exit 64
/// (65 for a bad board file or script, 66 for one that cannot be read).
enum SimulationOptions {
    static let displays = ["ssd1306-128x64", "ssd1306-128x32", "sh1106-128x64", "hd44780-16x2", "hd44780-20x4"]

    static func setup(_ command: SimulateCommand) throws -> SimulationSetup {
        var board = try loadBoard(command.board)
        if let display = command.display { board = try replaceDisplay(board, with: display) }
        guard command.speed > 0, command.speed.isFinite, command.speed <= 10_000 else {
            throw usage("simulate: --speed \(command.speed) must be more than 0 and at most 10000")
        }
        if command.headless {
            guard let duration = command.duration else {
                throw usage("simulate: --headless needs --duration SECONDS of virtual time, e.g. --duration 86400 for a day")
            }
            guard duration >= 0, duration <= 366 * 86_400, duration.isFinite else {
                throw usage("simulate: --duration \(duration) must be from 0 to 31622400 seconds (a year)")
            }
        } else {
            for (name, value) in [("--duration", command.duration.map { "\($0)" }), ("--script", command.script), ("--report", command.report), ("--i2c-log", command.i2cLog), ("--pbm", command.pbm)] where value != nil {
                throw usage("simulate: \(name) goes with --headless")
            }
        }
        var setup = SimulationSetup(board: board, start: try startTime(command.start))
        setup.seed = command.seed
        setup.serviceZone = command.zone
        // The BME280 twin reads the simulated weather, and a gale's low comes through in the
        // first hours, so a newcomer sees the barograph fall and the storm alarm at --speed 600
        // within a minute (docs/reference/simulate-scripts.md).
        setup.sensorFollowsWeather = true
        setup.storm = .standard(after: setup.start)
        switch command.gps {
        case "route": setup.gps = .route
        case "none": setup.gps = .none
        default:
            switch BoardFileReader.read(command.gps, limit: 16 << 20) {
            case .success(let bytes): setup.gps = .capture(bytes)
            case .failure(.unreadable(let reason)):
                throw ExitCode(66, printing: "simulate: --gps \(command.gps): not route or none, and cannot be read as a capture: \(reason)")
            case .failure(.tooLarge(let limit)):
                throw ExitCode(65, printing: "simulate: --gps \(command.gps): larger than \(limit >> 20) MiB")
            }
        }
        switch command.weather {
        case "sample": setup.weather = .sample
        case "offline": setup.weather = .offline
        case "ratelimited": setup.weather = .rateLimited
        case "live": break  // the caller builds the link: it needs the loop's wake descriptor
        default: throw usage("simulate: --weather \(command.weather) must be sample, offline, ratelimited or live")
        }
        if command.baseURL != nil, command.weather != "live" { throw usage("simulate: --base-url goes with --weather live") }
        switch command.orbit {
        case nil: break
        case "on": setup.orbit = true
        case "off": setup.orbit = false
        case let other?: throw usage("simulate: --orbit \(other) must be on or off")
        }
        switch command.clock ?? (command.headless ? "system" : "host") {
        case "system": setup.systemClock = .synchronised
        case "gps": setup.systemClock = .unsynchronised
        case "host": setup.systemClock = .host
        case let other: throw usage("simulate: --clock \(other) must be host, system or gps")
        }
        if let text = command.clockOffset {
            guard let offset = clockOffset(text) else {
                throw usage("simulate: --clock-offset \(text) must be a signed amount with a unit, like -3d, +2h, -90m or 45s")
            }
            if setup.systemClock == .host { throw usage("simulate: --clock-offset needs --clock system or gps (the host's kernel cannot vouch for a moved clock)") }
            setup.systemClockOffset = offset
        }
        return setup
    }

    /// "-3d", "+2h", "90m", "-45s" (at most 30 years either way).
    static func clockOffset(_ text: String) -> Duration? {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        guard let unit = digits.last, let value = Int64(digits.dropLast()), value <= 30 * 366 * 86_400 else { return nil }
        let seconds: Int64
        switch unit {
        case "d": seconds = value * 86_400
        case "h": seconds = value * 3600
        case "m": seconds = value * 60
        case "s": seconds = value
        default: return nil
        }
        guard seconds <= 946_080_000 else { return nil }
        return .seconds(negative ? -seconds : seconds)
    }

    static func loadBoard(_ path: String?) throws -> BoardConfig {
        let bytes: [UInt8]
        let name = path ?? ReferenceBoard.fileName
        if let path {
            switch BoardFileReader.read(path) {
            case .success(let contents): bytes = contents
            case .failure(.unreadable(let reason)):
                throw ExitCode(66, printing: "simulate: \(path): cannot read: \(reason); board files ship in board/")
            case .failure(.tooLarge(let limit)):
                throw ExitCode(65, printing: "simulate: \(path): larger than \(limit / 1024) KiB, far more than a board file")
            }
        } else {
            bytes = Array(ReferenceBoard.json.utf8)
        }
        switch BoardFile.check(bytes) {
        case .success(let config): return config
        case .failure(let failure):
            for problem in failure.problems { printError("\(name): \(problem)") }
            throw ExitCode(65)
        }
    }

    /// The board with its display replaced by one of the panels `snapshot` knows, at that
    /// panel's usual address on the same bus.
    static func replaceDisplay(_ board: BoardConfig, with name: String) throws -> BoardConfig {
        let options = OLEDOptions(columnOffset: 0, rotation: .normal, externalVCC: false)
        let display: DisplayConfig
        let bus = board.display.bus
        switch name {
        case "ssd1306-128x64": display = DisplayConfig(controller: .ssd1306(options), geometry: .oled128x64, bus: bus, address: I2CAddress(0x3C)!)
        case "ssd1306-128x32": display = DisplayConfig(controller: .ssd1306(options), geometry: .oled128x32, bus: bus, address: I2CAddress(0x3C)!)
        case "sh1106-128x64":
            display = DisplayConfig(
                controller: .sh1106(OLEDOptions(columnOffset: 2, rotation: .normal, externalVCC: false)), geometry: .oled128x64,
                bus: bus, address: I2CAddress(0x3C)!)
        case "hd44780-16x2": display = DisplayConfig(controller: .hd44780(.ywrobot), geometry: .lcd16x2, bus: bus, address: I2CAddress(0x27)!)
        case "hd44780-20x4": display = DisplayConfig(controller: .hd44780(.ywrobot), geometry: .lcd20x4, bus: bus, address: I2CAddress(0x27)!)
        default: throw usage("simulate: --display \(name) is not a panel this can simulate; use one of \(displays.joined(separator: ", "))")
        }
        return BoardConfig(
            name: board.name, gps: board.gps, display: display, buttons: board.buttons, sensor: board.sensor,
            defaultLocation: board.defaultLocation, timeZone: board.timeZone, screens: board.screens, weather: board.weather,
            barograph: board.barograph)
    }

    /// `2026-03-28T22:00:00Z`, or now.
    static func startTime(_ text: String?) throws -> WallTime {
        guard let text else { return LinuxClock(calls: LiveSystemCalls()).wallTime() }
        guard text.hasSuffix("Z"), let civil = ISO8601.parse(text) else {
            throw usage("simulate: --start \(text) must be a UTC time like 2026-03-28T22:00:00Z")
        }
        return civil.instant(offsetSeconds: 0)
    }

    static func script(_ path: String?) throws -> SimulationScript {
        guard let path else { return SimulationScript(steps: []) }
        let bytes: [UInt8]
        switch BoardFileReader.read(path, limit: 4 << 20) {
        case .success(let contents): bytes = contents
        case .failure(.unreadable(let reason)): throw ExitCode(66, printing: "simulate: --script \(path): cannot read: \(reason)")
        case .failure(.tooLarge): throw ExitCode(65, printing: "simulate: --script \(path): larger than 4 MiB")
        }
        do {
            return try SimulationScript.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw ExitCode(65, printing: "simulate: \(path): \(error)")
        }
    }

    /// A real fetch on a worker thread through the daemon's own transport.
    static func liveLink(baseURL: String?, wake: WakeDescriptor<LiveSystemCalls>?) -> ThreadedWeatherLink {
        var configured = OpenMeteoService(identity: ClientIdentity(contact: nil))
        if let baseURL { configured.baseURL = baseURL }
        let service = configured
        let transport = Box(SocketTransport())  // the daemon's: CA certificates from /etc/ssl/certs
        return ThreadedWeatherLink(
            fetch: { order in
                WeatherFetch.perform(order, service: service, transport: &transport.value, clock: LinuxClock(calls: LiveSystemCalls()))
            },
            wake: { wake?.signal() })
    }
}

/// A mutable value shared with the worker thread that alone uses it.
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

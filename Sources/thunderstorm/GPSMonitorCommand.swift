import ArgumentParser
import GPS
import Glibc
import HAL
import HALLinux
import SystemPackage

/// `thunderstorm gps monitor --device PATH [--baud N] [--seconds S]`: the location service on a
/// real poll loop, printed once per second. It runs exactly the code the device runs: a missing
/// device, an unplug or a wrong baud rate is shown, never fatal.
struct GPSMonitorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Show the GPS service state and fix once per second.",
        discussion: """
            Opens DEVICE (e.g. /dev/serial0, /dev/ttyACM0, /dev/serial/by-id/…) raw 8N1 and prints one line per second, for example:

            t=3 state=fix mode=3D lat=-37.784788 lon=175.314897 alt=59.9 sats=8 age=0.4 baud=9600 ok=42 bad=0 unknown=3 lost=0/0 | GPS: 3D fix, 8 satellites, 0.4 s old

            lat, lon, alt and age are the last valid fix's (with state=stale or noData it is old, not current); "-" when there is none. lost=S/B: sentences lost to damage on a link that was working, and bytes the UART and the kernel dropped (TIOCGICOUNT, read once a minute; "-" for a tty without those counts, such as a USB ACM receiver). Without the device the service keeps retrying (0.5 s doubling to 30 s); with bytes but no valid sentences it tries 9600, 4800, 38400 and 115200 Bd in turn.

            Exit status: 0 (after --seconds, or never), 64 bad arguments, 74 the poll loop failed.
            """
    )

    @Option(help: ArgumentHelp("The receiver's serial device.", valueName: "path"))
    var device: String

    @Option(help: ArgumentHelp("The baud rate to open at first: 4800, 9600, 19200, 38400, 57600 or 115200."))
    var baud = 9600

    @Option(help: ArgumentHelp("Stop after this many seconds (default: run until interrupted).", valueName: "s"))
    var seconds: Int?

    func validate() throws {
        guard BaudRate(rawValue: baud) != nil else {
            throw ValidationError("--baud \(baud) is not supported; use 4800, 9600, 19200, 38400, 57600 or 115200")
        }
        if let seconds, seconds <= 0 { throw ValidationError("--seconds must be at least 1, not \(seconds)") }
        guard !device.isEmpty else { throw ValidationError("--device must name a serial device, e.g. /dev/serial0") }
    }

    func run() throws {
        let clock = LinuxClock()
        let service = LocationService(
            devices: LinuxSerialDevices(), clock: clock,
            configuration: .init(path: FilePath(device), baudRate: BaudRate(rawValue: baud)!))
        let poller = Poller(capacity: 2)
        let timer: TimerDescriptor<LiveSystemCalls>
        do {
            timer = try TimerDescriptor(calls: LiveSystemCalls())
        } catch {
            printError("gps monitor: cannot create a timerfd: \(error); is this Linux ≥ 2.6.25?")
            throw ExitCode(74)
        }
        let gpsSlot = poller.add(-1)
        _ = poller.add(timer.fileDescriptor)

        let started = clock.now()
        let end = seconds.map { started + .seconds($0) }
        var nextLine = started + .seconds(1)
        service.tick()
        while true {
            // Input only while the service listens: during a hold its end is a deadline (ReadPacing).
            poller.replace(gpsSlot, with: service.port?.fileDescriptor ?? -1, events: service.wantsInput ? CShort(POLLIN) : 0)
            var wake = nextLine
            if let deadline = service.nextDeadline, deadline < wake { wake = deadline }
            do {
                try timer.arm(at: wake)
                _ = try poller.wait(timeout: nil)
                _ = try timer.acknowledge()
            } catch {
                printError("gps monitor: the poll loop failed: \(error); this is a bug, please report it")
                throw ExitCode(74)
            }
            // Read at every wake-up (a quiet tty answers EAGAIN): bytes still buffered are read
            // first; a hang-up with nothing left is an unplug.
            let events = poller.revents(gpsSlot)
            service.readAvailable()
            if events & CShort(POLLHUP | POLLERR | POLLNVAL) != 0 { service.hangUp() }
            service.tick()
            let now = clock.now()
            if now >= nextLine {
                // write(2) rather than print: a line must leave at once, even into a pipe.
                var text = Self.line(service, elapsed: nextLine - started, now: now) + "\n"
                text.withUTF8 { bytes in _ = Glibc.write(STDOUT_FILENO, bytes.baseAddress, bytes.count) }
                // One line per second on the second grid, skipping seconds the loop missed.
                while nextLine <= now { nextLine += .seconds(1) }
            }
            if let end, now >= end { return }
        }
    }

    /// One status line (see the discussion above).
    static func line<D, C>(_ service: LocationService<D, C>, elapsed: Duration, now: Instant) -> String {
        let state = service.state(at: now)
        let fix = service.lastFix
        let mode = service.latestEpoch?.mode.description.replacingSpaces() ?? "-"
        let lat = fix?.fix.latitude.map { decimal($0.degrees, 6) } ?? "-"
        let lon = fix?.fix.longitude.map { decimal($0.degrees, 6) } ?? "-"
        let alt = fix?.fix.altitudeMSL.map { decimal($0.doubleValue, 1) } ?? "-"
        let sats = service.latestEpoch?.satellitesUsed.map(String.init) ?? "-"
        let age = fix.map { decimal(Double((now - $0.receivedAt).nanoseconds) / 1e9, 1) } ?? "-"
        let s = service.statistics
        let losses = service.losses
        let lost = "\(losses.sentences)/\(losses.kernel.map { String($0.total) } ?? "-")"
        return "t=\(elapsed.nanoseconds / 1_000_000_000) state=\(state.name) mode=\(mode) lat=\(lat) lon=\(lon)"
            + " alt=\(alt) sats=\(sats) age=\(age) baud=\(service.baudRate.rawValue)"
            + " ok=\(s.accepted) bad=\(s.rejected) unknown=\(s.unknown) lost=\(lost) | \(service.statusLine(at: now))"
    }

    static func decimal(_ value: Double, _ places: Int) -> String { decimalText(value, places: places) }
}

extension String {
    /// "no fix" → "no-fix": one token per key=value field.
    fileprivate func replacingSpaces() -> String { String(map { $0 == " " ? "-" : $0 }) }
}

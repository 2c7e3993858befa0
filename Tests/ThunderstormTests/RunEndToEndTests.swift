import Foundation
import Glibc
import Testing

/// `thunderstorm run` as systemd runs it: the built executable with `$NOTIFY_SOCKET` pointing at
/// a real datagram socket the test reads, `$WATCHDOG_USEC` set, the GPS on a real
/// pseudo-terminal fed with a receiver's capture, every other part simulated by the board file.
/// The daemon runs in real time, so the test waits in poll(2) with deadlines.
@Suite("run end to end", .serialized)
struct RunEndToEndTests {
    typealias E2E = BoardCheckEndToEndTests

    /// The running daemon with everything the test watches.
    final class Daemon {
        let process = Process()
        let notify: NotifyListener
        let stdin = Pipe()
        let stderr: LineReader
        let directory: URL
        let boardPath: URL
        let statePath: URL
        let glassPath: URL
        var messages: [(at: Date, text: String)] = []

        init(board: String, directory: URL, stateDirectory: URL? = nil, watchdogUsec: Int = 500_000, extra: [String] = []) throws {
            self.directory = directory
            boardPath = directory.appending(path: "board.json")
            statePath = stateDirectory ?? directory.appending(path: "state")
            glassPath = directory.appending(path: "glass.pbm")
            try board.write(to: boardPath, atomically: true, encoding: .utf8)
            notify = try NotifyListener(path: directory.appending(path: "notify.sock").path)
            let binary = try #require(E2E.executable(), "no thunderstorm executable")
            process.executableURL = binary
            process.arguments = ["run", "--board", boardPath.path, "--state-dir", statePath.path, "--glass", glassPath.path] + extra
            var environment = ProcessInfo.processInfo.environment
            environment["NOTIFY_SOCKET"] = notify.path
            environment["WATCHDOG_USEC"] = "\(watchdogUsec)"
            environment.removeValue(forKey: "WATCHDOG_PID")
            environment.removeValue(forKey: "JOURNAL_STREAM")
            process.environment = environment
            process.standardInput = stdin
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            stderr = LineReader(err.fileHandleForReading.fileDescriptor)
            try process.run()
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        /// Waits for a datagram for which `match` holds, keeping every one received.
        @discardableResult
        func waitForMessage(seconds: Double, feeding feed: (() -> Void)? = nil, _ match: (String) -> Bool) -> String? {
            let end = Date().addingTimeInterval(seconds)
            var nextFeed = Date()
            while Date() < end {
                if let feed, Date() >= nextFeed {
                    feed()
                    nextFeed = Date().addingTimeInterval(1)
                }
                stderr.drain()
                guard let text = notify.receive(timeout: 0.1) else { continue }
                messages.append((Date(), text))
                if match(text) { return text }
            }
            return nil
        }

        func waitForLog(seconds: Double, _ text: String) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if stderr.text.contains(text) { return true }
                stderr.drain(timeout: 0.1)
                while let message = notify.receive(timeout: 0) { messages.append((Date(), message)) }
            }
            return stderr.text.contains(text)
        }

        func press(_ key: String) { stdin.fileHandleForWriting.write(Data(key.utf8)) }

        func signal(_ number: Int32) { kill(process.processIdentifier, number) }

        /// Waits for the process to end; its exit status, or nil after `seconds`.
        func exit(within seconds: Double) -> Int32? {
            let end = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < end {
                stderr.drain(timeout: 0.01)
                while let message = notify.receive(timeout: 0) { messages.append((Date(), message)) }
            }
            guard !process.isRunning else { return nil }
            stderr.drain()
            while let message = notify.receive(timeout: 0) { messages.append((Date(), message)) }
            return process.terminationStatus
        }

        /// Lit pixels of the simulated panel's glass (PBM P4: a 0 bit is lit).
        func litPixels() throws -> Int {
            let bytes = [UInt8](try Data(contentsOf: glassPath))
            let header = "P4\n128 64\n"
            try #require(bytes.starts(with: Array(header.utf8)), "not a 128×64 PBM")
            return bytes.dropFirst(header.utf8.count).reduce(0) { $0 + (8 - $1.nonzeroBitCount) }
        }
    }

    /// systemd's side of the notify protocol: a bound datagram socket.
    final class NotifyListener {
        let fd: Int32
        let path: String

        init(path: String) throws {
            self.path = path
            unlink(path)
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "socket path too long")
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(bound == 0, "bind \(path): errno \(errno)")
        }

        deinit {
            close(fd)
            unlink(path)
        }

        func receive(timeout: Double) -> String? {
            var entry = pollfd(fd: fd, events: CShort(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(timeout * 1000)) == 1 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            return n <= 0 ? nil : String(decoding: buffer[..<n], as: UTF8.self)
        }
    }

    /// Standard error, read as it comes without blocking.
    final class LineReader {
        let fd: Int32
        var bytes: [UInt8] = []
        var text: String { String(decoding: bytes, as: UTF8.self) }

        init(_ fd: Int32) { self.fd = fd }

        func drain(timeout: Double = 0) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var wait = Int32(timeout * 1000)
            while true {
                var entry = pollfd(fd: fd, events: CShort(POLLIN), revents: 0)
                guard poll(&entry, 1, wait) == 1, entry.revents & CShort(POLLIN) != 0 else { return }
                let n = read(fd, &buffer, buffer.count)
                guard n > 0 else { return }
                bytes += buffer[..<n]
                wait = 0
            }
        }
    }

    /// A board whose GPS is `gps` (a tty path; nil: simulated) and every other part simulated.
    static func board(name: String = "E2E desk", gps: String?, display: String = #"{ "kind": "ssd1306", "simulated": true }"#) -> String {
        let receiver = gps.map { #"{ "device": "\#($0)", "baud": 9600 }"# } ?? #"{ "simulated": true }"#
        return """
            {
              "schema": 1,
              "name": "\(name)",
              "gps": \(receiver),
              "display": \(display),
              "buttons": [
                { "name": "A", "simulated": true },
                { "name": "B", "simulated": true },
                { "name": "C", "simulated": true }
              ],
              "sensor": { "kind": "bme280", "simulated": true },
              "weather": { "simulated": true },
              "defaultLocation": { "name": "Berlin", "latitude": 52.52, "longitude": 13.405 },
              "timeZone": "Europe/Berlin"
            }
            """
    }

    static func temporaryDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "run-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func statuses(_ messages: [(at: Date, text: String)]) -> [String] {
        messages.flatMap { $0.text.split(separator: "\n") }.filter { $0.hasPrefix("STATUS=") }.map { String($0.dropFirst(7)) }
    }

    @Test("READY after the first frame, STATUS follows the GPS, WATCHDOG at half the period, a key commits, SIGHUP good and bad, SIGTERM exits 0 within 1 s")
    func daemonSpeaksSystemdAndSurvivesItsSignals() throws {
        let directory = try Self.temporaryDirectory("notify")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (master, slave) = try GPSMonitorEndToEndTests.openPseudoTerminal()
        var masterOpen = true
        defer { if masterOpen { close(master) } }
        let daemon = try Daemon(board: Self.board(gps: slave), directory: directory)
        var epoch = 0
        let feed = {
            let bytes = Array(GPSMonitorEndToEndTests.epochs[epoch % GPSMonitorEndToEndTests.epochs.count].utf8)
            epoch += 1
            _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }

        // READY=1 comes once the first frame is on the (simulated) glass.
        let ready = daemon.waitForMessage(seconds: 10, feeding: feed) { $0.contains("READY=1") }
        try #require(ready != nil, "no READY=1; stderr: \(daemon.stderr.text)")
        #expect(try daemon.litPixels() > 0, "READY=1 before a frame reached the glass")

        // The receiver's capture gives a fix: the status line says so.
        let fix = daemon.waitForMessage(seconds: 10, feeding: feed) { $0.contains("STATUS=") && $0.contains("GPS 3D fix") }
        #expect(fix != nil, "no GPS fix in STATUS: \(Self.statuses(daemon.messages)); stderr: \(daemon.stderr.text)")

        // WATCHDOG=1 every half of WATCHDOG_USEC (0.5 s → 0.25 s).
        daemon.messages.removeAll()
        _ = daemon.waitForMessage(seconds: 2.2, feeding: feed) { _ in false }
        let pings = daemon.messages.filter { $0.text.contains("WATCHDOG=1") }.map(\.at)
        #expect((6...10).contains(pings.count), "\(pings.count) pings in 2.2 s at a 0.25 s period")
        let gaps = zip(pings.dropFirst(), pings).map { $0.timeIntervalSince($1) }
        #expect(gaps.allSatisfy { $0 > 0.15 && $0 < 0.45 }, "ping gaps \(gaps)")

        // A key on standard input presses simulated button B: units → imperial, committed.
        daemon.press("b")
        #expect(daemon.waitForLog(seconds: 5, "settings: celsius, imperial"), "no committed settings line: \(daemon.stderr.text)")

        // The receiver goes away (the pty's master closes: the tty hangs up): the status says so.
        close(master)
        masterOpen = false
        let unplugged = daemon.waitForMessage(seconds: 10) { $0.contains("STATUS=") && $0.contains("GPS no receiver") }
        #expect(unplugged != nil, "no 'GPS no receiver' in STATUS: \(Self.statuses(daemon.messages))")

        // SIGHUP with a broken board file: each problem logged, the old board keeps running.
        try #"{ "schema": 1, "name": "broken", "gps": { "device": "/dev/i2c-1" } }"#.write(to: daemon.boardPath, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(daemon.waitForLog(seconds: 5, "board file not applied; still running E2E desk"), "\(daemon.stderr.text)")
        #expect(daemon.stderr.text.contains("gps.device: \"/dev/i2c-1\" is an I²C bus"), "\(daemon.stderr.text)")
        #expect(daemon.stderr.text.contains("display: missing required field \"display\""), "\(daemon.stderr.text)")
        #expect(daemon.process.isRunning)

        // SIGHUP with a good, changed file: applied without a restart, READY=1 again.
        daemon.messages.removeAll()
        try Self.board(name: "E2E desk, reloaded", gps: nil).write(to: daemon.boardPath, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(daemon.waitForLog(seconds: 5, "board file applied: E2E desk, reloaded"), "\(daemon.stderr.text)")
        let reloaded = daemon.waitForMessage(seconds: 5) { $0.contains("READY=1") }
        #expect(reloaded != nil)
        #expect(daemon.messages.contains { $0.text.contains("RELOADING=1") })
        let pid = daemon.process.processIdentifier
        #expect(daemon.process.isRunning && daemon.process.processIdentifier == pid)

        // SIGTERM: STOPPING=1, exit 0 within 1 s, the OLED switched off (the default onStop).
        daemon.messages.removeAll()
        let term = Date()
        daemon.signal(SIGTERM)
        let status = daemon.exit(within: 1)
        let took = Date().timeIntervalSince(term)
        #expect(status == 0, "exit status \(String(describing: status)) after SIGTERM; stderr: \(daemon.stderr.text)")
        #expect(took < 1, "took \(took) s to exit")
        #expect(daemon.messages.contains { $0.text.contains("STOPPING=1") })
        #expect(try daemon.litPixels() == 0, "the panel was not switched off")

        // The store is intact: the committed setting is there.
        let show = try E2E.run(["store", "--dir", daemon.statePath.path, "show"])
        #expect(show.status == 0 && show.stdout.contains("\"imperial\""), "\(show.stdout) \(show.stderr)")
    }

    @Test("kill -9, then a restart on the same state directory: every acknowledged setting is there")
    func killNineKeepsAcknowledgedSettings() throws {
        let directory = try Self.temporaryDirectory("kill9")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Daemon(board: Self.board(gps: nil), directory: directory)
        try #require(first.waitForMessage(seconds: 10) { $0.contains("READY=1") } != nil, "\(first.stderr.text)")
        // a: °C → °F; c: 24 h → 12 h. Each is acknowledged by the log line after its commit.
        first.press("a")
        #expect(first.waitForLog(seconds: 5, "settings: fahrenheit, metric, 24h"), "\(first.stderr.text)")
        first.press("c")
        #expect(first.waitForLog(seconds: 5, "settings: fahrenheit, metric, 12h"), "\(first.stderr.text)")
        first.signal(SIGKILL)
        _ = first.exit(within: 5)

        let second = try Daemon(board: Self.board(gps: nil), directory: directory, stateDirectory: first.statePath)
        try #require(second.waitForMessage(seconds: 10) { $0.contains("READY=1") } != nil, "\(second.stderr.text)")
        second.signal(SIGTERM)
        #expect(second.exit(within: 2) == 0)
        let show = try E2E.run(["store", "--dir", first.statePath.path, "show"])
        #expect(show.stdout.contains("\"fahrenheit\"") && show.stdout.contains("\"12h\""), "\(show.stdout) \(show.stderr)")
    }

    @Test("a stalled loop stops the watchdog pings")
    func stalledLoopStopsPinging() throws {
        let directory = try Self.temporaryDirectory("stall")
        defer { try? FileManager.default.removeItem(at: directory) }
        let daemon = try Daemon(board: Self.board(gps: nil), directory: directory, watchdogUsec: 400_000, extra: ["--stall-after", "1.5"])
        try #require(daemon.waitForMessage(seconds: 10) { $0.contains("READY=1") } != nil, "\(daemon.stderr.text)")
        #expect(daemon.waitForLog(seconds: 5, "stalling the event loop"), "\(daemon.stderr.text)")
        let before = daemon.messages.filter { $0.text.contains("WATCHDOG=1") }.count
        #expect(before >= 3, "only \(before) pings before the stall")
        daemon.messages.removeAll()
        _ = daemon.waitForMessage(seconds: 1.5) { _ in false }
        #expect(!daemon.messages.contains { $0.text.contains("WATCHDOG=1") }, "pings went on after the stall")
        #expect(daemon.process.isRunning)
        daemon.signal(SIGKILL)
    }

    @Test("a display that is not there: READY anyway, the problem in STATUS and the log, the daemon keeps running")
    func missingDisplayIsReportedNotFatal() throws {
        let directory = try Self.temporaryDirectory("nodisplay")
        defer { try? FileManager.default.removeItem(at: directory) }
        let board = Self.board(gps: nil, display: #"{ "kind": "ssd1306", "bus": "/dev/i2c-97" }"#)
        let daemon = try Daemon(board: board, directory: directory)
        let ready = daemon.waitForMessage(seconds: 10) { $0.contains("READY=1") }
        try #require(ready != nil, "\(daemon.stderr.text)")
        #expect(ready?.contains("Disp") == true, "\(ready ?? "")")
        #expect(daemon.waitForLog(seconds: 2, "/dev/i2c-97: cannot open"), "\(daemon.stderr.text)")
        daemon.signal(SIGTERM)
        #expect(daemon.exit(within: 1) == 0)
    }

    @Test("an invalid board file at start: exit 65, each problem on its own line")
    func invalidBoardAtStartExits65() throws {
        let directory = try Self.temporaryDirectory("invalid")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "board.json")
        try #"{ "schema": 1, "name": "x" }"#.write(to: path, atomically: true, encoding: .utf8)
        let run = try E2E.run(["run", "--board", path.path, "--state-dir", directory.appending(path: "state").path])
        #expect(run.status == 65)
        #expect(run.stderr.contains("board.json: gps: missing required field \"gps\""), "\(run.stderr)")
        #expect(run.stderr.contains("board.json: display: missing required field \"display\""), "\(run.stderr)")
    }
}

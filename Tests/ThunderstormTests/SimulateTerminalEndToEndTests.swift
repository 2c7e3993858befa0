import Foundation
import Glibc
import Testing

/// `thunderstorm simulate` on a terminal, as a newcomer runs it: the built executable with a
/// pseudo-terminal as its standard input and output. The test types the keys a person types and
/// reads what the terminal would show; the simulation runs in real time (20× here), so the test
/// waits in poll(2) for the picture, with a deadline.
@Suite("simulate on a terminal end to end")
struct SimulateTerminalEndToEndTests {
    typealias E2E = BoardCheckEndToEndTests

    /// Reads `master` into `output` until `done(output)` or `seconds` pass; true when done.
    static func read(_ master: Int32, into output: inout [UInt8], seconds: Double, until done: ([UInt8]) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !done(output) {
            guard Date() < end else { return false }
            var entry = pollfd(fd: master, events: CShort(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) >= 0 else { return false }
            if entry.revents & CShort(POLLIN) != 0 {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
                if n > 0 { output += buffer[..<n] }
            } else if entry.revents != 0 {
                return done(output)  // POLLHUP: the program closed the terminal
            }
        }
        return true
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        String(decoding: bytes, as: UTF8.self).contains(text)
    }

    @Test("keys are buttons: a press changes the unit, q quits with exit 0, the terminal comes back as it was")
    func keysPressButtonsAndQuitRestores() throws {
        let binary = try #require(E2E.executable(), "no thunderstorm executable")
        let (master, slavePath) = try GPSMonitorEndToEndTests.openPseudoTerminal()
        defer { close(master) }
        let slave = open(slavePath, O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        defer { close(slave) }
        var before = termios()
        try #require(tcgetattr(slave, &before) == 0)
        let directory = FileManager.default.temporaryDirectory.appending(path: "simulate-tty-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        let process = Process()
        process.executableURL = binary
        process.arguments = [
            "simulate", "--speed", "20", "--clock", "system", "--start", "2026-06-21T10:00:00Z",
            "--state-dir", directory.path,
        ]
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = terminal
        process.standardOutput = terminal
        let err = Pipe()
        process.standardError = err
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        var output: [UInt8] = []
        // The status line under the panel: a fix from the built-in route, and the weather.
        let ready = Self.read(master, into: &output, seconds: 60) {
            Self.contains($0, "GPS 3D fix") && Self.contains($0, "weather ok")
        }
        let tail = String(decoding: output.suffix(400), as: UTF8.self)
        #expect(ready, "no fix and weather on the status line: \(tail)")
        let entered = output.starts(with: Array("\u{1B}[?1049h".utf8))
        #expect(entered, "the alternate screen was not entered first")
        let help = Self.contains(output, "a–d press · A–D hold · q quit")
        #expect(help, "no key help under the panel: \(tail)")

        _ = write(master, "a", 1)  // button A: cycle the temperature unit
        _ = Self.read(master, into: &output, seconds: 0.5) { _ in false }
        _ = write(master, "q", 1)
        let quit = Self.read(master, into: &output, seconds: 10) { Self.contains($0, "\u{1B}[?1049l") }
        #expect(quit, "the alternate screen was not left after q: \(String(decoding: output.suffix(200), as: UTF8.self))")
        process.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stderr.isEmpty, "\(stderr)")

        var after = termios()
        try #require(tcgetattr(slave, &after) == 0)
        #expect(after.c_lflag == before.c_lflag, "echo and line editing were not given back")
        #expect(after.c_iflag == before.c_iflag)

        // The press went through the device's store into the state directory.
        let next = try E2E.run(["simulate", "--headless", "--duration", "1", "--state-dir", directory.path])
        #expect(next.status == 0, "\(next.stderr)")
        let report = try SimulateEndToEndTests.report(next)
        #expect((report["settings"] as? [String: Any])?["temperature"] as? String == "fahrenheit")
    }
}

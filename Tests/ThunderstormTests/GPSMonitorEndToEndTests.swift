import Foundation
import Glibc
import Testing

/// `thunderstorm gps monitor` run as a user runs it: the built executable on a real
/// pseudo-terminal that plays the receiver. The program runs in real time (it is the real poll
/// loop), so the test feeds an epoch every 100 ms while it waits in poll(2) for the output.
@Suite("gps monitor end to end")
struct GPSMonitorEndToEndTests {
    typealias E2E = BoardCheckEndToEndTests

    /// Four epochs of bu353s4.log (GlobalSat BU-353-S4, Hamilton NZ), as the puck sends them.
    static let epochs = [
        "$GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D\r\n$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33\r\n$GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7D\r\n",
        "$GPGGA,030720.000,3747.0875,S,17518.8938,E,1,08,1.1,59.8,M,23.7,M,,0000*70\r\n$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33\r\n$GPRMC,030720.000,A,3747.0875,S,17518.8938,E,1.15,181.39,311214,,,A*7B\r\n",
        "$GPGGA,030722.000,3747.0877,S,17518.8933,E,1,08,1.1,60.1,M,23.7,M,,0000*78\r\n$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33\r\n$GPRMC,030722.000,A,3747.0877,S,17518.8933,E,0.12,181.39,311214,,,A*76\r\n",
        "$GPGGA,030723.000,3747.0878,S,17518.8935,E,1,08,1.1,60.0,M,23.7,M,,0000*71\r\n$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33\r\n$GPRMC,030723.000,A,3747.0878,S,17518.8935,E,0.66,181.39,311214,,,A*7D\r\n",
    ]

    /// A pseudo-terminal: the non-blocking master and the slave's path. Glibc's module does not
    /// export the `posix_openpt` family (they need `_XOPEN_SOURCE`), so they are looked up.
    static func openPseudoTerminal() throws -> (master: Int32, slave: String) {
        typealias Call = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        let process = dlopen(nil, RTLD_NOW)
        func call(_ name: String) -> Call? { dlsym(process, name).map { unsafeBitCast($0, to: Call.self) } }
        guard let openpt = call("posix_openpt"), let grant = call("grantpt"), let unlock = call("unlockpt"),
            let nameOf = dlsym(process, "ptsname").map({ unsafeBitCast($0, to: Name.self) })
        else { throw Errno(rawValue: ENOSYS) }
        let master = openpt(O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard master >= 0, grant(master) == 0, unlock(master) == 0, let name = nameOf(master) else {
            throw Errno(rawValue: errno)
        }
        return (master, String(cString: name))
    }

    struct Errno: Error { var rawValue: Int32 }

    struct Run {
        var status: Int32
        var lines: [String]
        var stderr: String
    }

    /// Runs the monitor; while it runs, writes an epoch to `master` every 100 ms (if given).
    static func monitor(_ arguments: [String], feeding master: Int32? = nil) throws -> Run {
        let binary = try #require(E2E.executable(), "no thunderstorm executable")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["gps", "monitor"] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let fd = out.fileHandleForReading.fileDescriptor
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var k = 0
        while true {
            if let master {
                let bytes = Array(epochs[k % epochs.count].utf8)
                _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }  // EAGAIN/EIO: dropped
                k += 1
            }
            var entry = pollfd(fd: fd, events: CShort(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) >= 0 else { break }
            if entry.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }  // the monitor exited
                output += buffer[..<n]
            }
        }
        process.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        return Run(status: process.terminationStatus, lines: lines, stderr: stderr)
    }

    @Test("a receiver on a pty: one line per second, with the fix")
    func testGPSMonitor_PseudoTerminal_PrintsOneFixLinePerSecond() throws {
        let (master, slave) = try Self.openPseudoTerminal()
        defer { close(master) }
        let run = try Self.monitor(["--device", slave, "--seconds", "2"], feeding: master)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.count == 2, "\(run.lines)")
        #expect(run.lines.first?.hasPrefix("t=1 state=") == true)
        let last = try #require(run.lines.last)
        #expect(last.hasPrefix("t=2 state=fix mode=3D lat=-37.7847"), "\(last)")
        #expect(last.contains(" lon=175.3148"))
        #expect(last.contains(" sats=8 "))
        #expect(last.contains(" baud=9600 "))
        #expect(last.contains(" bad=0 "))
        #expect(last.contains(" lost=0/- "), "a pseudo-terminal keeps no overrun counts (ENOTTY): \(last)")
        #expect(last.contains("| GPS: 3D fix, 8 satellites, "))
    }

    @Test("a missing device is not fatal: the line says so and the service retries")
    func testGPSMonitor_MissingDevice_ReportsNoDeviceAndExitsZero() throws {
        let run = try Self.monitor(["--device", "/dev/ttyACM-thunderstorm-absent", "--seconds", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.count == 1)
        #expect(run.lines.first?.hasPrefix("t=1 state=noDevice mode=- lat=- lon=- alt=- sats=- age=- baud=9600 ok=0 bad=0 unknown=0 lost=0/- | GPS: no device at /dev/ttyACM-thunderstorm-absent — plug the receiver in or check the path (retry in ") == true, "\(run.lines)")
    }

    @Test("bad arguments exit 64 with one line that names the option", arguments: [
        ["--device", "/dev/ttyACM0", "--baud", "1234"],
        ["--device", "/dev/ttyACM0", "--seconds", "0"],
        ["--baud", "9600"],
    ])
    func testGPSMonitor_BadArguments_Fails(arguments: [String]) throws {
        let run = try Self.monitor(arguments)
        #expect(run.status == 64)
        #expect(run.lines.isEmpty)
        #expect(run.stderr.contains(arguments[arguments.count - 2]) || run.stderr.contains("--device"), "\(run.stderr)")
    }
}

import Glibc
import HAL
import HALLinux
import HALSim
import Testing

/// The termios path itself, against the kernel: a real pseudo-terminal stands in for the GPS
/// receiver. A pty ignores the line speed, but it stores and reports the termios settings, so
/// every baud rate is configured, read back, and carries the bytes unchanged.
@Suite struct SerialPseudoTerminalTests {
    static let nmea = """
        $GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r
        $GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r
        $GNGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39\r\r
        $GPTXT,01,01,02,u-blox ag - www.u-blox.com*50\n
        """

    @Test(arguments: BaudRate.allCases)
    func linesArriveByteExactAtEveryBaudRate(baud: BaudRate) throws {
        let pty = try PseudoTerminal()
        let port = try LinuxSerialPort(path: pty.slavePath, baudRate: baud)

        var attributes = termios()
        #expect(tcgetattr(port.fileDescriptor, &attributes) == 0)
        #expect(cfgetispeed(&attributes) == th_speed(baud))
        #expect(attributes.c_lflag & tcflag_t(ICANON | ECHO) == 0)  // raw: no line editing, no echo
        #expect(attributes.c_cc.6 == 1)  // VMIN

        let sent = Array(Self.nmea.utf8)
        #expect(try pty.write(sent) == sent.count)
        let received = try drain(port, expecting: sent.count)
        #expect(received == sent)  // CR, CR CR LF and LF all kept: raw mode translates nothing
    }

    @Test func nothingToReadIsZeroBytesNotAnError() throws {
        let pty = try PseudoTerminal()
        let port = try LinuxSerialPort(path: pty.slavePath, baudRate: .b9600)
        var buffer = [UInt8](repeating: 0, count: 32)
        #expect(try buffer.withUnsafeMutableBytes { try port.read(into: $0) } == 0)
    }

    @Test func closingTheOtherSideIsAHangUp() throws {
        let pty = try PseudoTerminal()
        let port = try LinuxSerialPort(path: pty.slavePath, baudRate: .b9600)
        _ = try pty.write("$GPTXT,01,01,02,bye*00\r\n")
        _ = try drain(port, expecting: 24)
        pty.close()

        // poll reports the hang-up …
        var descriptor = pollfd(fd: port.fileDescriptor, events: CShort(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 1000) == 1)
        #expect(throws: SerialError(.disconnected)) { try port.checkHangUp(revents: descriptor.revents) }
        // … and so does read (EIO from a pty whose master is gone).
        var buffer = [UInt8](repeating: 0, count: 32)
        let error = #expect(throws: SerialError.self) {
            _ = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
        }
        #expect(error?.kind == .disconnected)
    }

    /// TIOCEXCL refuses a second opener with EBUSY, but does not bind root (CAP_SYS_ADMIN), and
    /// CI runs as root: so the check runs in a child process that, when root, lets everyone
    /// open the slave and then becomes `nobody` before trying.
    @Test func secondOpenerIsRefusedWhileExclusive() async {
        await #expect(processExitsWith: .success) {
            let pty = try PseudoTerminal()
            let port = try LinuxSerialPort(path: pty.slavePath, baudRate: .b9600)
            if geteuid() == 0 {
                guard chmod(pty.slavePath.string, 0o666) == 0, setgid(65534) == 0, setuid(65534) == 0 else { exit(2) }
            }
            do {
                _ = try LinuxSerialPort(path: pty.slavePath, baudRate: .b9600)
                exit(1)  // the second opener got the port
            } catch {
                withExtendedLifetime(port) { exit((error as? SerialError)?.kind == .busy ? 0 : 3) }
            }
        }
    }

    @Test func missingDeviceIsNoDevice() {
        #expect(throws: SerialError(.noDevice, errno: .noSuchFileOrDirectory)) {
            _ = try LinuxSerialPort(path: "/dev/ttyACM-thunderstorm-absent", baudRate: .b9600)
        }
    }

    @Test func aRegularFileIsNotATerminal() throws {
        #expect(throws: SerialError(.notATerminal, errno: .inappropriateIOCTLForDevice)) {
            _ = try LinuxSerialPort(path: "/dev/null", baudRate: .b9600)
        }
    }

    /// Reads until `count` bytes came, waiting in poll (which the pty answers at once once the
    /// bytes are in its buffer), never sleeping.
    private func drain(_ port: LinuxSerialPort<LiveSystemCalls>, expecting count: Int) throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        var descriptor = pollfd(fd: port.fileDescriptor, events: CShort(POLLIN), revents: 0)
        while received.count < count {
            guard poll(&descriptor, 1, 2000) == 1 else { break }
            let n = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
            received += buffer[..<n]
        }
        return received
    }
}

private func th_speed(_ baud: BaudRate) -> speed_t {
    switch baud {
    case .b4800: speed_t(B4800)
    case .b9600: speed_t(B9600)
    case .b19200: speed_t(B19200)
    case .b38400: speed_t(B38400)
    case .b57600: speed_t(B57600)
    case .b115200: speed_t(B115200)
    }
}

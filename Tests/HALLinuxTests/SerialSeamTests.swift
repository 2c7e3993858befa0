import CLinuxHAL
import Glibc
import HAL
@testable import HALLinux
import SystemPackage
import Testing

@Suite struct SerialSeamTests {
    @Test func openConfiguresRaw8N1NonBlockingExclusive() throws {
        let calls = ScriptedSystemCalls()
        let port = try LinuxSerialPort(path: "/dev/serial0", baudRate: .b9600, calls: calls)
        #expect(port.fileDescriptor == 7)
        #expect(Array(calls.calls.prefix(5)) == [
            .open("/dev/serial0", O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC),
            .ioctl(7, TH_TIOCEXCL, 0),
            .tcgetattr(7),
            .tcsetattr(7, TCSANOW),
            .tcflush(7, TCIOFLUSH),
        ])
        let t = try #require(calls.appliedTermios)
        var copy = t
        #expect(cfgetispeed(&copy) == speed_t(B9600))
        #expect(cfgetospeed(&copy) == speed_t(B9600))
        #expect(t.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(t.c_cflag & tcflag_t(CLOCAL | CREAD) == tcflag_t(CLOCAL | CREAD))
        #expect(t.c_cflag & tcflag_t(PARENB | CSTOPB) == 0)
        #expect(t.c_cflag & tcflag_t(CRTSCTS) == 0)
        #expect(t.c_lflag & tcflag_t(ICANON | ECHO | ISIG) == 0)
        #expect(t.c_iflag & tcflag_t(IXON | IXOFF | ICRNL) == 0)
        #expect(t.c_cc.6 == 1)  // VMIN: with O_NONBLOCK, empty is EAGAIN and 0 bytes is end of file
        #expect(t.c_cc.5 == 0)  // VTIME
    }

    @Test(arguments: BaudRate.allCases)
    func everySupportedBaudRateReachesTermios(baud: BaudRate) throws {
        let calls = ScriptedSystemCalls()
        _ = try LinuxSerialPort(path: "/dev/ttyACM0", baudRate: baud, calls: calls)
        var t = try #require(calls.appliedTermios)
        #expect(cfgetospeed(&t) == th_baud_constant(CInt(baud.rawValue)))
    }

    @Test(arguments: [
        ("open", ENOENT, SerialError.Kind.noDevice),
        ("open", ENODEV, .noDevice),
        ("open", EACCES, .permissionDenied),
        ("open", EPERM, .permissionDenied),
        ("ioctl", EBUSY, .busy),
        ("tcgetattr", ENOTTY, .notATerminal),
        ("tcsetattr", EINVAL, .other),
    ])
    func openErrnoMapsToKind(call: String, errno: Int32, kind: SerialError.Kind) {
        let calls = ScriptedSystemCalls()
        calls.fail(call, with: errno)
        #expect(throws: SerialError(kind, errno: .init(rawValue: errno))) {
            _ = try LinuxSerialPort(path: "/dev/serial0", baudRate: .b9600, calls: calls)
        }
        // A port that failed after open must not leak its descriptor.
        if call != "open" { #expect(calls.names("close") == [.close(7)]) }
    }

    @Test func openRetriesEINTR() throws {
        let calls = ScriptedSystemCalls()
        calls.fail("open", with: EINTR, EINTR, EINTR)
        _ = try LinuxSerialPort(path: "/dev/serial0", baudRate: .b4800, calls: calls)
        #expect(calls.names("open").count == 4)
    }

    @Test func readRetriesEINTRAndReturnsBytes() throws {
        let calls = ScriptedSystemCalls()
        let port = try LinuxSerialPort(path: "/dev/serial0", baudRate: .b9600, calls: calls)
        calls.input = Array("$GPGGA,1*00\r\n".utf8)
        calls.fail("read", with: EINTR, EINTR, EINTR)
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = try buffer.withUnsafeMutableBytes { raw in try port.read(into: raw) }
        #expect(n == 13)
        #expect(Array(buffer[..<n]) == Array("$GPGGA,1*00\r\n".utf8))
        #expect(calls.names("read") == Array(repeating: .read(7, 64), count: 4))
    }

    @Test func emptyNonBlockingReadIsZeroBytes() throws {
        let calls = ScriptedSystemCalls()
        let port = try LinuxSerialPort(path: "/dev/serial0", baudRate: .b9600, calls: calls)
        calls.fail("read", with: EAGAIN)
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(try buffer.withUnsafeMutableBytes { try port.read(into: $0) } == 0)
    }

    @Test(arguments: [EIO, ENXIO, ENODEV])
    func unplugErrnoIsDisconnected(errno: Int32) throws {
        let calls = ScriptedSystemCalls()
        let port = try LinuxSerialPort(path: "/dev/ttyUSB0", baudRate: .b9600, calls: calls)
        calls.fail("read", with: errno)
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(throws: SerialError(.disconnected, errno: .init(rawValue: errno))) {
            _ = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
        }
    }

    @Test func zeroByteReadIsHangUp() throws {
        let calls = ScriptedSystemCalls()
        let port = try LinuxSerialPort(path: "/dev/ttyUSB0", baudRate: .b9600, calls: calls)
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(throws: SerialError(.disconnected)) {
            _ = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
        }
    }

    @Test(arguments: [POLLHUP, POLLERR, POLLNVAL])
    func pollHangUpIsDisconnected(flag: Int32) throws {
        let port = try LinuxSerialPort(path: "/dev/ttyUSB0", baudRate: .b9600, calls: ScriptedSystemCalls())
        #expect(throws: SerialError(.disconnected)) { try port.checkHangUp(revents: CShort(flag)) }
        try port.checkHangUp(revents: CShort(POLLIN))
    }

    @Test func closedPortReadsAsDisconnectedAndClosesOnce() throws {
        let calls = ScriptedSystemCalls()
        let port = try LinuxSerialPort(path: "/dev/ttyUSB0", baudRate: .b9600, calls: calls)
        port.close()
        port.close()
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(throws: SerialError(.disconnected)) {
            _ = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
        }
        #expect(calls.names("close").count == 1)
        #expect(calls.names("read").isEmpty)
    }

    @Test func badFileDescriptorIsABugThatTraps() async {
        await #expect(processExitsWith: .failure) {
            let calls = ScriptedSystemCalls()
            let port = try LinuxSerialPort(path: "/dev/ttyUSB0", baudRate: .b9600, calls: calls)
            calls.fail("read", with: EBADF)
            var buffer = [UInt8](repeating: 0, count: 8)
            _ = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
        }
    }
}

/// The UART's lost-character counts through TIOCGICOUNT.
@Suite struct SerialLossCounterSeamTests {
    @Test func requestNumberIsTheKernels() {
        // asm-generic/ioctls.h, the numbering of x86, arm and arm64.
        #expect(TH_TIOCGICOUNT == 0x545D)
        #expect(MemoryLayout<th_serial_icounter>.size == 80, "20 ints: cts … buf_overrun, reserved[9]")
    }

    @Test func countsMapOverrunAndBufferOverrun() throws {
        let calls = ScriptedSystemCalls()
        let port = try LinuxSerialPort(path: "/dev/ttyS1", baudRate: .b115200, calls: calls)
        calls.ioctlBehaviour = { request, argument in
            guard request == TH_TIOCGICOUNT, let argument else { return }
            let counts = argument.assumingMemoryBound(to: th_serial_icounter.self)
            counts.pointee.rx = 9_000_000
            counts.pointee.frame = 5
            counts.pointee.overrun = 3
            counts.pointee.parity = 7
            counts.pointee.buf_overrun = 812
        }
        #expect(port.lossCounters() == SerialLossCounters(overrun: 3, bufferOverrun: 812))
        guard case .ioctl(7, TH_TIOCGICOUNT, let pointer)? = calls.calls.last else {
            Issue.record("no TIOCGICOUNT: \(calls.calls)")
            return
        }
        #expect(pointer != 0)
    }

    @Test(arguments: [ENOTTY, EINVAL])
    func aDriverWithoutCountsIsAskedOnce(errno: Int32) throws {
        let calls = ScriptedSystemCalls()
        let port = try LinuxSerialPort(path: "/dev/ttyACM0", baudRate: .b9600, calls: calls)
        let before = calls.names("ioctl").count
        calls.fail("ioctl", with: errno)
        #expect(port.lossCounters() == nil)
        #expect(port.lossCounters() == nil)
        #expect(calls.names("ioctl").count == before + 1, "not asked again after \(errno)")
    }

    @Test func otherErrorsAreNilForThisCallOnly() throws {
        let calls = ScriptedSystemCalls()
        let port = try LinuxSerialPort(path: "/dev/ttyS1", baudRate: .b9600, calls: calls)
        let before = calls.names("ioctl").count
        calls.fail("ioctl", with: EIO)
        #expect(port.lossCounters() == nil)
        #expect(port.lossCounters() == SerialLossCounters())
        #expect(calls.names("ioctl").count == before + 2)
    }

    @Test func interruptedIsRetriedAndAClosedPortIsNotAsked() throws {
        let calls = ScriptedSystemCalls()
        let port = try LinuxSerialPort(path: "/dev/ttyS1", baudRate: .b9600, calls: calls)
        let before = calls.names("ioctl").count
        calls.fail("ioctl", with: EINTR, EINTR)
        #expect(port.lossCounters() == SerialLossCounters())
        #expect(calls.names("ioctl").count == before + 3)
        port.close()
        #expect(port.lossCounters() == nil)
        #expect(calls.names("ioctl").count == before + 3)
    }

    @Test func aPseudoTerminalHasNoCounts() throws {
        var name = [CChar](repeating: 0, count: 128)
        let master = th_openpt(&name, name.count)
        try #require(master >= 0)
        defer { close(master) }
        let port = try LinuxSerialPort(path: FilePath(String(cString: name)), baudRate: .b9600)
        #expect(port.lossCounters() == nil, "the real kernel answers ENOTTY for a pty")
    }
}

#if os(Linux)
import CLinuxHAL
import Glibc
import HAL
import HALSim
import Testing

/// `PseudoTerminal` itself: the slave is opened with plain open(2)/read(2), as a test of the
/// Linux serial port would.
@Suite struct PseudoTerminalTests {
    /// Opens the slave non-blocking.
    func openSlave(_ pty: PseudoTerminal, raw: Bool) throws -> Int32 {
        let fd = Glibc.open(pty.slavePath.string, O_RDWR | O_NOCTTY | O_NONBLOCK)
        try #require(fd >= 0, "open \(pty.slavePath): errno \(errno)")
        if raw {
            var t = termios()
            try #require(tcgetattr(fd, &t) == 0)
            th_termios_make_raw_8n1(&t, th_baud_constant(9600))
            try #require(tcsetattr(fd, TCSANOW, &t) == 0)
        }
        return fd
    }

    /// Reads what is there within ~1 s (the pty hands bytes over through a kernel work queue).
    func readSlave(_ fd: Int32, count: Int) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<200 where result.count < count {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 { result += buffer[..<n] } else { usleep(5_000) }
        }
        return result
    }

    @Test func testPty_Open_GivesASlavePath() throws {
        let pty = try PseudoTerminal()
        #expect(pty.slavePath.string.hasPrefix("/dev/pts/"))
        #expect(pty.isOpen)
        #expect(access(pty.slavePath.string, F_OK) == 0)
    }

    @Test func testPty_MasterWrite_ReadsBackOnRawSlave() throws {
        let pty = try PseudoTerminal()
        let fd = try openSlave(pty, raw: true)
        defer { Glibc.close(fd) }
        let bytes: [UInt8] = Array("$GPRMC,1\r\n".utf8) + [0x00, 0xFF, 0x0D, 0x11, 0x13, 0xB5, 0x62]
        #expect(try pty.write(bytes) == bytes.count)
        #expect(readSlave(fd, count: bytes.count) == bytes, "raw 8N1: every byte as sent")
    }

    @Test func testPty_CookedSlave_GetsLines() throws {
        let pty = try PseudoTerminal()
        try pty.write("written before the slave is opened\n")
        let fd = try openSlave(pty, raw: false)
        defer { Glibc.close(fd) }
        #expect(readSlave(fd, count: 35) == Array("written before the slave is opened\n".utf8))
    }

    @Test func testPty_SlaveWrite_ReadsBackOnMaster() throws {
        let pty = try PseudoTerminal()
        let fd = try openSlave(pty, raw: true)
        defer { Glibc.close(fd) }
        let command: [UInt8] = [0xB5, 0x62, 0x06, 0x08]  // a UBX header the app might send
        #expect(command.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == 4)
        var got: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        for _ in 0..<200 where got.count < 4 {
            let n = try buffer.withUnsafeMutableBytes { try pty.read(into: $0) }
            if n > 0 { got += buffer[..<n] } else { usleep(5_000) }
        }
        #expect(got == command)
    }

    @Test func testPty_Close_HangsUpTheSlave() throws {
        let pty = try PseudoTerminal()
        let fd = try openSlave(pty, raw: true)
        defer { Glibc.close(fd) }
        pty.close()
        #expect(!pty.isOpen)
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 1000) == 1)
        #expect(entry.revents & Int16(POLLHUP) != 0)
        var byte: UInt8 = 0
        #expect(Glibc.read(fd, &byte, 1) == 0, "end of file after the hang-up")
        #expect(caught(SerialError.self) { _ = try pty.write([1]) } == SerialError(.disconnected))
    }

    @Test func testPty_FullLineDiscipline_WriteReturnsPartialCount() throws {
        let pty = try PseudoTerminal()
        let fd = try openSlave(pty, raw: true)  // opened, never read
        defer { Glibc.close(fd) }
        let big = [UInt8](repeating: 0x41, count: 1 << 20)
        let n = try pty.write(big, timeout: .milliseconds(20))
        #expect(n > 0 && n < big.count, "EAGAIN ends the write with what fitted, no error")
    }

    @Test func testPty_MasterReadWithNoSlaveOpen_IsDisconnected() throws {
        let pty = try PseudoTerminal()
        let fd = try openSlave(pty, raw: true)
        Glibc.close(fd)  // the port under test closed the device
        var buffer = [UInt8](repeating: 0, count: 8)
        let error = caught(SerialError.self) { _ = try buffer.withUnsafeMutableBytes { try pty.read(into: $0) } }
        #expect(error?.kind == .disconnected)
    }
}
#endif

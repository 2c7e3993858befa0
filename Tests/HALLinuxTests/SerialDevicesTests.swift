import Glibc
import HAL
@testable import HALLinux
import HALSim
import Testing

/// `LinuxSerialDevices`: the by-id listing and the open, through the system-call seam and on a
/// real pseudo-terminal behind a symlink.
@Suite struct SerialDevicesTests {
    @Test func testByIDDevices_ListsFullPathsSorted() {
        let calls = ScriptedSystemCalls()
        calls.directories["/dev/serial/by-id"] = ["usb-u-blox_GNSS-if00", "usb-FTDI_FT232R-if00-port0"]
        let devices = LinuxSerialDevices(calls: calls)
        #expect(devices.byIDDevices() == [
            "/dev/serial/by-id/usb-FTDI_FT232R-if00-port0", "/dev/serial/by-id/usb-u-blox_GNSS-if00",
        ])
        #expect(calls.calls == [.directoryEntries("/dev/serial/by-id")])
    }

    @Test func testByIDDevices_NoDirectory_IsEmpty() {
        let calls = ScriptedSystemCalls()  // no /dev/serial/by-id: no USB serial device
        #expect(LinuxSerialDevices(calls: calls).byIDDevices().isEmpty)
    }

    @Test func testOpen_MapsErrnoToTheSharedKinds() {
        let calls = ScriptedSystemCalls()
        let devices = LinuxSerialDevices(calls: calls)
        calls.fail("open", with: ENOENT, EACCES, EBUSY)
        for kind in [SerialError.Kind.noDevice, .permissionDenied, .busy] {
            let error = #expect(throws: SerialError.self) { _ = try devices.open("/dev/ttyACM0", baudRate: .b9600) }
            #expect(error?.kind == kind)
        }
        #expect(calls.names("open").count == 3)
        let port = try? devices.open("/dev/ttyACM0", baudRate: .b38400)
        #expect(port?.baudRate == .b38400)
        #expect(calls.names("open").last == .open("/dev/ttyACM0", O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC))
    }

    @Test func testOpen_ThroughASymlinkToAPseudoTerminal_ReadsTheBytes() throws {
        let pty = try PseudoTerminal()
        let directory = try TemporaryDirectory()
        let link = directory.path + "/usb-u-blox_GNSS-if00"
        #expect(symlink(pty.slavePath.string, link) == 0)
        defer { unlink(link) }
        let devices = LinuxSerialDevices(byIDDirectory: .init(directory.path))
        #expect(devices.byIDDevices() == [.init(link)])
        let port = try devices.open(.init(link), baudRate: .b9600)
        try pty.write("$GPTXT,01,01,02,hi*4C\r\n")
        var entry = pollfd(fd: port.fileDescriptor, events: CShort(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 2000) == 1)
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
        #expect(String(decoding: buffer[..<n], as: UTF8.self) == "$GPTXT,01,01,02,hi*4C\r\n")
    }
}

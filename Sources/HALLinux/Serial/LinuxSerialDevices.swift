import HAL
import SystemPackage

/// The serial devices of a Linux machine: termios ttys opened with `LinuxSerialPort`, and the
/// udev links in `/dev/serial/by-id` (named after the USB adapter's vendor, product and serial
/// number, so they survive a replug into another USB socket, unlike `/dev/ttyACM0`).
///
/// Every call goes through the `SystemCalls` seam, so tests script the by-id directory and the
/// open errors; `byIDDirectory` can point at a directory of symlinks to pseudo-terminals.
public struct LinuxSerialDevices<Calls: SystemCalls>: SerialDevices {
    public let calls: Calls
    /// Where udev puts the stable names of USB serial devices.
    public var byIDDirectory: FilePath

    public static var defaultByIDDirectory: FilePath { "/dev/serial/by-id" }

    public init(calls: Calls, byIDDirectory: FilePath = LinuxSerialDevices.defaultByIDDirectory) {
        self.calls = calls
        self.byIDDirectory = byIDDirectory
    }

    public func open(_ path: FilePath, baudRate: BaudRate) throws(SerialError) -> LinuxSerialPort<Calls> {
        try LinuxSerialPort(path: path, baudRate: baudRate, calls: calls)
    }

    /// The directory's entries as full paths, sorted (readdir order is arbitrary); empty when
    /// the directory is absent, which is what udev does when no USB serial device is present.
    public func byIDDevices() -> [FilePath] {
        let names = withCString(byIDDirectory) { calls.directoryEntries($0) } ?? []
        return names.sorted().map { byIDDirectory.appending($0) }
    }
}

extension LinuxSerialDevices where Calls == LiveSystemCalls {
    public init(byIDDirectory: FilePath = LinuxSerialDevices.defaultByIDDirectory) {
        self.init(calls: LiveSystemCalls(), byIDDirectory: byIDDirectory)
    }
}

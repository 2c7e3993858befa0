import SystemPackage

/// The serial devices of this machine, as the GPS location service needs them: open one by path
/// at a baud rate, and list what `/dev/serial/by-id` offers when the configured path is gone.
///
/// Two requirements, because they are two separate questions the service asks the system (one
/// per reconnect attempt, never in steady state). Implemented by `LinuxSerialDevices` (termios
/// ttys and the real `/dev/serial/by-id`) and `SimulatedSerialDevices` (receivers a test plugs,
/// unplugs and sets to a baud rate); used by `LocationService`.
///
/// A port is closed by dropping it: the service drops the old port before it opens the next one,
/// so an exclusive (`TIOCEXCL`) tty can be reopened at another baud rate.
public protocol SerialDevices {
    associatedtype Port: SerialPort

    /// Opens `path` (a tty, a symlink such as `/dev/serial0` or a by-id name) at `baudRate`,
    /// raw 8N1 and non-blocking, with whatever was queued before the open discarded.
    /// Throws the shared kinds: `.noDevice` when the path does not exist, `.permissionDenied`,
    /// `.busy`, `.notATerminal`, `.unsupportedBaudRate`.
    func open(_ path: FilePath, baudRate: BaudRate) throws(SerialError) -> Port

    /// The entries of `/dev/serial/by-id` as full paths, sorted; empty when the directory does
    /// not exist (no USB serial device is plugged in). Allocates: call it only to reconnect.
    func byIDDevices() -> [FilePath]
}

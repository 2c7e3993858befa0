import HAL
import HALLinux
import HALSim
import SystemPackage

/// The GPS's serial devices as the daemon opens them: the kernel's ttys (termios), or the
/// simulated receiver that drives out of the board's default location.
public enum BoardSerial: SerialDevices {
    case kernel(LinuxSerialDevices<LiveSystemCalls>)
    case simulated(SimulatedSerialDevices)

    /// An open port of either kind, so the location service has one port type.
    public enum Port: SerialPort {
        case kernel(LinuxSerialPort<LiveSystemCalls>)
        case simulated(SimulatedSerialDevices.Port)

        public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
            switch self {
            case .kernel(let port): try port.read(into: buffer)
            case .simulated(let port): try port.read(into: buffer)
            }
        }

        public mutating func lossCounters() -> SerialLossCounters? {
            switch self {
            case .kernel(let port): port.lossCounters()
            case .simulated(let port): port.lossCounters()
            }
        }

        /// The tty's descriptor for `poll(2)` (its hang-up); -1 for a simulated receiver,
        /// whose bytes the loop's own wake-ups carry.
        public var pollDescriptor: CInt {
            switch self {
            case .kernel(let port): port.fileDescriptor
            case .simulated: -1
            }
        }
    }

    public func open(_ path: FilePath, baudRate: BaudRate) throws(SerialError) -> Port {
        switch self {
        case .kernel(let devices): .kernel(try devices.open(path, baudRate: baudRate))
        case .simulated(let devices): .simulated(try devices.open(path, baudRate: baudRate))
        }
    }

    public func byIDDevices() -> [FilePath] {
        switch self {
        case .kernel(let devices): devices.byIDDevices()
        case .simulated(let devices): devices.byIDDevices()
        }
    }
}

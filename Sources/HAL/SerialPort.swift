import SystemPackage

/// A byte stream from a serial device such as a GPS receiver.
///
/// One required method: a non-blocking read. Opening, baud rate and reopening after an unplug
/// belong to whoever owns the port (the location service reopens a port to hunt baud rates),
/// so the contract stays one method that the Linux tty, a pseudo-terminal and the in-memory
/// simulation all implement.
public protocol SerialPort {
    /// Copies the bytes available now into `buffer` and returns how many; 0 means none yet.
    /// Never blocks and never allocates. Throws `.disconnected` once the device hung up or was
    /// unplugged; the port is then dead and must be reopened.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int

    /// What the driver counted of the bytes it lost before any read could see them, since the
    /// device appeared (not since this open: the kernel keeps the counts per UART), or nil
    /// when the driver keeps no such counts. One system call; meant to be asked rarely (the
    /// location service asks once a minute). Defaults to nil.
    mutating func lossCounters() -> SerialLossCounters?
}

extension SerialPort {
    public mutating func lossCounters() -> SerialLossCounters? { nil }
}

/// A UART's own count of received characters it had to throw away: Linux's `TIOCGICOUNT`
/// (`struct serial_icounter_struct`, include/uapi/linux/serial.h), which the 8250/16550 driver,
/// the PL011 and USB-serial adapters fill in, and which USB ACM modems and pseudo-terminals do
/// not have (ENOTTY).
public struct SerialLossCounters: Sendable, Equatable {
    /// `overrun`: characters that arrived while the UART's receive FIFO was full (the 16550's
    /// LSR Overrun Error): the kernel itself served the interrupt too late.
    public var overrun: Int
    /// `buf_overrun`: characters the driver could not hand to the tty layer because its
    /// buffers were full (serial_core's `uart_insert_char`): the reader did not keep up.
    public var bufferOverrun: Int

    public init(overrun: Int = 0, bufferOverrun: Int = 0) {
        self.overrun = overrun
        self.bufferOverrun = bufferOverrun
    }

    /// Both counts together: characters the line delivered that no read will ever see.
    public var total: Int { overrun + bufferOverrun }
}

/// A serial-port failure with a kind shared by every backend.
public struct SerialError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The path does not exist (receiver not plugged in, wrong name).
        case noDevice
        /// The process may not open it (on Raspberry Pi OS: add the user to `dialout`).
        case permissionDenied
        /// Another process holds the port exclusively (gpsd, a login getty on the console).
        case busy
        /// The path is not a terminal.
        case notATerminal
        /// The baud rate is outside 4800…115200 or not a standard rate.
        case unsupportedBaudRate
        /// The device hung up or went away (POLLHUP, EIO, ENXIO, ENODEV, end of file).
        case disconnected
        case other
    }

    public var kind: Kind
    public var errno: Errno?

    public init(_ kind: Kind, errno: Errno? = nil) {
        self.kind = kind
        self.errno = errno
    }

    public var description: String {
        let what: String
        switch kind {
        case .noDevice: what = "no such serial device"
        case .permissionDenied: what = "permission denied (is the user in the dialout group?)"
        case .busy: what = "serial port in use by another process"
        case .notATerminal: what = "not a serial port"
        case .unsupportedBaudRate: what = "unsupported baud rate (use 4800, 9600, 19200, 38400, 57600 or 115200)"
        case .disconnected: what = "serial device disconnected"
        case .other: what = "serial port error"
        }
        guard let errno else { return what }
        return "\(what) (\(errno))"
    }
}

/// The baud rates the GPS path supports (NMEA 0183 receivers ship at 4800 or 9600; u-blox
/// modules can be set up to 115200).
public enum BaudRate: Int, CaseIterable, Sendable {
    case b4800 = 4800, b9600 = 9600, b19200 = 19200, b38400 = 38400, b57600 = 57600, b115200 = 115200
}

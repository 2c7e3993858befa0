import CLinuxHAL
import Glibc
import HAL
import SystemPackage

/// A serial device (`/dev/serial0`, `/dev/ttyACM0`, a pseudo-terminal) in raw 8N1 mode.
///
/// Opened non-blocking, so a read never waits: the event loop polls `fileDescriptor` and reads
/// when it is readable. Opened with `TIOCEXCL`, so a second non-root opener (a forgotten gpsd)
/// gets EBUSY instead of silently stealing half the bytes.
///
/// Unplug and hang-up are detected however the kernel reports them: POLLHUP/POLLERR on the
/// descriptor (`checkHangUp(revents:)`), EIO, ENXIO or ENODEV from `read`, or a zero-byte read,
/// which means end of file: the port is set to VMIN 1, so an empty tty answers EAGAIN instead.
public final class LinuxSerialPort<Calls: SystemCalls>: SerialPort {
    public let fileDescriptor: CInt
    public let baudRate: BaudRate
    private let calls: Calls
    private var isOpen = true
    /// Cleared when the driver answers TIOCGICOUNT with ENOTTY or EINVAL: it keeps no counts
    /// (USB ACM, a pseudo-terminal), and asking again would only cost a system call.
    private var hasLossCounters = true

    /// Opens `path` at `baudRate`, raw 8N1, no flow control, input and output queues flushed.
    public init(path: FilePath, baudRate: BaudRate, calls: Calls) throws(SerialError) {
        self.calls = calls
        self.baudRate = baudRate
        let flags = O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC
        let opened = withCString(path) { p in systemCall { calls.open(p, flags, 0) } }
        switch opened {
        case .success(let fd): fileDescriptor = fd
        case .failure(let e): throw SerialError(openErrno: e)
        }
        do throws(SerialError) {
            try configure(baudRate)
        } catch {
            _ = calls.close(fileDescriptor)
            isOpen = false
            throw error
        }
    }

    deinit { close() }

    /// Closes the descriptor; reads afterwards throw `.disconnected`.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        _ = calls.close(fileDescriptor)  // close(2) errors are meaningless for a tty we only read
    }

    private func configure(_ baud: BaudRate) throws(SerialError) {
        if case .failure(let e) = systemCall({ calls.ioctl(fileDescriptor, TH_TIOCEXCL, nil) }) {
            throw SerialError(openErrno: e)
        }
        var attributes = termios()
        if case .failure(let e) = systemCall({ calls.tcgetattr(fileDescriptor, &attributes) }) {
            throw SerialError(openErrno: e)
        }
        let speed = th_baud_constant(CInt(baud.rawValue))
        guard speed != speed_t.max else { throw SerialError(.unsupportedBaudRate) }
        th_termios_make_raw_8n1(&attributes, speed)
        if case .failure(let e) = systemCall({ calls.tcsetattr(fileDescriptor, TCSANOW, &attributes) }) {
            throw SerialError(openErrno: e)
        }
        // Bytes queued before we configured the port were sampled at the wrong speed.
        if case .failure(let e) = systemCall({ calls.tcflush(fileDescriptor, TCIOFLUSH) }) {
            throw SerialError(openErrno: e)
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        guard isOpen else { throw SerialError(.disconnected) }
        guard buffer.count > 0 else { return 0 }
        switch systemCall({ calls.read(fileDescriptor, buffer.baseAddress, buffer.count) }) {
        case .success(0): throw SerialError(.disconnected)
        case .success(let n): return n
        case .failure(.resourceTemporarilyUnavailable): return 0
        case .failure(let e): throw SerialError(readErrno: e)
        }
    }

    /// The UART's lost-character counts (`TIOCGICOUNT`'s `overrun` and `buf_overrun`), or nil
    /// when the driver keeps none. The tty core answers ENOTTY for a driver without
    /// `get_icount` (drivers/tty/tty_io.c, `tty_get_icount`; EINVAL before a 2021 change, and
    /// still from some drivers): then the port stops asking. Any other error (the device going away) is nil for this call only;
    /// the next read reports the unplug.
    public func lossCounters() -> SerialLossCounters? {
        guard isOpen, hasLossCounters else { return nil }
        var counts = th_serial_icounter()
        switch systemCall({ calls.ioctl(fileDescriptor, TH_TIOCGICOUNT, &counts) }) {
        case .success:
            return SerialLossCounters(overrun: Int(counts.overrun), bufferOverrun: Int(counts.buf_overrun))
        case .failure(.inappropriateIOCTLForDevice), .failure(.invalidArgument):
            hasLossCounters = false
            return nil
        case .failure:
            return nil
        }
    }

    /// Turns what `poll` reported for `fileDescriptor` into the port's state: POLLHUP, POLLERR or
    /// POLLNVAL mean the device is gone. Call it before reading.
    public func checkHangUp(revents: CShort) throws(SerialError) {
        if revents & CShort(POLLHUP | POLLERR | POLLNVAL) != 0 { throw SerialError(.disconnected) }
    }
}

extension LinuxSerialPort where Calls == LiveSystemCalls {
    public convenience init(path: FilePath, baudRate: BaudRate) throws(SerialError) {
        try self.init(path: path, baudRate: baudRate, calls: LiveSystemCalls())
    }
}

extension SerialError {
    /// errno from open, ioctl or tcsetattr.
    init(openErrno e: Errno) {
        switch e {
        case .noSuchFileOrDirectory, .operationNotSupportedByDevice, .noSuchAddressOrDevice: self.init(.noDevice, errno: e)
        case .permissionDenied, .notPermitted: self.init(.permissionDenied, errno: e)
        case .resourceBusy: self.init(.busy, errno: e)
        case .inappropriateIOCTLForDevice: self.init(.notATerminal, errno: e)
        case .ioError: self.init(.disconnected, errno: e)
        default: self.init(.other, errno: e)
        }
    }

    /// errno from read on an open port.
    init(readErrno e: Errno) {
        switch e {
        case .ioError, .noSuchAddressOrDevice, .operationNotSupportedByDevice: self.init(.disconnected, errno: e)
        default: self.init(.other, errno: e)
        }
    }
}

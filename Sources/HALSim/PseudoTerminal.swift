#if os(Linux)
import CLinuxHAL
import Glibc
import HAL
import SystemPackage

/// A real pseudo-terminal pair, so that the Linux serial port (termios, `poll`, hang-up) can be
/// tested end to end without a device: the test plays the GPS receiver on the master side and
/// the port under test opens `slavePath` as it would open `/dev/ttyACM0`.
///
/// The master is non-blocking. The slave keeps the kernel's default termios (canonical, echo)
/// until whoever opens it sets raw mode, as a real tty does; echo from a cooked slave shows up
/// as bytes readable on the master.
///
/// Behaviour measured on Linux 6.x, which the tests pin down:
/// - bytes written to the master before the slave is opened are kept for it;
/// - after `close()` (the simulated unplug), reads on the slave return end of file and `poll`
///   reports `POLLHUP`;
/// - a master read while no slave descriptor is open fails with `EIO`;
/// - the line discipline buffers only a few KiB (about 17 KiB in canonical mode) before the
///   master write fails with `EAGAIN`.
public final class PseudoTerminal {
    /// The slave device, e.g. `/dev/pts/7`.
    public let slavePath: FilePath
    private var master: FileDescriptor?

    /// Opens a new pair (`posix_openpt`, `grantpt`, `unlockpt`, `ptsname_r` in the C shim).
    public init() throws(SerialError) {
        var name = [CChar](repeating: 0, count: 128)
        let fd = name.withUnsafeMutableBufferPointer { th_openpt($0.baseAddress, $0.count) }
        guard fd >= 0 else { throw SerialError(.other, errno: Errno(rawValue: Glibc.errno)) }
        master = FileDescriptor(rawValue: fd)
        let length = name.firstIndex(of: 0) ?? name.count
        slavePath = FilePath(String(decoding: name[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    deinit { close() }

    /// The master's descriptor, for a test's own `poll`; `nil` after `close()`.
    public var masterDescriptor: FileDescriptor? { master }

    public var isOpen: Bool { master != nil }

    /// Writes `bytes` to the master: the device "sends" them to whoever has the slave open.
    ///
    /// Retries on `EINTR` and after partial writes. When the line discipline is full (`EAGAIN`:
    /// nobody reads the slave), waits with `poll` up to `timeout` for room, and returns the count
    /// written so far if none comes; pass `.zero` never to wait. Throws `.disconnected` after
    /// `close()`.
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer, timeout: Duration = .milliseconds(200)) throws(SerialError)
        -> Int
    {
        guard let master else { throw SerialError(.disconnected) }
        var done = 0
        while done < bytes.count {
            do {
                done += try master.write(UnsafeRawBufferPointer(rebasing: bytes[done...]), retryOnInterrupt: true)
            } catch Errno.resourceTemporarilyUnavailable {
                guard timeout > .zero, try waitWritable(master, timeout: timeout) else { break }
            } catch {
                throw SerialError(.other, errno: error as? Errno)
            }
        }
        return done
    }

    /// Writes `bytes` (see `write(_:timeout:)`).
    @discardableResult
    public func write(_ bytes: [UInt8], timeout: Duration = .milliseconds(200)) throws(SerialError) -> Int {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(SerialError) in try write(raw, timeout: timeout) }
        }
        return try result.get()
    }

    /// Writes the UTF-8 of `text` (see `write(_:timeout:)`).
    @discardableResult
    public func write(_ text: String, timeout: Duration = .milliseconds(200)) throws(SerialError) -> Int {
        try write(Array(text.utf8), timeout: timeout)
    }

    /// Reads what the slave side wrote (or echoed). Returns 0 when nothing is there; throws
    /// `.disconnected` when no slave descriptor is open any more (`EIO`) or after `close()`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        guard let master else { throw SerialError(.disconnected) }
        do {
            return try master.read(into: buffer, retryOnInterrupt: true)
        } catch Errno.resourceTemporarilyUnavailable {
            return 0
        } catch Errno.ioError {
            throw SerialError(.disconnected, errno: .ioError)
        } catch {
            throw SerialError(.other, errno: error as? Errno)
        }
    }

    /// Closes the master: the simulated device is unplugged, and the slave sees a hang-up.
    /// Idempotent.
    public func close() {
        guard let master else { return }
        self.master = nil
        try? master.close()
    }

    /// `poll(POLLOUT)`; `true` when there is room, `false` on timeout.
    private func waitWritable(_ fd: FileDescriptor, timeout: Duration) throws(SerialError) -> Bool {
        let ms = Int32(clamping: (Int128(timeout.nanoseconds) + 999_999) / 1_000_000)  // no overflow for a huge timeout
        var entry = pollfd(fd: fd.rawValue, events: Int16(POLLOUT), revents: 0)
        while true {
            let rc = Glibc.poll(&entry, 1, ms)
            if rc > 0 { return entry.revents & Int16(POLLOUT) != 0 }
            if rc == 0 { return false }
            let code = Glibc.errno
            if code != EINTR { throw SerialError(.other, errno: Errno(rawValue: code)) }
        }
    }
}
#endif

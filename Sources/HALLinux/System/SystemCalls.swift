import CLinuxHAL
import Glibc

/// Every raw Linux call HALLinux makes, one requirement per call, with the C signature.
///
/// The seam swift-system uses for its tests: production code is generic over `Calls` and uses
/// `LiveSystemCalls`, which forwards to libc; tests pass a scripted table that records each call
/// with its arguments and fails it with any errno. It is a generic parameter, never a global,
/// because Swift Testing runs tests in parallel. Failures return -1 and leave the error in
/// `errno`, exactly as libc does.
public protocol SystemCalls {
    func open(_ path: UnsafePointer<CChar>, _ flags: CInt, _ mode: mode_t) -> CInt
    func close(_ fd: CInt) -> CInt
    func read(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int
    func write(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int
    func pread(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int
    func pwrite(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: off_t) -> Int
    func ioctl(_ fd: CInt, _ request: UInt, _ argument: UnsafeMutableRawPointer?) -> CInt
    func tcgetattr(_ fd: CInt, _ attributes: UnsafeMutablePointer<termios>) -> CInt
    func tcsetattr(_ fd: CInt, _ actions: CInt, _ attributes: UnsafePointer<termios>) -> CInt
    func tcflush(_ fd: CInt, _ queue: CInt) -> CInt
    func poll(_ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeoutMilliseconds: CInt) -> CInt
    func fsync(_ fd: CInt) -> CInt
    func fdatasync(_ fd: CInt) -> CInt
    func rename(_ source: UnsafePointer<CChar>, _ destination: UnsafePointer<CChar>) -> CInt
    func unlink(_ path: UnsafePointer<CChar>) -> CInt
    func mkdir(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> CInt
    func fstat(_ fd: CInt, _ status: UnsafeMutablePointer<stat>) -> CInt
    func ftruncate(_ fd: CInt, _ length: off_t) -> CInt
    func flock(_ fd: CInt, _ operation: CInt) -> CInt
    func clockGetTime(_ clock: clockid_t, _ time: UnsafeMutablePointer<timespec>) -> CInt
    /// `adjtimex(2)` with `modes` 0 (read only): the clock state (`TIME_OK`…`TIME_ERROR`), or
    /// -1 with errno; `timex.status` goes to `status`.
    func adjtimex(_ status: UnsafeMutablePointer<CInt>) -> CInt
    /// `timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)`.
    func timerfdCreate() -> CInt
    /// `timerfd_settime(fd, TFD_TIMER_ABSTIME, …)`; a deadline of 0 disarms.
    func timerfdSetTime(_ fd: CInt, _ deadlineNanoseconds: Int64, _ intervalNanoseconds: Int64) -> CInt
    /// `timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC)`.
    func realtimeTimerfdCreate() -> CInt
    /// `timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, …)` at the largest
    /// `time_t`: a timer that never expires and is cancelled when the wall clock is set.
    func timerfdArmCancelOnSet(_ fd: CInt) -> CInt
    /// `eventfd(initial, EFD_NONBLOCK | EFD_CLOEXEC)`.
    func eventfd(_ initial: CUnsignedInt) -> CInt
    /// `signalfd(-1, {signals}, SFD_NONBLOCK | SFD_CLOEXEC)` after blocking them for the thread.
    func signalfd(_ signals: UnsafePointer<CInt>, _ count: CInt) -> CInt
    /// Reads one `signalfd_siginfo`; returns its size and the signal, or -1.
    func signalfdRead(_ fd: CInt, _ signal: UnsafeMutablePointer<CInt>) -> Int
    /// The names in a directory (without "." and ".."), or nil with errno set. Probing only.
    func directoryEntries(_ path: UnsafePointer<CChar>) -> [String]?
    /// `realpath(3)`: where a symlink such as /dev/serial0 points, or nil with errno set.
    func resolvedPath(_ path: UnsafePointer<CChar>) -> String?
    /// `ioctl(TIOCGSERIAL)`'s `type`: 0 (PORT_UNKNOWN) when no UART is behind a ttyS*; -1 with errno.
    func serialPortType(_ fd: CInt) -> CInt
}

/// The real calls.
public struct LiveSystemCalls: SystemCalls, Sendable {
    public init() {}

    public func open(_ path: UnsafePointer<CChar>, _ flags: CInt, _ mode: mode_t) -> CInt {
        th_open(path, flags, mode)
    }
    public func close(_ fd: CInt) -> CInt { Glibc.close(fd) }
    public func read(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Glibc.read(fd, buffer, count)
    }
    public func write(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        Glibc.write(fd, buffer, count)
    }
    public func pread(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int {
        Glibc.pread(fd, buffer, count, offset)
    }
    public func pwrite(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: off_t) -> Int {
        Glibc.pwrite(fd, buffer, count, offset)
    }
    public func ioctl(_ fd: CInt, _ request: UInt, _ argument: UnsafeMutableRawPointer?) -> CInt {
        th_ioctl_ptr(fd, request, argument)
    }
    public func tcgetattr(_ fd: CInt, _ attributes: UnsafeMutablePointer<termios>) -> CInt {
        Glibc.tcgetattr(fd, attributes)
    }
    public func tcsetattr(_ fd: CInt, _ actions: CInt, _ attributes: UnsafePointer<termios>) -> CInt {
        Glibc.tcsetattr(fd, actions, attributes)
    }
    public func tcflush(_ fd: CInt, _ queue: CInt) -> CInt { Glibc.tcflush(fd, queue) }
    public func poll(_ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeoutMilliseconds: CInt) -> CInt {
        Glibc.poll(fds, count, timeoutMilliseconds)
    }
    public func fsync(_ fd: CInt) -> CInt { Glibc.fsync(fd) }
    public func fdatasync(_ fd: CInt) -> CInt { Glibc.fdatasync(fd) }
    public func rename(_ source: UnsafePointer<CChar>, _ destination: UnsafePointer<CChar>) -> CInt {
        Glibc.rename(source, destination)
    }
    public func unlink(_ path: UnsafePointer<CChar>) -> CInt { Glibc.unlink(path) }
    public func mkdir(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> CInt { Glibc.mkdir(path, mode) }
    public func fstat(_ fd: CInt, _ status: UnsafeMutablePointer<stat>) -> CInt { Glibc.fstat(fd, status) }
    public func ftruncate(_ fd: CInt, _ length: off_t) -> CInt { Glibc.ftruncate(fd, length) }
    public func flock(_ fd: CInt, _ operation: CInt) -> CInt { th_flock(fd, operation) }
    public func clockGetTime(_ clock: clockid_t, _ time: UnsafeMutablePointer<timespec>) -> CInt {
        Glibc.clock_gettime(clock, time)
    }
    public func adjtimex(_ status: UnsafeMutablePointer<CInt>) -> CInt { th_adjtimex_read(status) }
    public func timerfdCreate() -> CInt { th_timerfd_create_monotonic() }
    public func timerfdSetTime(_ fd: CInt, _ deadlineNanoseconds: Int64, _ intervalNanoseconds: Int64) -> CInt {
        th_timerfd_settime_abs(fd, deadlineNanoseconds, intervalNanoseconds)
    }
    public func realtimeTimerfdCreate() -> CInt { th_timerfd_create_realtime() }
    public func timerfdArmCancelOnSet(_ fd: CInt) -> CInt { th_timerfd_arm_cancel_on_set(fd) }
    public func eventfd(_ initial: CUnsignedInt) -> CInt { th_eventfd(initial) }
    public func signalfd(_ signals: UnsafePointer<CInt>, _ count: CInt) -> CInt {
        guard th_block_signals(signals, count) == 0 else { return -1 }
        return th_signalfd(-1, signals, count)
    }
    public func signalfdRead(_ fd: CInt, _ signal: UnsafeMutablePointer<CInt>) -> Int {
        th_signalfd_read(fd, signal)
    }
    public func directoryEntries(_ path: UnsafePointer<CChar>) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
    public func resolvedPath(_ path: UnsafePointer<CChar>) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
    public func serialPortType(_ fd: CInt) -> CInt { th_serial_port_type(fd) }
}

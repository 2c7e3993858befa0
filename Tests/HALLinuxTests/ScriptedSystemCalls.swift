import CLinuxHAL
import Glibc
@testable import HALLinux

/// A scripted system-call table: records every call with its arguments and fails the next
/// calls of a given name with the errno values queued by `fail(_:with:)`. One per test, never
/// shared, so tests run in parallel.
final class ScriptedSystemCalls: SystemCalls, @unchecked Sendable {
    enum Call: ScriptedCall {
        case open(String, CInt), close(CInt), read(CInt, Int), write(CInt, [UInt8])
        case pread(CInt, Int, off_t), pwrite(CInt, [UInt8], off_t), ioctl(CInt, UInt, UInt)
        case tcgetattr(CInt), tcsetattr(CInt, CInt), tcflush(CInt, CInt), poll(Int, CInt)
        case fsync(CInt), fdatasync(CInt), rename(String, String), unlink(String), mkdir(String, mode_t)
        case fstat(CInt), ftruncate(CInt, off_t), flock(CInt, CInt), clock(clockid_t), adjtimex
        case timerfdCreate, timerfdSetTime(CInt, Int64, Int64), eventfd, signalfd([CInt]), signalfdRead(CInt)
        case realtimeTimerfdCreate, timerfdArmCancelOnSet(CInt)
        case directoryEntries(String), resolvedPath(String), serialPortType(CInt)
    }

    private var script = CallScript<Call>()
    var calls: [Call] { script.calls }
    /// The descriptor `open` and friends return.
    var nextDescriptor: CInt = 7
    /// Bytes `read` and `pread` deliver (then 0 = end of file).
    var input: [UInt8] = []
    /// What `write`/`pwrite` report as written; nil = everything.
    var shortWrite: Int?
    /// The last termios passed to `tcsetattr`.
    var appliedTermios: termios?
    /// Called for each successful ioctl, to fill the argument like the kernel would.
    var ioctlBehaviour: ((UInt, UnsafeMutableRawPointer?) -> Void)?
    var directories: [String: [String]] = [:]
    var fileSize: off_t = 0
    /// Symlink targets `resolvedPath` reports; other paths resolve to themselves.
    var links: [String: String] = [:]
    /// What TIOCGSERIAL reports as the UART type (0 = no UART).
    var uartType: CInt = 4  // PORT_16550A

    /// The next `errnos.count` calls named `name` fail, in order, with these errno values.
    func fail(_ name: String, with errnos: Int32...) { script.fail(name, with: errnos) }

    func names(_ name: String) -> [Call] { script.names(name) }

    private func record<R: FixedWidthInteger>(_ call: Call, _ success: R) -> R {
        script.failing(call) ? -1 : success
    }

    func open(_ path: UnsafePointer<CChar>, _ flags: CInt, _ mode: mode_t) -> CInt {
        record(.open(String(cString: path), flags), nextDescriptor)
    }
    func close(_ fd: CInt) -> CInt { record(.close(fd), 0) }
    func read(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        let n = min(count, input.count)
        let result = record(.read(fd, count), n)
        if result > 0, let buffer {
            buffer.copyMemory(from: input, byteCount: n)
            input.removeFirst(n)
        }
        return result
    }
    func write(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        let bytes = buffer.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
        return record(.write(fd, bytes), shortWrite ?? count)
    }
    func pread(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int {
        let n = min(count, input.count)
        let result = record(.pread(fd, count, offset), n)
        if result > 0, let buffer { buffer.copyMemory(from: input, byteCount: n) }
        return result
    }
    func pwrite(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: off_t) -> Int {
        let bytes = buffer.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
        return record(.pwrite(fd, bytes, offset), shortWrite ?? count)
    }
    func ioctl(_ fd: CInt, _ request: UInt, _ argument: UnsafeMutableRawPointer?) -> CInt {
        let result = record(.ioctl(fd, request, UInt(bitPattern: argument)), CInt(0))
        if result == 0 { ioctlBehaviour?(request, argument) }
        return result
    }
    func tcgetattr(_ fd: CInt, _ attributes: UnsafeMutablePointer<termios>) -> CInt {
        attributes.pointee = termios()
        return record(.tcgetattr(fd), 0)
    }
    func tcsetattr(_ fd: CInt, _ actions: CInt, _ attributes: UnsafePointer<termios>) -> CInt {
        appliedTermios = attributes.pointee
        return record(.tcsetattr(fd, actions), 0)
    }
    func tcflush(_ fd: CInt, _ queue: CInt) -> CInt { record(.tcflush(fd, queue), 0) }
    func poll(_ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeoutMilliseconds: CInt) -> CInt {
        record(.poll(Int(count), timeoutMilliseconds), 0)
    }
    func fsync(_ fd: CInt) -> CInt { record(.fsync(fd), 0) }
    func fdatasync(_ fd: CInt) -> CInt { record(.fdatasync(fd), 0) }
    func rename(_ source: UnsafePointer<CChar>, _ destination: UnsafePointer<CChar>) -> CInt {
        record(.rename(String(cString: source), String(cString: destination)), 0)
    }
    func unlink(_ path: UnsafePointer<CChar>) -> CInt { record(.unlink(String(cString: path)), 0) }
    func mkdir(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> CInt { record(.mkdir(String(cString: path), mode), 0) }
    func fstat(_ fd: CInt, _ status: UnsafeMutablePointer<stat>) -> CInt {
        status.pointee = stat()
        status.pointee.st_size = fileSize
        return record(.fstat(fd), 0)
    }
    func ftruncate(_ fd: CInt, _ length: off_t) -> CInt { record(.ftruncate(fd, length), 0) }
    func flock(_ fd: CInt, _ operation: CInt) -> CInt { record(.flock(fd, operation), 0) }
    func clockGetTime(_ clock: clockid_t, _ time: UnsafeMutablePointer<timespec>) -> CInt {
        time.pointee = timespec(tv_sec: 12, tv_nsec: 345)
        return record(.clock(clock), 0)
    }
    /// What `adjtimex` reports: the clock state and `timex.status`.
    var clockState: (state: CInt, status: CInt) = (0, 0)  // TIME_OK, synchronised
    func adjtimex(_ status: UnsafeMutablePointer<CInt>) -> CInt {
        status.pointee = clockState.status
        return record(.adjtimex, clockState.state)
    }
    func timerfdCreate() -> CInt { record(.timerfdCreate, nextDescriptor) }
    func timerfdSetTime(_ fd: CInt, _ deadlineNanoseconds: Int64, _ intervalNanoseconds: Int64) -> CInt {
        record(.timerfdSetTime(fd, deadlineNanoseconds, intervalNanoseconds), 0)
    }
    func realtimeTimerfdCreate() -> CInt { record(.realtimeTimerfdCreate, nextDescriptor) }
    func timerfdArmCancelOnSet(_ fd: CInt) -> CInt { record(.timerfdArmCancelOnSet(fd), 0) }
    func eventfd(_ initial: CUnsignedInt) -> CInt { record(.eventfd, nextDescriptor) }
    func signalfd(_ signals: UnsafePointer<CInt>, _ count: CInt) -> CInt {
        record(.signalfd(Array(UnsafeBufferPointer(start: signals, count: Int(count)))), nextDescriptor)
    }
    func signalfdRead(_ fd: CInt, _ signal: UnsafeMutablePointer<CInt>) -> Int {
        signal.pointee = SIGTERM
        return record(.signalfdRead(fd), 128)
    }
    func directoryEntries(_ path: UnsafePointer<CChar>) -> [String]? {
        let p = String(cString: path)
        script.record(.directoryEntries(p))
        guard let names = directories[p] else {
            Glibc.errno = ENOENT
            return nil
        }
        return names
    }
    func resolvedPath(_ path: UnsafePointer<CChar>) -> String? {
        let p = String(cString: path)
        script.record(.resolvedPath(p))
        return links[p] ?? p
    }
    func serialPortType(_ fd: CInt) -> CInt { record(.serialPortType(fd), uartType) }
}

import CLinuxHAL
import Glibc
import HAL
@testable import HALLinux
import HALSim

/// The kernel's i2c-dev in front of a simulated bus, as it behaved when a USB adapter
/// (i2c-tiny-usb on vhci-hcd, kernel 7.3) was unplugged and plugged back (docs/design/architecture.md#the-virtual-board):
/// - `/dev/i2c-1` exists while an adapter is registered; opening it otherwise is ENOENT.
/// - Unplugged, the node goes at once, and a descriptor still open on the old adapter fails
///   write(2) and I2C_RDWR with EOPNOTSUPP; `I2C_FUNCS` answers 0 (i2c-tiny-usb's `usb_func`).
/// - The old adapter is removed only when its last descriptor is closed (`i2c_del_adapter`
///   waits for it); an adapter plugged back before then is not registered until that close.
/// - A live descriptor: `I2C_SLAVE` selects, write(2) is one write transaction, `I2C_RDWR` a
///   write and a read joined by a repeated START; a NACK is ENXIO, any other failure EIO.
///
/// Only the calls an I²C bus makes are answered; every other is ENOSYS.
final class I2CDevTwin: SystemCalls, @unchecked Sendable {
    let bus: SimulatedI2CBus
    let path: String
    /// The adapter registered now (a generation number), if any.
    private(set) var registered: Int? = 0
    /// The adapter unplugged but not yet removed (a descriptor still holds it).
    private(set) var removing: Int?
    private(set) var plugged = true
    private var generation = 0
    private var descriptors: [CInt: (adapter: Int, address: UInt8?)] = [:]
    private var nextDescriptor: CInt = 40
    /// Every call made ("open -> 40", "write 1025", "write -> 95", "close 40"), with the loop
    /// turn `turn` said it was made in.
    private(set) var journal: [(turn: Int, call: String)] = []
    /// The loop turn now (a test points it at the device's wake-up count).
    var turn: () -> Int = { 0 }

    init(bus: SimulatedI2CBus, path: String = "/dev/i2c-1") {
        self.bus = bus
        self.path = path
    }

    var openDescriptors: Int { descriptors.count }

    /// The USB adapter goes: the node disappears; open descriptors fail from now on.
    func unplug() {
        plugged = false
        removing = registered
        registered = nil
        bus.unplugAdapter()
        finishRemoval()
    }

    /// The adapter comes back; it is registered once the old one is removed.
    func plugIn() {
        plugged = true
        finishRemoval()
    }

    private func finishRemoval() {
        if let old = removing, descriptors.values.contains(where: { $0.adapter == old }) { return }
        removing = nil
        guard plugged, registered == nil else { return }
        generation += 1
        registered = generation
        bus.plugAdapterIn()
    }

    private func note(_ call: String) { journal.append((turn(), call)) }

    /// The journal's calls whose text starts with `prefix`.
    func calls(_ prefix: String) -> [(turn: Int, call: String)] { journal.filter { $0.call.hasPrefix(prefix) } }

    private func fail(_ code: Int32, _ entry: String) -> CInt {
        note("\(entry) -> \(code)")
        Glibc.errno = code
        return -1
    }

    func open(_ path: UnsafePointer<CChar>, _ flags: CInt, _ mode: mode_t) -> CInt {
        guard String(cString: path) == self.path, let adapter = registered else { return fail(ENOENT, "open") }
        let fd = nextDescriptor
        nextDescriptor += 1
        descriptors[fd] = (adapter, nil)
        note("open -> \(fd)")
        return fd
    }

    func close(_ fd: CInt) -> CInt {
        guard descriptors.removeValue(forKey: fd) != nil else { return fail(EBADF, "close") }
        note("close \(fd)")
        finishRemoval()
        return 0
    }

    func write(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        guard let descriptor = descriptors[fd] else { return Int(fail(EBADF, "write")) }
        guard descriptor.adapter == registered else { return Int(fail(EOPNOTSUPP, "write")) }
        guard let address = descriptor.address else { return Int(fail(EINVAL, "write")) }
        do throws(I2CError) {
            try bus.transfer(
                address: address, write: UnsafeRawBufferPointer(start: buffer, count: count),
                read: UnsafeMutableRawBufferPointer(start: nil, count: 0))
        } catch {
            return Int(fail(Self.errno(error), "write"))
        }
        note("write \(count)")
        return count
    }

    func ioctl(_ fd: CInt, _ request: UInt, _ argument: UnsafeMutableRawPointer?) -> CInt {
        guard let descriptor = descriptors[fd] else { return fail(EBADF, "ioctl") }
        let live = descriptor.adapter == registered
        switch request {
        case TH_I2C_SLAVE:
            descriptors[fd]?.address = UInt8(UInt(bitPattern: argument))
            note("ioctl I2C_SLAVE")
            return 0
        case TH_I2C_FUNCS:
            argument?.storeBytes(of: live ? UInt(I2C_FUNC_I2C) : 0, as: UInt.self)
            note("ioctl I2C_FUNCS")
            return 0
        case TH_I2C_RDWR:
            guard live else { return fail(EOPNOTSUPP, "ioctl I2C_RDWR") }
            guard let request = argument?.assumingMemoryBound(to: th_i2c_rdwr.self).pointee else { return fail(EINVAL, "ioctl") }
            var write = UnsafeRawBufferPointer(start: nil, count: 0)
            var read = UnsafeMutableRawBufferPointer(start: nil, count: 0)
            var address: UInt8 = 0
            for i in 0..<Int(request.nmsgs) {
                let message = request.msgs[i]
                address = UInt8(message.addr)
                if message.flags & TH_I2C_M_RD != 0 {
                    read = UnsafeMutableRawBufferPointer(start: message.buf, count: Int(message.len))
                } else {
                    write = UnsafeRawBufferPointer(start: message.buf, count: Int(message.len))
                }
            }
            do throws(I2CError) {
                try bus.transfer(address: address, write: write, read: read)
            } catch {
                return fail(Self.errno(error), "ioctl I2C_RDWR")
            }
            note("ioctl I2C_RDWR")
            return 0
        default:
            return fail(ENOTTY, "ioctl")
        }
    }

    static func errno(_ error: I2CError) -> Int32 {
        if case .noAcknowledge = error.kind { return ENXIO }
        return EIO
    }

    // Not an I²C bus's calls.
    func read(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Int(fail(ENOSYS, "read")) }
    func pread(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int { Int(fail(ENOSYS, "pread")) }
    func pwrite(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: off_t) -> Int { Int(fail(ENOSYS, "pwrite")) }
    func tcgetattr(_ fd: CInt, _ attributes: UnsafeMutablePointer<termios>) -> CInt { fail(ENOSYS, "tcgetattr") }
    func tcsetattr(_ fd: CInt, _ actions: CInt, _ attributes: UnsafePointer<termios>) -> CInt { fail(ENOSYS, "tcsetattr") }
    func tcflush(_ fd: CInt, _ queue: CInt) -> CInt { fail(ENOSYS, "tcflush") }
    func poll(_ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeoutMilliseconds: CInt) -> CInt { fail(ENOSYS, "poll") }
    func fsync(_ fd: CInt) -> CInt { fail(ENOSYS, "fsync") }
    func fdatasync(_ fd: CInt) -> CInt { fail(ENOSYS, "fdatasync") }
    func rename(_ source: UnsafePointer<CChar>, _ destination: UnsafePointer<CChar>) -> CInt { fail(ENOSYS, "rename") }
    func unlink(_ path: UnsafePointer<CChar>) -> CInt { fail(ENOSYS, "unlink") }
    func mkdir(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> CInt { fail(ENOSYS, "mkdir") }
    func fstat(_ fd: CInt, _ status: UnsafeMutablePointer<stat>) -> CInt { fail(ENOSYS, "fstat") }
    func ftruncate(_ fd: CInt, _ length: off_t) -> CInt { fail(ENOSYS, "ftruncate") }
    func flock(_ fd: CInt, _ operation: CInt) -> CInt { fail(ENOSYS, "flock") }
    func clockGetTime(_ clock: clockid_t, _ time: UnsafeMutablePointer<timespec>) -> CInt { fail(ENOSYS, "clock_gettime") }
    func adjtimex(_ status: UnsafeMutablePointer<CInt>) -> CInt { fail(ENOSYS, "adjtimex") }
    func timerfdCreate() -> CInt { fail(ENOSYS, "timerfd_create") }
    func timerfdSetTime(_ fd: CInt, _ deadlineNanoseconds: Int64, _ intervalNanoseconds: Int64) -> CInt { fail(ENOSYS, "timerfd_settime") }
    func realtimeTimerfdCreate() -> CInt { fail(ENOSYS, "timerfd_create") }
    func timerfdArmCancelOnSet(_ fd: CInt) -> CInt { fail(ENOSYS, "timerfd_settime") }
    func eventfd(_ initial: CUnsignedInt) -> CInt { fail(ENOSYS, "eventfd") }
    func signalfd(_ signals: UnsafePointer<CInt>, _ count: CInt) -> CInt { fail(ENOSYS, "signalfd") }
    func signalfdRead(_ fd: CInt, _ signal: UnsafeMutablePointer<CInt>) -> Int { Int(fail(ENOSYS, "signalfd read")) }
    func directoryEntries(_ path: UnsafePointer<CChar>) -> [String]? {
        _ = fail(ENOSYS, "opendir")
        return nil
    }
    func resolvedPath(_ path: UnsafePointer<CChar>) -> String? {
        _ = fail(ENOSYS, "realpath")
        return nil
    }
    func serialPortType(_ fd: CInt) -> CInt { fail(ENOSYS, "TIOCGSERIAL") }
}

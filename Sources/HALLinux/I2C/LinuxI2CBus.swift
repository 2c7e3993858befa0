import CLinuxHAL
import Glibc
import HAL
import SystemPackage

/// An I²C adapter through i2c-dev (`/dev/i2c-1` on a Raspberry Pi).
///
/// A write-only transaction is one `write(2)` after `I2C_SLAVE` selects the address (selected
/// once and remembered): one message of up to 8,192 bytes, so a full SSD1306 frame is one call,
/// not 32 SMBus blocks. A transaction that reads is one `I2C_RDWR` with a write message and a
/// read message joined by a repeated START, which register reads need. `I2C_SLAVE` never touches
/// the bus: a missing device shows on the first transfer, as ENXIO or (bcm2835) EREMOTEIO.
///
/// An adapter that goes away (a USB adapter unplugged, a HAT's bridge reset) fails every call on
/// this descriptor with `.adapterGone` (`I2CError(transferErrno:)`), and the kernel cannot
/// finish removing it while the descriptor is open: `i2cdev_open` took a reference
/// (`i2c_get_adapter`), and `i2c_del_adapter` (i2c-core-base.c) waits for the last one before it
/// frees the bus number. So whoever sees `.adapterGone` closes this bus at once (`close()`) and
/// opens the path again later (`ReopeningI2CBus`).
public final class LinuxI2CBus<Calls: SystemCalls>: I2CBus {
    /// i2c-dev clamps a `write(2)` to 8,192 bytes without saying so; we refuse larger payloads.
    public static var maximumMessageLength: Int { 8192 }

    /// Whether libi2c is bound (the Hardware trait), so SMBus register reads are possible.
    public static var smbusAvailable: Bool {
        #if Hardware
        true
        #else
        false
        #endif
    }

    /// The descriptor, or -1 once `close()` gave it back.
    public private(set) var fileDescriptor: CInt
    let calls: Calls
    /// Register reads of up to 32 bytes use libi2c's SMBus block read (see `readRegisters`).
    public let usesSMBusForRegisters: Bool
    private var selectedAddress: UInt8?

    /// Opens the adapter. `usesSMBusForRegisters` needs the Hardware trait; without it, or when
    /// false, register reads are one `I2C_RDWR` like every other read.
    public init(path: FilePath, usesSMBusForRegisters: Bool = smbusAvailable, calls: Calls) throws(I2CError) {
        self.calls = calls
        self.usesSMBusForRegisters = usesSMBusForRegisters && Self.smbusAvailable
        switch withCString(path, { p in systemCall { calls.open(p, O_RDWR | O_CLOEXEC, 0) } }) {
        case .success(let fd): fileDescriptor = fd
        case .failure(let e): throw I2CError(openErrno: e)
        }
    }

    deinit { close() }

    public var isOpen: Bool { fileDescriptor >= 0 }

    /// Gives the descriptor back now (so the kernel can finish removing a gone adapter);
    /// every later transfer fails with `.adapterGone`. Closing twice does nothing.
    public func close() {
        guard fileDescriptor >= 0 else { return }
        // close(2) releases the descriptor even when it reports an error (EINTR, EIO): never retried.
        _ = calls.close(fileDescriptor)
        fileDescriptor = -1
        selectedAddress = nil
    }

    public func transfer(
        address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        precondition(address <= 0x7F, "I²C addresses are 7-bit")
        guard isOpen else { throw I2CError(.adapterGone) }
        guard write.count <= Self.maximumMessageLength, read.count <= Self.maximumMessageLength else {
            throw I2CError(.other, errno: .messageTooLong)
        }
        if read.isEmpty && !write.isEmpty {
            try select(address)
            switch systemCall({ calls.write(fileDescriptor, write.baseAddress, write.count) }) {
            case .success(let n) where n == write.count: return
            case .success: throw I2CError(.noAcknowledge(.data))  // the target stopped acknowledging
            case .failure(let e): throw examined(I2CError(transferErrno: e))
            }
        }
        try readWrite(address: address, write: write, read: read)
    }

    /// One `I2C_RDWR`: [write] then [read], or a lone zero-length write (a "quick" probe).
    private func readWrite(
        address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        var messages = (th_i2c_msg(), th_i2c_msg())
        var count: UInt32 = 0
        withUnsafeMutableBytes(of: &messages) { raw in
            let slots = raw.bindMemory(to: th_i2c_msg.self)
            if !write.isEmpty || read.isEmpty {
                slots[0] = th_i2c_msg(
                    addr: UInt16(address), flags: 0, len: UInt16(write.count),
                    buf: UnsafeMutablePointer(mutating: write.baseAddress?.assumingMemoryBound(to: UInt8.self)))
                count = 1
            }
            if !read.isEmpty {
                slots[Int(count)] = th_i2c_msg(
                    addr: UInt16(address), flags: TH_I2C_M_RD, len: UInt16(read.count),
                    buf: read.baseAddress?.assumingMemoryBound(to: UInt8.self))
                count += 1
            }
        }
        let result = withUnsafeMutablePointer(to: &messages) { pointer in
            pointer.withMemoryRebound(to: th_i2c_msg.self, capacity: 2) { msgs in
                var request = th_i2c_rdwr(msgs: msgs, nmsgs: count)
                return systemCall { calls.ioctl(fileDescriptor, TH_I2C_RDWR, &request) }
            }
        }
        if case .failure(let e) = result { throw examined(I2CError(transferErrno: e)) }
    }

    /// A failure that may be the adapter's own absence, checked with `I2C_FUNCS` (one ioctl, on
    /// failures only): an adapter that is there answers with what it can do, never nothing.
    /// - EOPNOTSUPP: gone (i2c-tiny-usb answers 0 once unplugged), unless the adapter answers:
    ///   then it is there and refuses this transfer (an SMBus-only adapter; a quirk such as a
    ///   length limit), a configuration problem (`.other`).
    /// - EIO: a bus error, unless the adapter cannot answer: an SMBus call emulated over an
    ///   unplugged i2c-tiny-usb fails so (`usb_xfer`'s "failure writing data"), and so does the
    ///   sensor's register read on a board whose display is elsewhere.
    func examined(_ error: I2CError) -> I2CError {
        let unsupported = error.errno == Errno(rawValue: EOPNOTSUPP)
        guard unsupported || error.errno == .ioError else { return error }
        var functions: UInt = 0  // unsigned long, include/uapi/linux/i2c-dev.h
        let answered = withUnsafeMutablePointer(to: &functions) { pointer in
            systemCall { calls.ioctl(fileDescriptor, TH_I2C_FUNCS, UnsafeMutableRawPointer(pointer)) }
        }
        let there = if case .success = answered { functions != 0 } else { false }
        if !there { return I2CError(.adapterGone, errno: error.errno) }
        return unsupported ? I2CError(.other, errno: error.errno) : error
    }

    func select(_ address: UInt8) throws(I2CError) {
        guard selectedAddress != address else { return }
        let result = systemCall { calls.ioctl(fileDescriptor, TH_I2C_SLAVE, UnsafeMutableRawPointer(bitPattern: UInt(address))) }
        switch result {
        case .success: selectedAddress = address
        // EBUSY here means a kernel driver has bound the address (e.g. an ssd1307fb overlay);
        // ENODEV, that the adapter behind the descriptor was deleted.
        case .failure(let e): throw I2CError(e == .operationNotSupportedByDevice ? .adapterGone : .other, errno: e)
        }
    }
}

extension LinuxI2CBus where Calls == LiveSystemCalls {
    public convenience init(path: FilePath, usesSMBusForRegisters: Bool = smbusAvailable) throws(I2CError) {
        try self.init(path: path, usesSMBusForRegisters: usesSMBusForRegisters, calls: LiveSystemCalls())
    }
}

#if Hardware
extension LinuxI2CBus {
    /// With libi2c, register reads of 1…32 bytes are one SMBus "I2C block read"
    /// (`i2c_smbus_read_i2c_block_data`), which every adapter driver implements, including the
    /// ones that cannot do `I2C_RDWR` with a repeated START. Longer reads use `transfer`.
    public func readRegisters(
        address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        guard usesSMBusForRegisters, !buffer.isEmpty, buffer.count <= SMBus<LibI2CCalls>.maximumBlockLength else {
            var reg = register
            try withUnsafeBytes(of: &reg) { (bytes) throws(I2CError) in
                try transfer(address: address, write: bytes, read: buffer)
            }
            return
        }
        guard isOpen else { throw I2CError(.adapterGone) }
        try select(address)
        do {
            try SMBus(descriptor: FileDescriptor(rawValue: fileDescriptor)).readBlock(register: register, into: buffer)
        } catch {
            throw examined(error)
        }
    }
}
#endif

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
public final class LinuxI2CBus<Calls: SystemCalls>: I2CBus {
    /// i2c-dev clamps a `write(2)` to 8,192 bytes without saying so; we refuse larger payloads.
    public static var maximumMessageLength: Int { 8192 }

    public let fileDescriptor: CInt
    let calls: Calls
    private var selectedAddress: UInt8?

    public init(path: FilePath, calls: Calls) throws(I2CError) {
        self.calls = calls
        switch withCString(path, { p in systemCall { calls.open(p, O_RDWR | O_CLOEXEC, 0) } }) {
        case .success(let fd): fileDescriptor = fd
        case .failure(let e): throw I2CError(.other, errno: e)
        }
    }

    deinit { _ = calls.close(fileDescriptor) }

    public func transfer(
        address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        precondition(address <= 0x7F, "I²C addresses are 7-bit")
        guard write.count <= Self.maximumMessageLength, read.count <= Self.maximumMessageLength else {
            throw I2CError(.other, errno: .messageTooLong)
        }
        if read.isEmpty && !write.isEmpty {
            try select(address)
            switch systemCall({ calls.write(fileDescriptor, write.baseAddress, write.count) }) {
            case .success(let n) where n == write.count: return
            case .success: throw I2CError(.noAcknowledge(.data))  // the target stopped acknowledging
            case .failure(let e): throw I2CError(transferErrno: e)
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
        if case .failure(let e) = result { throw I2CError(transferErrno: e) }
    }

    private func select(_ address: UInt8) throws(I2CError) {
        guard selectedAddress != address else { return }
        let result = systemCall { calls.ioctl(fileDescriptor, TH_I2C_SLAVE, UnsafeMutableRawPointer(bitPattern: UInt(address))) }
        switch result {
        case .success: selectedAddress = address
        // EBUSY here means a kernel driver has bound the address (e.g. an ssd1307fb overlay).
        case .failure(let e): throw I2CError(.other, errno: e)
        }
    }
}

extension LinuxI2CBus where Calls == LiveSystemCalls {
    public convenience init(path: FilePath) throws(I2CError) {
        try self.init(path: path, calls: LiveSystemCalls())
    }
}

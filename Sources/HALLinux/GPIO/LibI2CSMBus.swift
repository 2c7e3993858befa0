#if Hardware
import CLinuxHardware
import Glibc
import HAL
import SystemPackage

/// The libi2c SMBus calls `SMBus` makes, with the shim's C signatures (-1 and errno on failure;
/// the shim has already turned libi2c 4.x's -errno results into that). A seam for tests, passed
/// as a generic parameter like `SystemCalls`.
public protocol SMBusCalls {
    /// `th_smbus_read_byte_data`: the register's value, or -1.
    func readByteData(_ fd: CInt, _ register: UInt8) -> CInt
    /// `th_smbus_write_byte_data`: 0 or -1.
    func writeByteData(_ fd: CInt, _ register: UInt8, _ value: UInt8) -> CInt
    /// `th_smbus_read_i2c_block_data`: the byte count, or -1.
    func readI2CBlockData(_ fd: CInt, _ register: UInt8, _ length: UInt8, _ values: UnsafeMutablePointer<UInt8>) -> CInt
}

/// The real libi2c.
public struct LibI2CCalls: SMBusCalls, Sendable {
    public init() {}
    public func readByteData(_ fd: CInt, _ register: UInt8) -> CInt { th_smbus_read_byte_data(fd, register) }
    public func writeByteData(_ fd: CInt, _ register: UInt8, _ value: UInt8) -> CInt {
        th_smbus_write_byte_data(fd, register, value)
    }
    public func readI2CBlockData(
        _ fd: CInt, _ register: UInt8, _ length: UInt8, _ values: UnsafeMutablePointer<UInt8>
    ) -> CInt {
        th_smbus_read_i2c_block_data(fd, register, length, values)
    }
}

/// SMBus register access on an i2c-dev descriptor whose target address is already selected
/// (`I2C_SLAVE`), for `LinuxI2CBus.readRegisters` when the Hardware trait is on.
///
/// Each call is one `I2C_SMBUS` ioctl, which every adapter supports, including SMBus-only ones
/// that refuse `I2C_RDWR`. A block is at most 32 bytes (`I2C_SMBUS_BLOCK_MAX`): longer reads,
/// and every display frame, belong to `transfer`. Errors map as Documentation/i2c/fault-codes.rst
/// says (`I2CError(transferErrno:)`); EINTR is retried; EBADF/EFAULT trap as programming errors.
public struct SMBus<Calls: SMBusCalls> {
    /// The longest SMBus block: `I2C_SMBUS_BLOCK_MAX` in <linux/i2c.h>.
    public static var maximumBlockLength: Int { 32 }

    public let descriptor: FileDescriptor
    let calls: Calls

    public init(descriptor: FileDescriptor, calls: Calls) {
        self.descriptor = descriptor
        self.calls = calls
    }

    /// SMBus "read byte data": START, address+W, `register`, repeated START, address+R, value, STOP.
    public func readByte(register: UInt8) throws(I2CError) -> UInt8 {
        let fd = descriptor.rawValue
        return UInt8(truncatingIfNeeded: try smbusCall { calls.readByteData(fd, register) })
    }

    /// SMBus "write byte data": START, address+W, `register`, `value`, STOP.
    public func writeByte(register: UInt8, _ value: UInt8) throws(I2CError) {
        let fd = descriptor.rawValue
        _ = try smbusCall { calls.writeByteData(fd, register, value) }
    }

    /// SMBus "I2C block read": fills `buffer` (1...32 bytes) from `register` onwards, in one
    /// transaction with a repeated START, as `I2CBus.readRegisters` promises.
    ///
    /// Throws `.other` with EINVAL for an empty or too long buffer (not a bus condition: the
    /// caller should use `transfer`), and `.other` without errno if the adapter returned fewer
    /// bytes than asked (i2c-dev never does).
    public func readBlock(register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        guard let base = buffer.baseAddress, (1...Self.maximumBlockLength).contains(buffer.count) else {
            throw I2CError(.other, errno: .invalidArgument)
        }
        let fd = descriptor.rawValue
        let length = UInt8(buffer.count)
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let got = try smbusCall { calls.readI2CBlockData(fd, register, length, bytes) }
        guard Int(got) == buffer.count else { throw I2CError(.other) }
    }

    /// -1 becomes the errno's kind; EINTR is retried, EBADF/EFAULT trap (`systemCall`).
    private func smbusCall(_ call: () -> CInt) throws(I2CError) -> CInt {
        switch systemCall(call) {
        case .success(let value): return value
        case .failure(let error): throw I2CError(transferErrno: error)
        }
    }
}

extension SMBus where Calls == LibI2CCalls {
    /// SMBus access through the real libi2c on `descriptor`.
    public init(descriptor: FileDescriptor) {
        self.init(descriptor: descriptor, calls: LibI2CCalls())
    }
}
#endif

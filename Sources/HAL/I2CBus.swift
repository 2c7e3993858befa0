/// A controller on an I²C bus (the contract follows embedded-hal's `I2c` trait).
///
/// One required method performs one bus transaction: START, the write bytes (if any), a repeated
/// START and the read bytes (if any), STOP. On Linux that is one `I2C_RDWR` ioctl, or one
/// `write(2)` when nothing is read; on the simulated bus it is one entry of the transaction log.
/// Drivers are generic over the bus (`struct BME280<Bus: I2CBus>`), never `any I2CBus`.
public protocol I2CBus {
    /// Writes `write` to, then reads `read.count` bytes from, the 7-bit `address`.
    ///
    /// Either buffer may be empty, not both. Nothing is allocated.
    mutating func transfer(
        address: UInt8,
        write: UnsafeRawBufferPointer,
        read: UnsafeMutableRawBufferPointer
    ) throws(I2CError)

    /// Reads `into.count` consecutive registers starting at `register` (SMBus "read block").
    ///
    /// A fast path: the default is one `transfer`; the Linux bus with the Hardware trait uses
    /// libi2c's SMBus call for short reads, which every adapter supports.
    mutating func readRegisters(
        address: UInt8, register: UInt8, into: UnsafeMutableRawBufferPointer
    ) throws(I2CError)
}

extension I2CBus {
    public mutating func readRegisters(
        address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        var reg = register
        try withUnsafeBytes(of: &reg) { (bytes) throws(I2CError) in
            try transfer(address: address, write: bytes, read: buffer)
        }
    }

    /// Sends `bytes` in one write transaction (e.g. a display's control byte and data).
    public mutating func write(address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(I2CError) {
        try transfer(address: address, write: bytes, read: UnsafeMutableRawBufferPointer(start: nil, count: 0))
    }

    /// Sends `bytes` in one write transaction. For tests and set-up code; hot paths pass a
    /// buffer they own to `write(address:_:)` with a raw buffer.
    public mutating func write(address: UInt8, _ bytes: [UInt8]) throws(I2CError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(I2CError) in try write(address: address, raw) }
        }
        try result.get()
    }

    /// Reads one register.
    public mutating func readRegister(address: UInt8, _ register: UInt8) throws(I2CError) -> UInt8 {
        var value: UInt8 = 0
        try withUnsafeMutableBytes(of: &value) { (raw) throws(I2CError) in
            try readRegisters(address: address, register: register, into: raw)
        }
        return value
    }

    /// Writes one register: the register address, then its value, in one transaction.
    public mutating func writeRegister(address: UInt8, _ register: UInt8, _ value: UInt8) throws(I2CError) {
        var pair: (UInt8, UInt8) = (register, value)
        try withUnsafeBytes(of: &pair) { (raw) throws(I2CError) in
            try write(address: address, raw)
        }
    }
}

import HAL

/// A generic register-file I²C target: 256 byte registers behind a register pointer, the
/// pattern of most sensors and small peripherals (BME280/BMP280, RTCs, many EEPROM-like parts).
///
/// As the BME280 data sheet (BST-BME280-DS002, rev. 1.6) describes it:
/// - §6.2.1 I²C write: the first byte of a write transaction sets the pointer. The BME280
///   takes *pairs* of register address and data after it, without auto-increment
///   (`WriteMode.registerDataPairs`); many other parts write the following bytes to successive
///   registers (`WriteMode.autoIncrement`, the default).
/// - §6.2.2 I²C read: reads return the register at the pointer and auto-increment, until the
///   controller stops. The pointer is kept between transactions, so a read without a write
///   phase continues where the last one ended.
///
/// Read-only registers (an ID, measurement results, calibration) ignore writes, or refuse the
/// byte with a data NACK (`ReadOnlyWrites.noAcknowledge`). The pointer wraps from 0xFF to 0.
/// `subscript` is the device's own side: a sensor model puts its measurements there.
public final class RegisterFile: I2CDeviceModel {
    public enum WriteMode: Sendable, Equatable {
        /// `[pointer] [data] [data] …`: data to successive registers.
        case autoIncrement
        /// `[register] [data] [register] [data] …` (BME280 §6.2.1); a trailing register byte
        /// only sets the pointer.
        case registerDataPairs
    }

    public enum ReadOnlyWrites: Sendable, Equatable {
        case ignore
        case noAcknowledge
    }

    public let writeMode: WriteMode
    public let readOnlyWrites: ReadOnlyWrites
    public let readOnly: Set<UInt8>
    private let powerOn: [UInt8]
    public private(set) var registers: [UInt8]
    /// The register pointer; 0 at power-on.
    public private(set) var pointer: UInt8 = 0
    /// Called for each register written through the bus, after it changed (a sensor model
    /// reacts here: a soft-reset command, a measurement started by a control register).
    public var onRegisterWrite: ((_ register: UInt8, _ value: UInt8) -> Void)?

    /// `powerOn` gives the registers that are not 0 after power-on.
    public init(
        powerOn: [UInt8: UInt8] = [:], readOnly: Set<UInt8> = [], writeMode: WriteMode = .autoIncrement,
        readOnlyWrites: ReadOnlyWrites = .ignore
    ) {
        var content = [UInt8](repeating: 0, count: 256)
        for (register, value) in powerOn { content[Int(register)] = value }
        self.powerOn = content
        registers = content
        self.readOnly = readOnly
        self.writeMode = writeMode
        self.readOnlyWrites = readOnlyWrites
    }

    /// `[start: bytes[0], start+1: bytes[1], …]`, for `powerOn`.
    public static func block(at start: UInt8, _ bytes: [UInt8]) -> [UInt8: UInt8] {
        var result: [UInt8: UInt8] = [:]
        for (i, byte) in bytes.enumerated() { result[start &+ UInt8(truncatingIfNeeded: i)] = byte }
        return result
    }

    /// The device's side of a register: no read-only check, no pointer change.
    public subscript(register: UInt8) -> UInt8 {
        get { registers[Int(register)] }
        set { registers[Int(register)] = newValue }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(I2CError) {
        guard let first = bytes.first else { return }
        pointer = first
        switch writeMode {
        case .autoIncrement:
            for byte in bytes.dropFirst() {
                try store(byte, at: pointer)
                pointer &+= 1
            }
        case .registerDataPairs:
            var i = 1
            while i < bytes.count {
                try store(bytes[i], at: pointer)
                i += 1
                if i < bytes.count { pointer = bytes[i] }
                i += 1
            }
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        for i in buffer.indices {
            buffer[i] = registers[Int(pointer)]
            pointer &+= 1
        }
    }

    public func powerOnReset() {
        registers = powerOn
        pointer = 0
    }

    private func store(_ value: UInt8, at register: UInt8) throws(I2CError) {
        if readOnly.contains(register) {
            if readOnlyWrites == .noAcknowledge { throw I2CError(.noAcknowledge(.data)) }
            return
        }
        registers[Int(register)] = value
        onRegisterWrite?(register, value)
    }
}

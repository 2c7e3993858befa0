import HAL

/// Why a BME280 (or BMP280) read failed. Every case names the address; `description(bus:)`
/// is the one line a person reads: what failed, where, and what to do (docs/design/architecture.md#failures).
/// No payload allocates, so throwing on the measurement path allocates nothing.
public enum BME280Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing acknowledged the address: wiring, power, or the other address (SDO level).
    case noDevice(address: UInt8)
    /// Something answered, but its id (0xD0) is neither a BME280's nor a BMP280's.
    case wrongChip(id: UInt8, address: UInt8)
    /// The trimming data read back blank (all 0x00 / 0xFF), implausible, or different twice.
    case invalidCalibration(address: UInt8)
    /// The status register kept im_update or measuring set far past the data-sheet time.
    case stuck(address: UInt8)
    /// A result register held 0x80000 / 0x8000: skipped, or the part was reset meanwhile.
    case notMeasured(BME280Quantity, address: UInt8)
    /// Any other bus failure, with its kind.
    case bus(I2CError, address: UInt8)

    public var address: UInt8 {
        switch self {
        case .noDevice(let a), .wrongChip(_, let a), .invalidCalibration(let a), .stuck(let a),
            .notMeasured(_, let a), .bus(_, let a):
            a
        }
    }

    public var description: String { description(bus: nil) }

    /// The line with the bus path (e.g. "/dev/i2c-1") when the caller knows it.
    public func description(bus: String?) -> String {
        let at = "at \(Self.hex(address))" + (bus.map { " on \($0)" } ?? "")
        switch self {
        case .noDevice(let a):
            let other = a == BME280Address.primary.rawValue ? BME280Address.secondary : .primary
            return "no BME280 \(at): check wiring or try --address \(Self.hex(other.rawValue))"
        case .wrongChip(let id, _):
            return "the device \(at) has chip id \(Self.hex(id)), not a BME280 (0x60) or BMP280 (0x58): another part uses this address; check --address"
        case .invalidCalibration:
            return "the BME280 \(at) returned blank or unstable calibration data: check wiring and pull-ups, then retry"
        case .stuck:
            return "the BME280 \(at) stays busy (status 0xF3 never clears): power-cycle the sensor"
        case .notMeasured(let quantity, _):
            let raw = quantity == .humidity ? "0x8000" : "0x80000"
            return "the BME280 \(at) returned no \(quantity) measurement (raw \(raw): skipped or reset): retry; if it persists, power-cycle the sensor"
        case .bus(let error, _) where error.kind == .adapterGone:
            // The adapter, not the sensor: it is opened again, and the part reset, once it is back.
            let why = error.errno.map { " (\($0))" } ?? ""
            return "the I²C adapter\(bus.map { " " + $0 } ?? "") is gone\(why), BME280 at \(Self.hex(address)) not read: plug the adapter in; it is opened again when it appears"
        case .bus(let error, _) where error.kind == .other:
            // An adapter refusing the request (ENOTTY, EOPNOTSUPP…): not the wiring.
            return "I²C error with the BME280 \(at): \(error): check that the bus is an I²C adapter (ls /dev/i2c-*)"
        case .bus(let error, _):
            return "I²C error with the BME280 \(at): \(error): check wiring and pull-ups, then retry"
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}

/// The BME280 register map and the bit fields the driver writes, from the data sheet
/// (Bosch BST-BME280-DS002, rev. 1.6, §5.3 memory map, §5.4 register description).
///
/// The BMP280 (BST-BMP280-DS001) has the same map without `ctrl_hum` and the humidity
/// registers; its chip id is 0x58 (0x56/0x57 on engineering samples).
public enum BME280Register {
    /// §5.4.1 `id`: 0x60 on a BME280.
    public static let chipID: UInt8 = 0xD0
    /// §5.4.2 `reset`: writing 0xB6 performs a power-on reset; reads 0x00.
    public static let reset: UInt8 = 0xE0
    /// §5.4.3 `ctrl_hum`: osrs_h[2:0]; takes effect only after the next `ctrl_meas` write.
    public static let controlHumidity: UInt8 = 0xF2
    /// §5.4.4 `status`: bit 3 measuring, bit 0 im_update (NVM being copied).
    public static let status: UInt8 = 0xF3
    /// §5.4.5 `ctrl_meas`: osrs_t[7:5], osrs_p[4:2], mode[1:0].
    public static let controlMeasurement: UInt8 = 0xF4
    /// §5.4.6 `config`: t_sb[7:5], filter[4:2], spi3w_en[0]; writes in normal mode may be ignored.
    public static let config: UInt8 = 0xF5
    /// §5.4.7–§5.4.9: press_msb … hum_lsb, 0xF7–0xFE (burst-read in one transaction, §4).
    public static let data: UInt8 = 0xF7
    /// §4.2.2 Table 16: calib00…calib25 (dig_T1 … dig_H1).
    public static let calibrationBlock1: UInt8 = 0x88
    /// §4.2.2 Table 16: calib26…calib32 (dig_H2 … dig_H6).
    public static let calibrationBlock2: UInt8 = 0xE1

    /// The value written to `reset` for a soft reset (§5.4.2).
    public static let resetCommand: UInt8 = 0xB6
    /// `status` bit 3: a conversion is running; the data registers still hold the last result.
    public static let statusMeasuring: UInt8 = 0x08
    /// `status` bit 0: the NVM trimming data is being copied to the image registers.
    public static let statusUpdating: UInt8 = 0x01

    /// Bytes in each calibration block (0x88–0xA1, 0xE1–0xE7).
    public static let calibrationBlock1Count = 26
    public static let calibrationBlock2Count = 7
    /// 0xF3 status … 0xFE hum_lsb: what one read of a finished measurement takes.
    static let statusAndDataCount = 12
}

/// Which part answered at the address, by its chip id (§5.4.1; BMP280 DS001 §4.3.1).
public enum BME280Chip: Sendable, Equatable {
    /// 0x60: temperature, pressure and humidity.
    case bme280
    /// 0x56, 0x57 (samples) or 0x58 (mass production): temperature and pressure only.
    case bmp280(id: UInt8)

    /// The chip for an id, or nil when the id belongs to neither part.
    public init?(id: UInt8) {
        switch id {
        case 0x60: self = .bme280
        case 0x56, 0x57, 0x58: self = .bmp280(id: id)
        default: return nil
        }
    }

    public var hasHumidity: Bool { self == .bme280 }

    public var name: String { hasHumidity ? "BME280" : "BMP280" }
}

/// The two addresses the part answers at (§6.2): SDO to GND or SDO to VDDIO.
public enum BME280Address: UInt8, Sendable, CaseIterable {
    /// SDO tied to GND (most breakout boards).
    case primary = 0x76
    /// SDO tied to VDDIO.
    case secondary = 0x77

    /// The other address, for a hint when nothing answers at this one.
    public var other: BME280Address { self == .primary ? .secondary : .primary }
}

/// Oversampling codes of osrs_t, osrs_p and osrs_h (§5.4.3–§5.4.5, Tables 20, 22, 23).
public enum BME280Oversampling: UInt8, Sendable, CaseIterable {
    /// No conversion: the output register keeps 0x80000 (T, P) or 0x8000 (H).
    case skipped = 0
    case x1 = 1, x2 = 2, x4 = 3, x8 = 4, x16 = 5

    /// The number of samples (0 when skipped), the factor of §9.1's timing formula.
    public var samples: Int64 {
        self == .skipped ? 0 : Int64(1) << (rawValue - 1)
    }
}

/// How each measurement is taken. `.weatherMonitoring` is §3.5.1's recommendation: forced mode
/// once a minute, ×1 oversampling of everything, IIR filter off.
public struct BME280Settings: Sendable, Equatable {
    public var temperature: BME280Oversampling
    public var pressure: BME280Oversampling
    public var humidity: BME280Oversampling
    /// filter[2:0] of `config` (§5.4.6, Table 28); 0 = off.
    public var filterCode: UInt8

    public init(
        temperature: BME280Oversampling = .x1, pressure: BME280Oversampling = .x1,
        humidity: BME280Oversampling = .x1, filterCode: UInt8 = 0
    ) {
        precondition(filterCode <= 7, "filter is a 3-bit field")
        self.temperature = temperature
        self.pressure = pressure
        self.humidity = humidity
        self.filterCode = filterCode
    }

    public static let weatherMonitoring = BME280Settings()

    /// `ctrl_meas` with mode 01 (forced): one measurement, then back to sleep (§3.3.3).
    public var forcedControlMeasurement: UInt8 {
        (temperature.rawValue << 5) | (pressure.rawValue << 2) | 0b01
    }

    /// `ctrl_hum`: osrs_h in bits 2:0, the other bits reserved (0).
    public var controlHumidity: UInt8 { humidity.rawValue }

    /// `config` for forced mode: standby time unused (0), the filter, SPI 3-wire off.
    public var config: UInt8 { filterCode << 2 }

    /// §9.1 maximum measurement time: 1.25 ms + 2.3 ms·T + (2.3 ms·P + 0.575 ms) +
    /// (2.3 ms·H + 0.575 ms), a bracketed term only when that quantity is measured (9.3 ms at ×1).
    public func maximumMeasurementTime(humidity measuresHumidity: Bool = true) -> Duration {
        var micros: Int64 = 1250 + 2300 * temperature.samples
        if pressure != .skipped { micros += 2300 * pressure.samples + 575 }
        if measuresHumidity, humidity != .skipped { micros += 2300 * humidity.samples + 575 }
        return .microseconds(micros)
    }
}

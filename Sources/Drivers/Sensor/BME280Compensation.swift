/// The raw ADC outputs of one measurement, as the data registers 0xF7–0xFE hold them
/// (data sheet BST-BME280-DS002 rev. 1.6, §5.4.7–§5.4.9): pressure and temperature 20-bit
/// (`msb << 12 | lsb << 4 | xlsb >> 4`), humidity 16-bit.
public struct BME280RawSample: Sendable, Equatable {
    public var temperature: Int32
    public var pressure: Int32
    public var humidity: Int32

    /// 0x80000 / 0x8000: the reset value of the data registers and the output of a skipped
    /// measurement (§4, §5.4.7–§5.4.9). It compensates to a plausible 26.5 °C / 820 hPa / 83 %RH
    /// (corpus V11), so it is rejected by the raw value, never by a range check.
    public static let notMeasured20Bit: Int32 = 0x80000
    public static let notMeasured16Bit: Int32 = 0x8000

    public init(temperature: Int32, pressure: Int32, humidity: Int32) {
        self.temperature = temperature
        self.pressure = pressure
        self.humidity = humidity
    }

    /// Decodes the 8 bytes of 0xF7–0xFE (press_msb … hum_lsb).
    public init(dataRegisters r: UnsafeRawBufferPointer) {
        precondition(r.count >= 8, "0xF7–0xFE is 8 bytes")
        pressure = (Int32(r[0]) << 12) | (Int32(r[1]) << 4) | (Int32(r[2]) >> 4)
        temperature = (Int32(r[3]) << 12) | (Int32(r[4]) << 4) | (Int32(r[5]) >> 4)
        humidity = (Int32(r[6]) << 8) | Int32(r[7])
    }

    /// The first quantity that was not measured, or nil; humidity only counts when `humidity`.
    public func unmeasured(humidity checksHumidity: Bool) -> BME280Quantity? {
        if temperature == Self.notMeasured20Bit { return .temperature }
        if pressure == Self.notMeasured20Bit { return .pressure }
        if checksHumidity, humidity == Self.notMeasured16Bit { return .humidity }
        return nil
    }
}

public enum BME280Quantity: Sendable, Equatable {
    case temperature, pressure, humidity
}

/// The data-sheet integer results (§4.2.3), with a `Double` view (within the corpus tolerances
/// of the floating-point code of §8.1).
public struct BME280Reading: Sendable, Equatable {
    /// The fine temperature carried from the temperature into pressure and humidity.
    public var tFine: Int32
    /// Temperature in 0.01 °C (5123 = 51.23 °C).
    public var temperatureCentiCelsius: Int32
    /// Pressure in Pa as unsigned Q24.8 (24674867 = 96386.2 Pa), the 64-bit code.
    public var pressureQ24_8: UInt32
    /// Relative humidity in %RH as unsigned Q22.10 (47445 = 46.333 %RH); nil on a BMP280.
    public var humidityQ22_10: UInt32?

    public init(tFine: Int32, temperatureCentiCelsius: Int32, pressureQ24_8: UInt32, humidityQ22_10: UInt32?) {
        self.tFine = tFine
        self.temperatureCentiCelsius = temperatureCentiCelsius
        self.pressureQ24_8 = pressureQ24_8
        self.humidityQ22_10 = humidityQ22_10
    }

    public var temperatureCelsius: Double { Double(temperatureCentiCelsius) / 100 }
    public var pressurePascals: Double { Double(pressureQ24_8) / 256 }
    public var humidityPercent: Double? { humidityQ22_10.map { Double($0) / 1024 } }
}

/// The data sheet's integer compensation (§4.2.3), as pure functions of the trimming words
/// and the raw ADC values.
///
/// Transcribed from the formulas, not pasted: every intermediate is `Int64` and every shift is
/// parenthesised, because Swift's `<<`/`>>` bind tighter than `*` (the reverse of C, where the
/// code was written): `((1<<47)+var1)*dig_P1>>33` typed literally would shift dig_P1 by 33
/// and return 0. `>>` on signed integers is arithmetic in Swift, as the code expects.
extension BME280Calibration {
    /// §4.2.3 `BME280_compensate_T_int32`: temperature in 0.01 °C, and t_fine.
    public func compensateTemperature(_ adcT: Int32) -> (centiCelsius: Int32, tFine: Int32) {
        let adc = Int64(adcT)
        let t1 = Int64(digT1)
        let var1 = (((adc >> 3) - (t1 << 1)) * Int64(digT2)) >> 11
        let d = (adc >> 4) - t1
        let var2 = (((d * d) >> 12) * Int64(digT3)) >> 14
        let tFine = var1 + var2
        let centi = (tFine * 5 + 128) >> 8
        return (Int32(truncatingIfNeeded: centi), Int32(truncatingIfNeeded: tFine))
    }

    /// §4.2.3 `BME280_compensate_P_int64`: pressure in Pa as Q24.8; 0 when dig_P1 makes the
    /// divisor 0 (the data sheet's "avoid exception caused by division by zero").
    ///
    /// Wrapping operators: with a real part's words nothing here comes near 2⁶³, but a corrupt
    /// calibration must give a wrong number, not trap the daemon. They compute what the C code
    /// computes on a two's-complement machine.
    public func compensatePressure(_ adcP: Int32, tFine: Int32) -> UInt32 {
        var var1 = Int64(tFine) &- 128000
        var var2 = var1 &* var1 &* Int64(digP6)
        var2 = var2 &+ ((var1 &* Int64(digP5)) << 17)
        var2 = var2 &+ (Int64(digP4) << 35)
        var1 = ((var1 &* var1 &* Int64(digP3)) >> 8) &+ ((var1 &* Int64(digP2)) << 12)
        var1 = (((Int64(1) << 47) &+ var1) &* Int64(digP1)) >> 33
        if var1 == 0 { return 0 }
        var p = 1_048_576 - Int64(adcP)
        let (quotient, overflow) = (((p << 31) &- var2) &* 3125).dividedReportingOverflow(by: var1)
        if overflow { return 0 }
        p = quotient
        var1 = (Int64(digP9) &* (p >> 13) &* (p >> 13)) >> 25
        var2 = (Int64(digP8) &* p) >> 19
        p = ((p &+ var1 &+ var2) >> 8) &+ (Int64(digP7) << 4)
        return UInt32(truncatingIfNeeded: p)
    }

    /// §4.2.3 `bme280_compensate_H_int32`: relative humidity in %RH as Q22.10, clamped to
    /// 0…100 %RH by the code itself (0…419430400 before the final `>> 12`). Wrapping
    /// operators for the same reason as pressure: a corrupt calibration must not trap.
    public func compensateHumidity(_ adcH: Int32, tFine: Int32) -> UInt32 {
        var v = Int64(tFine) - 76800
        let h4 = Int64(digH4), h5 = Int64(digH5), h6 = Int64(digH6)
        let h1 = Int64(digH1), h2 = Int64(digH2), h3 = Int64(digH3)
        let left = (((Int64(adcH) << 14) &- (h4 << 20) &- (h5 &* v)) &+ 16384) >> 15
        let inner = (((v &* h6) >> 10) &* (((v &* h3) >> 11) &+ 32768)) >> 10
        let right = ((inner &+ 2_097_152) &* h2 &+ 8192) >> 14
        v = left &* right
        v = v &- (((((v >> 15) &* (v >> 15)) >> 7) &* h1) >> 4)
        v = min(max(v, 0), 419_430_400)
        return UInt32(truncatingIfNeeded: v >> 12)
    }

    /// All three, temperature first (its t_fine feeds the others); humidity only when asked.
    public func compensate(_ raw: BME280RawSample, humidity: Bool = true) -> BME280Reading {
        let (centi, tFine) = compensateTemperature(raw.temperature)
        return BME280Reading(
            tFine: tFine, temperatureCentiCelsius: centi,
            pressureQ24_8: compensatePressure(raw.pressure, tFine: tFine),
            humidityQ22_10: humidity ? compensateHumidity(raw.humidity, tFine: tFine) : nil)
    }
}

import HAL

/// The BME280 model's times, from the data sheet (BST-BME280-DS002 rev. 1.6).
extension BME280Model {
    /// §1.1 Table 1: start-up time after power-on or soft reset (the NVM copy), 2 ms.
    public static let startupTime: Duration = .milliseconds(2)

    /// §9.1 typical measurement time: 1 ms + 2 ms·T + (2 ms·P + 0.5 ms) + (2 ms·H + 0.5 ms), a
    /// bracketed term only when that quantity is measured; T, P, H are the sample counts of
    /// the oversampling codes (000 skipped, 001 ×1 … 101 and above ×16). 8.0 ms at ×1 ×1 ×1;
    /// 5.5 ms for a BMP280 at ×1 ×1 (BMP280 DS001 Table 13). A real part takes about this
    /// long; a driver waits for the maximum time (9.3 ms at ×1 ×1 ×1).
    public static func typicalMeasurementTime(osrsT: UInt8, osrsP: UInt8, osrsH: UInt8) -> Duration {
        var micros: Int64 = 1000 + 2000 * samples(osrsT)
        if osrsP != 0 { micros += 2000 * samples(osrsP) + 500 }
        if osrsH != 0 { micros += 2000 * samples(osrsH) + 500 }
        return .microseconds(micros)
    }

    /// Table 20/22/23: code → number of samples.
    static func samples(_ code: UInt8) -> Int64 {
        switch code & 0x07 {
        case 0: 0
        case 1: 1
        case 2: 2
        case 3: 4
        case 4: 8
        default: 16
        }
    }

    /// §5.4.6 Table 27: t_sb in normal mode. Codes 110/111 are 10/20 ms on a BME280 and
    /// 2/4 s on a BMP280 (BMP280 DS001 Table 11).
    static func standbyTime(code: UInt8, bme280: Bool) -> Duration {
        switch code & 0x07 {
        case 0: .microseconds(500)
        case 1: .microseconds(62_500)
        case 2: .milliseconds(125)
        case 3: .milliseconds(250)
        case 4: .milliseconds(500)
        case 5: .milliseconds(1000)
        case 6: bme280 ? .milliseconds(10) : .milliseconds(2000)
        default: bme280 ? .milliseconds(20) : .milliseconds(4000)
        }
    }
}

/// A ready-made part for `--simulate` and tests: the trimming words of the BMP280 data sheet's
/// worked example (BST-BMP280-DS001 §3.12; the BME280 shares the T/P words and formulas) with
/// typical humidity words, and the raw values of that example, as the corpus
/// (`sensors/bme280-vectors.json`, calibration set C1, vector V01) gives them. The data-sheet
/// integer code turns them into 25.08 °C, 100653.25 Pa and 68.69 %RH.
extension BME280Model {
    /// 0x88–0xA1 of calibration set C1.
    public static let datasheetExampleBlock1: [UInt8] = [
        0x70, 0x6B, 0x43, 0x67, 0x18, 0xFC, 0x7D, 0x8E, 0x43, 0xD6, 0xD0, 0x0B, 0x27,
        0x0B, 0x8C, 0x00, 0xF9, 0xFF, 0x8C, 0x3C, 0xF8, 0xC6, 0x70, 0x17, 0x00, 0x4B,
    ]
    /// 0xE1–0xE7 of calibration set C1.
    public static let datasheetExampleBlock2: [UInt8] = [0x78, 0x01, 0x00, 0x11, 0x2E, 0x03, 0x1E]

    /// adc_T 519888, adc_P 415148 (the BMP280 example), adc_H 30281.
    public static let datasheetExampleEnvironment = Environment(temperature: 519_888, pressure: 415_148, humidity: 30_281)

    /// A BME280 (or, with a BMP280 `chipID`, a BMP280) holding the example calibration.
    public static func datasheetExample(chipID: UInt8 = 0x60, clock: VirtualClock? = nil) -> BME280Model {
        BME280Model(
            chipID: chipID, calibrationBlock1: datasheetExampleBlock1,
            calibrationBlock2: chipID == 0x60 ? datasheetExampleBlock2 : [],
            environment: datasheetExampleEnvironment, clock: clock)
    }
}

import Drivers
import HAL
import HALSim
import Testing

/// The BME280 vectors of `../shared/corpus/sensors/bme280-vectors.json`: the data-sheet
/// integer results exactly, the floating results within the file's suggested tolerances,
/// through the pure functions and through the driver reading the data-sheet model.
@Suite(.enabled(if: BME280Corpus.isPresent, "needs ../shared/corpus/sensors/bme280-vectors.json beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here BME280 compensation vectors worked from the data sheet"))
struct BME280VectorCorpusTests {
    @Test("Corpus: every vector and calibration set in the file parses")
    func testBME280Corpus_AllVectorsParse() throws {
        let decoding = try BME280Corpus.decodingVectors(), compensation = try BME280Corpus.compensationVectors()
        #expect(decoding.count == (try BME280Corpus.listed("calibration_decoding_vectors")))
        #expect(compensation.count == (try BME280Corpus.listed("compensation_vectors")))
        #expect(decoding.count >= 2)
        #expect(compensation.count >= 11)
        #expect(try BME280Corpus.calibrationSets().count >= 3)
        let tolerances = try #require(try BME280Corpus.tolerances())
        #expect(tolerances.temperature > 0 && tolerances.pressure > 0 && tolerances.humidity > 0)
    }

    static func calibrationImages() throws -> [BME280Corpus.CalibrationImage] {
        try BME280Corpus.decodingVectors() + BME280Corpus.calibrationSets().values.sorted { $0.id < $1.id }
    }

    @Test("Corpus: every calibration image decodes to its 18 trimming words exactly", arguments: try calibrationImages())
    func testBME280Corpus_CalibrationDecoding(image: BME280Corpus.CalibrationImage) {
        #expect(image.block1.count == 26 && image.block2.count == 7)
        let c = BME280Calibration(block1: image.block1, block2: image.block2)
        let decoded: [String: Int] = [
            "dig_T1": Int(c.digT1), "dig_T2": Int(c.digT2), "dig_T3": Int(c.digT3),
            "dig_P1": Int(c.digP1), "dig_P2": Int(c.digP2), "dig_P3": Int(c.digP3), "dig_P4": Int(c.digP4),
            "dig_P5": Int(c.digP5), "dig_P6": Int(c.digP6), "dig_P7": Int(c.digP7), "dig_P8": Int(c.digP8),
            "dig_P9": Int(c.digP9), "dig_H1": Int(c.digH1), "dig_H2": Int(c.digH2), "dig_H3": Int(c.digH3),
            "dig_H4": Int(c.digH4), "dig_H5": Int(c.digH5), "dig_H6": Int(c.digH6),
        ]
        #expect(image.words.count == 18)
        for (name, expected) in image.words.sorted(by: { $0.key < $1.key }) {
            #expect(decoded[name] == expected, "\(image.id) \(name)")
        }
    }

    @Test("Corpus: the pure compensation gives the data-sheet integers exactly", arguments: try BME280Corpus.compensationVectors())
    func testBME280Corpus_PureCompensation(vector: BME280Corpus.Vector) {
        let c = BME280Calibration(block1: vector.calibration.block1, block2: vector.calibration.block2)
        // The data registers of the vector hold the same raw values.
        let raw = vector.dataRegisters.withUnsafeBytes { BME280RawSample(dataRegisters: $0) }
        #expect(raw == BME280RawSample(temperature: vector.adcT, pressure: vector.adcP, humidity: vector.adcH))
        let (centi, tFine) = c.compensateTemperature(vector.adcT)
        #expect(tFine == vector.tFine)
        #expect(centi == vector.temperatureCenti)
        #expect(c.compensatePressure(vector.adcP, tFine: tFine) == vector.pressureQ24_8)
        #expect(c.compensateHumidity(vector.adcH, tFine: tFine) == vector.humidityQ22_10)
        let reading = c.compensate(raw)
        #expect(reading.humidityQ22_10 == vector.humidityQ22_10)
        #expect(c.compensate(raw, humidity: false).humidityQ22_10 == nil)
    }

    @Test("Corpus: the Double view is within the suggested tolerances of the data-sheet double code", arguments: try BME280Corpus.compensationVectors())
    func testBME280Corpus_DoubleView(vector: BME280Corpus.Vector) throws {
        let tolerances = try #require(try BME280Corpus.tolerances())
        let c = BME280Calibration(block1: vector.calibration.block1, block2: vector.calibration.block2)
        let reading = c.compensate(BME280RawSample(temperature: vector.adcT, pressure: vector.adcP, humidity: vector.adcH))
        #expect(abs(reading.temperatureCelsius - vector.temperature) <= tolerances.temperature)
        #expect(abs(reading.pressurePascals - vector.pressure) <= tolerances.pressure)
        #expect(abs(try #require(reading.humidityPercent) - vector.humidity) <= tolerances.humidity)
    }

    @Test("Corpus: the driver reading the model on the simulated bus gives the same integers and doubles", arguments: try BME280Corpus.compensationVectors())
    func testBME280Corpus_DriverOverModel(vector: BME280Corpus.Vector) throws {
        let tolerances = try #require(try BME280Corpus.tolerances())
        var rig = BME280Rig(
            block1: vector.calibration.block1, block2: vector.calibration.block2,
            environment: .init(temperature: vector.adcT, pressure: vector.adcP, humidity: vector.adcH))
        let result = rig.measure()
        // The model latched exactly the vector's data registers.
        #expect((0..<8).map { rig.model[0xF7 + UInt8($0)] } == vector.dataRegisters)
        let sentinel = vector.adcT == 0x80000 || vector.adcP == 0x80000 || vector.adcH == 0x8000
        if sentinel {
            // V11: plausible-looking numbers from reset values; the driver must refuse them.
            #expect(throws: BME280Error.notMeasured(.temperature, address: 0x76)) { try result.get() }
            return
        }
        let m = try result.get()
        #expect(integers(m) == [Int64(vector.tFine), Int64(vector.temperatureCenti), Int64(vector.pressureQ24_8), Int64(vector.humidityQ22_10)])
        #expect(abs(m.temperatureCelsius - vector.temperature) <= tolerances.temperature)
        #expect(abs(m.pressurePascals - vector.pressure) <= tolerances.pressure)
        #expect(abs(try #require(m.humidityPercent) - vector.humidity) <= tolerances.humidity)
        #expect(m.raw == BME280RawSample(temperature: vector.adcT, pressure: vector.adcP, humidity: vector.adcH))
    }

    @Test("Corpus: a BMP280 with the vector's T/P words gives the same T and P and no humidity", arguments: try BME280Corpus.compensationVectors().prefix(3))
    func testBME280Corpus_BMP280OverModel(vector: BME280Corpus.Vector) throws {
        var rig = BME280Rig(
            chipID: 0x58, block1: vector.calibration.block1,
            environment: .init(temperature: vector.adcT, pressure: vector.adcP, humidity: vector.adcH))
        let m = try rig.measure().get()
        #expect(m.chip == .bmp280(id: 0x58))
        #expect(m.reading.temperatureCentiCelsius == vector.temperatureCenti)
        #expect(m.reading.pressureQ24_8 == vector.pressureQ24_8)
        #expect(m.humidityPercent == nil && m.reading.humidityQ22_10 == nil)
    }
}

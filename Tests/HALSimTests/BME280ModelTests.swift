import HAL
import HALSim
import Testing

/// The BME280 model against the data sheet (BST-BME280-DS002 rev. 1.6), through the bus, in
/// virtual time. No driver is involved: the tests write registers as the data sheet says.
@Suite("BME280 model")
struct BME280ModelTests {
    /// A model at 0x76 on a bus with a clock, 2 ms after power-on (the NVM copy done).
    struct Part {
        let clock = VirtualClock()
        let bus: SimulatedI2CBus
        let model: BME280Model

        init(chipID: UInt8 = 0x60, settle: Bool = true) {
            bus = SimulatedI2CBus(clock: clock)
            model = BME280Model.datasheetExample(chipID: chipID, clock: clock)
            bus.attach(model, at: 0x76)
            if settle { clock.advance(by: .milliseconds(2)) }
        }

        func write(_ bytes: [UInt8]) throws {
            var bus = bus  // a class: the copy is the same bus
            try bus.write(address: 0x76, bytes)
        }

        func read(_ register: UInt8, _ count: Int = 1) throws -> [UInt8] {
            var out = [UInt8](repeating: 0, count: count)
            var bus = bus
            try out.withUnsafeMutableBytes { try bus.readRegisters(address: 0x76, register: register, into: $0) }
            return out
        }

        func status() throws -> UInt8 { try read(0xF3)[0] }
        func data() throws -> [UInt8] { try read(0xF7, 8) }
    }

    static let resetData: [UInt8] = [0x80, 0x00, 0x00, 0x80, 0x00, 0x00, 0x80, 0x00]
    /// V01 of the corpus: adc_T 519888, adc_P 415148, adc_H 30281 in 0xF7–0xFE.
    static let exampleData: [UInt8] = [0x65, 0x5A, 0xC0, 0x7E, 0xED, 0x00, 0x76, 0x49]

    @Test("power-on: id 0x60, data at 0x80000/0x8000, im_update for 2 ms with blank trimming registers")
    func testBME280Model_PowerOn() throws {
        let part = Part(settle: false)
        #expect(try part.read(0xD0) == [0x60])
        #expect(try part.data() == Self.resetData)
        #expect(try part.status() == 0x01)
        #expect(try part.read(0x88, 26) == [UInt8](repeating: 0, count: 26))
        part.clock.advance(by: .microseconds(1999))
        #expect(try part.status() == 0x01)
        part.clock.advance(by: .microseconds(1))
        #expect(try part.status() == 0x00)
        #expect(try part.read(0x88, 26) == BME280Model.datasheetExampleBlock1)
        #expect(try part.read(0xE1, 7) == BME280Model.datasheetExampleBlock2)
    }

    @Test("reset: 0xB6 to 0xE0 restores the defaults and copies the NVM again; other values do nothing")
    func testBME280Model_SoftReset() throws {
        let part = Part()
        try part.write([0xF5, 0xA0, 0xF2, 0x01, 0xF4, 0x25])
        part.clock.advance(by: .milliseconds(10))
        #expect(try part.data() == Self.exampleData)
        try part.write([0xE0, 0x42])
        #expect(try part.read(0xE0) == [0x00] && part.model.softResetCount == 0)
        #expect(try part.read(0xF5) == [0xA0])
        try part.write([0xE0, 0xB6])
        #expect(part.model.softResetCount == 1)
        #expect(try part.read(0xE0) == [0x00])
        #expect(try part.read(0xF2, 4) == [0x00, 0x01, 0x00, 0x00])  // ctrl_hum, status (im_update), ctrl_meas, config
        #expect(try part.data() == Self.resetData)
        #expect(try part.read(0xE1, 7) == [UInt8](repeating: 0, count: 7))
        part.clock.advance(by: .milliseconds(2))
        #expect(try part.status() == 0x00)
        #expect(try part.read(0xE1, 7) == BME280Model.datasheetExampleBlock2)
    }

    @Test("ctrl_hum takes effect only at the next ctrl_meas write")
    func testBME280Model_ControlHumidity_LatchedByControlMeasurement() throws {
        let part = Part()
        try part.write([0xF4, 0x25])  // ctrl_hum still 0: humidity skipped
        part.clock.advance(by: .milliseconds(10))
        #expect(try part.data() == Array(Self.exampleData.prefix(6)) + [0x80, 0x00])
        try part.write([0xF2, 0x01])
        #expect(try part.read(0xF2) == [0x01])
        #expect(part.model.effectiveHumidityOversampling == 0)
        try part.write([0xF4, 0x25])
        #expect(part.model.effectiveHumidityOversampling == 1)
        part.clock.advance(by: .milliseconds(10))
        #expect(try part.data() == Self.exampleData)
    }

    @Test("forced ×1×1×1: measuring for the typical 8.0 ms, then results latched and back to sleep")
    func testBME280Model_Forced_MeasuringTimeThenSleep() throws {
        let part = Part()
        try part.write([0xF2, 0x01, 0xF4, 0x25])
        #expect(part.model.currentMode == .forced)
        #expect(try part.read(0xF4) == [0x25])
        #expect(try part.status() == 0x08)
        part.clock.advance(by: .microseconds(7999))
        #expect(try part.status() == 0x08)
        #expect(try part.data() == Self.resetData)  // shadowed: still the previous result
        part.clock.advance(by: .microseconds(1))
        #expect(try part.status() == 0x00)
        #expect(try part.data() == Self.exampleData)
        #expect(part.model.currentMode == .sleep)
        #expect(try part.read(0xF4) == [0x24])  // mode bits 00
        #expect(part.model.conversionCount == 1)
    }

    @Test("§9.1 typical times: 8.0 ms at ×1, 98 ms at ×16, 1 ms with everything skipped")
    func testBME280Model_TypicalTimes() {
        #expect(BME280Model.typicalMeasurementTime(osrsT: 1, osrsP: 1, osrsH: 1) == .milliseconds(8))
        #expect(BME280Model.typicalMeasurementTime(osrsT: 5, osrsP: 5, osrsH: 5) == .milliseconds(98))
        #expect(BME280Model.typicalMeasurementTime(osrsT: 1, osrsP: 3, osrsH: 0) == .microseconds(11_500))  // DS example
        #expect(BME280Model.typicalMeasurementTime(osrsT: 0, osrsP: 0, osrsH: 0) == .milliseconds(1))
    }

    @Test("skipped oversampling leaves 0x80000 / 0x8000 in the result registers")
    func testBME280Model_Skipped_Outputs() throws {
        let part = Part()
        try part.write([0xF2, 0x00, 0xF4, 0b000_000_01])  // T, P, H skipped, forced
        part.clock.advance(by: .milliseconds(1))
        #expect(try part.status() == 0x00 && part.model.conversionCount == 1)
        #expect(try part.data() == Self.resetData)
        try part.write([0xF2, 0x01, 0xF4, 0b001_000_01])  // only P skipped
        part.clock.advance(by: .milliseconds(10))
        #expect(try part.data() == [0x80, 0x00, 0x00, 0x7E, 0xED, 0x00, 0x76, 0x49])
    }

    @Test("a conversion's inputs are sampled at its end; reads during it see the previous result")
    func testBME280Model_Shadowing() throws {
        let part = Part()
        try part.write([0xF2, 0x01, 0xF4, 0x25])
        part.clock.advance(by: .milliseconds(8))
        part.model.environment = .init(temperature: 503_664, pressure: 414_396, humidity: 0)
        try part.write([0xF4, 0x25])
        part.clock.advance(by: .milliseconds(4))
        #expect(try part.read(0xF3, 12).suffix(8) == Self.exampleData[...])
        part.clock.advance(by: .milliseconds(4))
        #expect(try part.data() == [0x65, 0x2B, 0xC0, 0x7A, 0xF7, 0x00, 0x00, 0x00])
    }

    @Test("ctrl_meas during a conversion waits for its end; ctrl_hum meanwhile is ignored")
    func testBME280Model_ModeChangeDuringConversion_Delayed() throws {
        let part = Part()
        try part.write([0xF2, 0x01, 0xF4, 0x25])
        part.clock.advance(by: .milliseconds(2))
        try part.write([0xF2, 0x00, 0xF4, 0x25])
        #expect(try part.read(0xF2) == [0x01])
        part.clock.advance(by: .milliseconds(6))  // the first ends, the delayed one starts
        #expect(part.model.conversionCount == 1)
        #expect(try part.status() == 0x08)
        part.clock.advance(by: .milliseconds(8))
        #expect(part.model.conversionCount == 2 && part.model.currentMode == .sleep)
        #expect(try part.data() == Self.exampleData)  // humidity still ×1
    }

    @Test("normal mode repeats conversions every t_measure + t_sb; config writes are ignored meanwhile")
    func testBME280Model_NormalMode() throws {
        let part = Part()
        try part.write([0xF5, 0xC0, 0xF2, 0x01, 0xF4, 0x27])  // t_sb 110 = 10 ms, normal
        #expect(part.model.currentMode == .normal)
        part.clock.advance(by: .milliseconds(8 + 10 + 8 + 10 + 8))
        #expect(part.model.conversionCount == 3)
        try part.write([0xF5, 0x00])
        #expect(try part.read(0xF5) == [0xC0])
        try part.write([0xF4, 0x24])  // in standby: sleep at once
        #expect(part.model.currentMode == .sleep)
        try part.write([0xF5, 0x00])
        #expect(try part.read(0xF5) == [0x00])
    }

    @Test("a BMP280 (0x58): no ctrl_hum, no humidity, 5.5 ms at ×1×1")
    func testBME280Model_BMP280() throws {
        let part = Part(chipID: 0x58)
        #expect(try part.read(0xD0) == [0x58])
        try part.write([0xF2, 0x01, 0xF4, 0x25])
        #expect(try part.read(0xF2) == [0x00])
        part.clock.advance(by: .microseconds(5499))
        #expect(try part.status() == 0x08)
        part.clock.advance(by: .microseconds(1))
        #expect(try part.data() == Array(Self.exampleData.prefix(6)) + [0x80, 0x00])
    }

    @Test("read-only registers ignore writes; reads auto-increment across registers")
    func testBME280Model_ReadOnlyAndAutoIncrement() throws {
        let part = Part()
        try part.write([0xD0, 0x00, 0x88, 0x00, 0xF7, 0x00, 0xF3, 0xFF])
        #expect(try part.read(0xD0) == [0x60])
        #expect(try part.read(0x88, 2) == [0x70, 0x6B])
        #expect(try part.data() == Self.resetData && part.model.isMeasuring == false)
    }

    @Test("without a clock a conversion completes by the next access; reattaching is a power-on reset")
    func testBME280Model_NoClock_AndReattach() throws {
        var bus = SimulatedI2CBus()
        let model = BME280Model.datasheetExample()
        bus.attach(model, at: 0x77)
        try bus.write(address: 0x77, [0xF2, 0x01, 0xF4, 0x25])
        var data = [UInt8](repeating: 0, count: 8)
        try data.withUnsafeMutableBytes { try bus.readRegisters(address: 0x77, register: 0xF7, into: $0) }
        #expect(data == Self.exampleData)
        bus.detach(0x77)
        bus.reattach(0x77)
        #expect(model[0xF7] == 0x80 && model[0xF2] == 0x00)
    }
}

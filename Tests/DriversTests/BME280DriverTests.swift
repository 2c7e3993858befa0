import AllocationCounting
import Drivers
import HAL
import HALSim
import Testing

/// The BME280 driver against the data-sheet model on a simulated bus (virtual time).
@Suite("BME280 driver")
struct BME280DriverTests {
    @Test("the first cycle is id, reset, 2 ms, status, calibration twice, configure+trigger, 9.3 ms, one read of 0xF3–0xFE")
    func testBME280_FirstCycle_Wire() throws {
        var rig = BME280Rig()
        let m = try rig.measure().get()
        #expect(rig.wire == [
            "76: D0", "76: read 1",
            "76: E0 B6",
            "76: F3", "76: read 1",
            "76: 88", "76: read 26", "76: E1", "76: read 7",
            "76: 88", "76: read 26", "76: E1", "76: read 7",
            "76: F5 00 F2 01 F4 25",
            "76: F3", "76: read 12",
        ])
        // 2 ms start-up, then the §9.1 maximum of 9.3 ms: the read comes at 11.3 ms.
        #expect(rig.clock.now() == Instant(nanoseconds: 11_300_000))
        #expect(m.chip == .bme280)
        #expect(m.reading.temperatureCentiCelsius == 2508)
        // A second cycle needs no start: trigger, then one read.
        rig.bus.log.removeAll()
        _ = try rig.measure().get()
        #expect(rig.wire == ["76: F5 00 F2 01 F4 25", "76: F3", "76: read 12"])
        #expect(rig.model.conversionCount == 2)
    }

    @Test("weather-monitoring settings: ctrl_meas 0x25, ctrl_hum 0x01, config 0x00, 9.3 ms maximum")
    func testBME280_Settings_Encoding() {
        let s = BME280Settings.weatherMonitoring
        #expect(s.forcedControlMeasurement == 0x25 && s.controlHumidity == 0x01 && s.config == 0x00)
        #expect(s.maximumMeasurementTime() == .microseconds(9300))
        #expect(s.maximumMeasurementTime(humidity: false) == .microseconds(6425))
        #expect(BME280Settings(temperature: .x16, pressure: .x16, humidity: .x16).maximumMeasurementTime() == .microseconds(112_800))
    }

    @Test("H4/H5 share 0xE5: sign extension of 0xE4/0xE6 and the two nibbles")
    func testBME280_Calibration_H4H5Nibbles() {
        // (E4, E5, E6) → (H4, H5)
        let table: [(UInt8, UInt8, UInt8, Int16, Int16)] = [
            (0x13, 0x2D, 0xFD, 317, -46), (0x11, 0x2E, 0x03, 286, 50), (0x80, 0xF7, 0x80, -2041, -2033),
            (0x7F, 0xFF, 0x7F, 2047, 2047), (0xFF, 0x00, 0xFF, -16, -16), (0x00, 0x00, 0x00, 0, 0),
        ]
        for (e4, e5, e6, h4, h5) in table {
            let c = BME280Calibration(block1: BME280Model.datasheetExampleBlock1, block2: [0, 0, 0, e4, e5, e6, 0])
            #expect(c.digH4 == h4 && c.digH5 == h5, "E4 \(hex(e4)) E5 \(hex(e5)) E6 \(hex(e6))")
        }
    }

    @Test("chip id 0x58 (BMP280): temperature and pressure, no humidity, no ctrl_hum write")
    func testBME280_BMP280_NoHumidity() throws {
        var rig = BME280Rig(chipID: 0x58)
        let m = try rig.measure().get()
        #expect(m.chip == .bmp280(id: 0x58) && m.chip.name == "BMP280")
        #expect(m.humidityPercent == nil)
        #expect(m.reading.temperatureCentiCelsius == 2508 && m.reading.pressureQ24_8 == 25_767_233)
        #expect(rig.wire.contains("76: F5 00 F4 25"))
        #expect(!rig.wire.contains("76: E1"))
    }

    @Test("chip ids 0x00, 0xFF and 0x61 are refused with the id in the message", arguments: [UInt8(0x00), 0xFF, 0x61])
    func testBME280_WrongChip_Fails(id: UInt8) {
        var rig = BME280Rig(chipID: id)
        #expect(throws: BME280Error.wrongChip(id: id, address: 0x76)) { try rig.measure().get() }
        let text = BME280Error.wrongChip(id: id, address: 0x76).description(bus: "/dev/i2c-1")
        #expect(text.contains("chip id 0x\(hex(id))") && text.contains("at 0x76 on /dev/i2c-1"))
    }

    @Test("no device: the error says where and what to try")
    func testBME280_NoDevice_Fails() {
        var rig = BME280Rig()
        rig.bus.detach(0x76)
        #expect(throws: BME280Error.noDevice(address: 0x76)) { try rig.measure().get() }
        #expect(BME280Error.noDevice(address: 0x76).description(bus: "/dev/i2c-1")
            == "no BME280 at 0x76 on /dev/i2c-1: check wiring or try --address 0x77")
        #expect(BME280Error.noDevice(address: 0x77).description(bus: "/dev/i2c-1")
            == "no BME280 at 0x77 on /dev/i2c-1: check wiring or try --address 0x76")
        // The Pi's adapter reports every NACK as EREMOTEIO, source unknown: still "no device".
        rig.bus.reportsNoAcknowledgeSource = false
        #expect(throws: BME280Error.noDevice(address: 0x76)) { try rig.measure().get() }
    }

    @Test("the part at 0x77 answers there and nowhere else")
    func testBME280_SecondaryAddress() throws {
        var rig = BME280Rig(address: .secondary)
        #expect(try rig.measure().get().reading.tFine == 128_422)
        #expect(rig.wire.allSatisfy { $0.hasPrefix("77: ") })
    }

    @Test("raw 0x80000 / 0x8000 are rejected as not measured, whichever quantity", arguments: [
        (BME280Model.Environment(temperature: 0x80000, pressure: 415_148, humidity: 30_281), BME280Quantity.temperature),
        (BME280Model.Environment(temperature: 519_888, pressure: 0x80000, humidity: 30_281), .pressure),
        (BME280Model.Environment(temperature: 519_888, pressure: 415_148, humidity: 0x8000), .humidity),
    ])
    func testBME280_Sentinel_Fails(environment: BME280Model.Environment, quantity: BME280Quantity) {
        var rig = BME280Rig(environment: environment)
        #expect(throws: BME280Error.notMeasured(quantity, address: 0x76)) { try rig.measure().get() }
        // After the error the driver starts over; with a real value it recovers.
        rig.model.environment = BME280Model.datasheetExampleEnvironment
        #expect((try? rig.measure().get())?.reading.temperatureCentiCelsius == 2508)
    }

    @Test("a BMP280 ignores humidity registers, so 0x8000 there is no error")
    func testBME280_BMP280_HumiditySentinelIgnored() throws {
        var rig = BME280Rig(chipID: 0x58)
        #expect(rig.model[0xFD] == 0x80 && rig.model[0xFE] == 0x00)
        #expect(try rig.measure().get().humidityPercent == nil)
    }

    @Test("a sensor reset meanwhile (data back to 0x80000) is caught, not reported as 26.5 °C")
    func testBME280_ResetBetweenCycles_NotMeasured() throws {
        var rig = BME280Rig()
        _ = try rig.measure().get()
        // The part browns out between trigger and read: reset values, sleep mode.
        guard case .busy(let until) = try rig.sensor.measure(now: rig.clock.now()) else { Issue.record("expected busy"); return }
        rig.model.powerOnReset()
        rig.clock.advance(to: until)
        #expect(throws: BME280Error.notMeasured(.temperature, address: 0x76)) { try rig.sensor.measure(now: rig.clock.now()) }
    }
}

import AllocationCounting
import Drivers
import HAL
import HALSim
import Testing

/// The BME280 driver's waiting, failures, user offset and allocations.
@Suite("BME280 driver: busy, faults, offset, allocation")
struct BME280DriverTimingTests {
    /// A started rig whose last result came from the example environment.
    static func started() throws -> BME280Rig {
        var rig = BME280Rig()
        _ = try rig.measure().get()
        return rig
    }

    @Test("reading before the measurement completes says busy, never returns the previous result")
    func testBME280_StatusBusy_Respected() throws {
        var rig = try Self.started()
        rig.model.environment = .init(temperature: 503_664, pressure: 414_396, humidity: 30_281)  // 20.00 °C
        let t0 = rig.clock.now()
        let readyAt = try rig.sensor.startMeasurement(now: t0)
        #expect(readyAt == t0 + .microseconds(9300))
        // Before readyAt the driver does not even ask.
        let before = rig.bus.transactionCount
        #expect(try rig.sensor.readMeasurement(now: t0 + .milliseconds(1)) == .busy(until: readyAt))
        #expect(rig.bus.transactionCount == before)
        // The caller's clock says readyAt, the part is still converting (status.measuring):
        // busy again, one poll interval later; the stale 25.08 °C is not returned.
        rig.clock.advance(by: .milliseconds(4))
        #expect(rig.model.isMeasuring)
        #expect(try rig.sensor.readMeasurement(now: readyAt) == .busy(until: readyAt + .milliseconds(1)))
        rig.clock.advance(to: readyAt + .milliseconds(1))
        guard case .done(let m) = try rig.sensor.readMeasurement(now: rig.clock.now()) else {
            Issue.record("expected the new result")
            return
        }
        #expect(m.reading.temperatureCentiCelsius == 2000)
    }

    @Test("a status that never clears ends in .stuck, and the driver starts over")
    func testBME280_StatusStuck_Fails() throws {
        var rig = try Self.started()
        let t0 = rig.clock.now()
        let readyAt = try rig.sensor.startMeasurement(now: t0)
        // The caller's time runs far ahead of the part's (the model's clock stays at t0).
        #expect(throws: BME280Error.stuck(address: 0x76)) {
            try rig.sensor.readMeasurement(now: readyAt + BME280<SimulatedI2CBus>.patience)
        }
        #expect(!rig.sensor.isStarted)
    }

    @Test("an I²C fault mid-read is an error; the next cycle starts over and recovers")
    func testBME280_FaultMidRead_Recovers() throws {
        var rig = try Self.started()
        guard case .busy(let until) = try rig.sensor.measure(now: rig.clock.now()) else {
            Issue.record("expected busy")
            return
        }
        rig.clock.advance(to: until)
        rig.bus.injectFault(.bus, at: 0x76, count: 1)
        #expect(throws: BME280Error.bus(I2CError(.bus), address: 0x76)) { try rig.sensor.measure(now: rig.clock.now()) }
        #expect(!rig.sensor.isStarted && rig.sensor.calibration == nil)
        rig.bus.log.removeAll()
        let m = try rig.measure().get()
        #expect(m.reading.tFine == 128_422 && m.reading.humidityQ22_10 == 70_339)
        #expect(rig.wire.first == "76: D0")  // identified again
        #expect(BME280Error.bus(I2CError(.bus), address: 0x76).description(bus: "/dev/i2c-1")
            == "I²C error with the BME280 at 0x76 on /dev/i2c-1: bus error: check wiring and pull-ups, then retry")
    }

    @Test("a fault during calibration, and a calibration that differs between two reads, fail cleanly")
    func testBME280_CalibrationFaults_Fail() throws {
        var rig = BME280Rig()
        guard case .busy(let until) = try rig.sensor.start(now: rig.clock.now()) else { Issue.record("busy"); return }
        rig.clock.advance(to: until)
        rig.bus.injectFault(.timeout, at: 0x76, count: 1)
        #expect(throws: BME280Error.bus(I2CError(.timeout), address: 0x76)) { try rig.sensor.start(now: rig.clock.now()) }
        #expect(throws: Never.self) { try rig.measure().get() }
        // Blank trimming data (a part that answers with zeros) is refused.
        var blank = BME280Rig(block1: [UInt8](repeating: 0, count: 26), block2: [UInt8](repeating: 0, count: 7))
        #expect(throws: BME280Error.invalidCalibration(address: 0x76)) { try blank.measure().get() }
    }

    @Test("the user offset: +0 is the identity; −3 °C lowers T by 3 and raises RH at the same vapour pressure")
    func testBME280_Offset_RecomputesHumidity() throws {
        var plain = BME280Rig()
        let m0 = try plain.measure().get()
        #expect(m0.temperatureCelsius == 25.08)
        #expect(m0.humidityPercent == Double(70_339) / 1024)
        var offset = BME280Rig(offset: -3)
        let m = try offset.measure().get()
        #expect(m.reading == m0.reading)  // the sensor's own result is untouched
        #expect(abs(m.temperatureCelsius - 22.08) < 1e-9)
        // By hand: e_w(25.08) = 6.112·exp(17.62·25.08/268.20) = 31.7515 hPa,
        // e_w(22.08) = 6.112·exp(17.62·22.08/265.20) = 26.5030 hPa; 68.6904 · 31.7515/26.5025 = 82.29.
        #expect(abs(try #require(m.humidityPercent) - 82.2935) < 0.001)
        #expect(m.pressurePascals == m0.pressurePascals)
    }

    @Test("Magnus over water: e_w(20 °C) = 23.33 hPa; 50 %RH at 25 °C is 59.91 %RH at 22 °C; clamped at 100")
    func testBME280_Magnus_HandValues() {
        // 6.112·exp(17.62·20/263.12) = 23.326 hPa (steam tables: 23.39; the fit is within 0.3 %).
        #expect(abs(TemperatureOffset.saturationVapourPressure(celsius: 20) - 23.326) < 0.001)
        #expect(abs(TemperatureOffset.saturationVapourPressure(celsius: 0) - 6.112) < 1e-12)
        // e_w(25) = 31.6006 hPa, e_w(22) = 26.3742 hPa: 50 · 31.6006 / 26.3742 = 59.9082.
        #expect(abs(TemperatureOffset.relativeHumidity(50, measuredAt: 25, correctedTo: 22) - 59.9082) < 0.0001)
        #expect(TemperatureOffset.relativeHumidity(50, measuredAt: 25, correctedTo: 25) == 50)
        #expect(TemperatureOffset.relativeHumidity(90, measuredAt: 30, correctedTo: 20) == 100)
        #expect(TemperatureOffset.relativeHumidity(50, measuredAt: 20, correctedTo: 25) < 50)
    }

    @Test("the measurement path allocates nothing: trigger, busy, read, compensate, offset")
    func testBME280_MeasurementPath_AllocatesNothing() throws {
        var rig = try Self.started()
        rig.bus.isLogging = false
        rig.sensor.temperatureOffset = -2.5
        let clock = rig.clock
        var sensor = rig.sensor
        let count = countAllocations {
            for _ in 0..<10 {
                var result = try? sensor.measure(now: clock.now())
                while case .busy(let until)? = result {
                    clock.advance(to: until)
                    result = try? sensor.measure(now: clock.now())
                }
                keepAlive(result)
            }
        }
        if case .unavailable(let reason) = count { Issue.record("cannot count allocations: \(reason)") }
        #expect(count == .counted(0))
    }
}

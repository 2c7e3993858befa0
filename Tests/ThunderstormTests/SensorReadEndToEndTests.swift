import Foundation
import Testing

/// `thunderstorm sensor read` run as a maker runs it: the built executable, its exit status
/// and both output streams. `--simulate` reads the data-sheet model (calibration C1, raw values
/// V01 of the BME280 corpus), so the numbers are the data-sheet integer results.
@Suite("sensor read end to end")
struct SensorReadEndToEndTests {
    typealias E2E = BoardCheckEndToEndTests

    @Test("--simulate --json prints one object with the data-sheet results")
    func testSensorRead_SimulateJSON() throws {
        let result = try E2E.run(["sensor", "read", "--simulate", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"chip":"BME280","address":"0x76","temperature_c":25.08,"humidity_pct":68.69,"pressure_hpa":1006.53}"# + "\n")
        #expect(result.stderr.isEmpty)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["temperature_c"] as? Double == 25.08)
    }

    @Test("--simulate prints the indoor line; --offset -3 lowers T and raises RH")
    func testSensorRead_SimulateText() throws {
        let plain = try E2E.run(["sensor", "read", "--simulate"])
        #expect(plain.status == 0)
        #expect(plain.stdout == "indoor 25.08 °C  68.7 %RH  1006.5 hPa (BME280 at 0x76 on the simulated bus)\n")
        let offset = try E2E.run(["sensor", "read", "--simulate", "--offset", "-3", "--address", "0x77"])
        #expect(offset.status == 0, "\(offset.stderr)")
        #expect(offset.stdout == "indoor 22.08 °C  82.3 %RH  1006.5 hPa (BME280 at 0x77 on the simulated bus)\n")
    }

    @Test("a simulated BMP280 has no humidity: null in JSON, no field in the line")
    func testSensorRead_SimulatedBMP280() throws {
        let json = try E2E.run(["sensor", "read", "--simulate", "--simulated-chip-id", "0x58", "--json"])
        #expect(json.stdout == #"{"chip":"BMP280","address":"0x76","temperature_c":25.08,"humidity_pct":null,"pressure_hpa":1006.53}"# + "\n")
        let text = try E2E.run(["sensor", "read", "--simulate", "--simulated-chip-id", "0x58"])
        #expect(text.stdout == "indoor 25.08 °C  1006.5 hPa (BMP280 at 0x76 on the simulated bus)\n")
    }

    @Test("an address other than 0x76/0x77 exits 64 with one line")
    func testSensorRead_BadAddress_Fails() throws {
        let result = try E2E.run(["sensor", "read", "--simulate", "--address", "0x42"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "sensor read: --address 0x42 is not a BME280 address; use 0x76 (SDO to GND) or 0x77 (SDO to 3.3 V)\n")
    }

    @Test("a bad offset exits 64; a wrong chip id exits 69; a missing bus exits 69")
    func testSensorRead_Failures() throws {
        let offset = try E2E.run(["sensor", "read", "--simulate", "--offset", "warm"])
        #expect(offset.status == 64 && offset.stderr.hasPrefix("sensor read: --offset warm"))
        let chip = try E2E.run(["sensor", "read", "--simulate", "--simulated-chip-id", "0x00"])
        #expect(chip.status == 69)
        #expect(chip.stderr.hasPrefix("sensor read: the device at 0x76 on the simulated bus has chip id 0x00"))
        let bus = try E2E.run(["sensor", "read", "--bus", "/nonexistent/i2c-9"])
        #expect(bus.status == 69)
        #expect(bus.stderr.hasPrefix("sensor read: cannot open /nonexistent/i2c-9: No such file or directory; enable I²C"))
        #expect(bus.stderr.split(separator: "\n").count == 1)
    }
}

import ArgumentParser
import Drivers
import Glibc
import HAL
import HALLinux
import HALSim
import SystemPackage

/// `thunderstorm sensor read`: one forced measurement of the indoor BME280/BMP280, through the
/// same driver the device uses. The driver never sleeps; this command, which has no event
/// loop, sleeps until each `.busy(until:)` instant (with `--simulate` it advances a virtual
/// clock instead).
struct SensorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sensor",
        abstract: "Read the indoor sensor (BME280, or BMP280 without humidity).",
        subcommands: [Read.self]
    )

    struct Read: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take one measurement and print it.",
            discussion: """
                Prints, for example:

                indoor 21.43 °C  45.2 %RH  1013.2 hPa (BME280 at 0x76 on /dev/i2c-1)

                or with --json one object: {"chip":"BME280","address":"0x76","temperature_c":21.43,"humidity_pct":45.20,"pressure_hpa":1013.20} (humidity_pct is null on a BMP280).

                --offset corrects a sensor the board warms (e.g. --offset -2.5); the relative humidity is recomputed for the corrected temperature at the same water vapour pressure (Magnus formula, WMO-No. 8).

                --simulate reads a simulated BME280 (the data-sheet example calibration and raw values) instead of the bus.

                Exit status: 0 done; 64 bad arguments; 65 the sensor returned no measurement; 69 no sensor, wrong chip or no I²C bus; 74 I/O error.
                """
        )

        @Option(help: ArgumentHelp("The I²C bus device.", valueName: "path"))
        var bus = "/dev/i2c-1"

        @Option(help: ArgumentHelp("The sensor's address: 0x76 (SDO to GND) or 0x77 (SDO to 3.3 V).", valueName: "0x76|0x77"))
        var address = "0x76"

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Added to the temperature, in °C (e.g. -2.5 for a sensor warmed by the Pi).", valueName: "deg"))
        var offset = "0"

        @Flag(help: "Print one JSON object instead of a line of text.")
        var json = false

        @Flag(help: "Read a simulated BME280 instead of the bus.")
        var simulate = false

        @Option(help: ArgumentHelp("The simulated part's chip id (0x60 BME280, 0x58 BMP280).", visibility: .hidden))
        var simulatedChipID = "0x60"

        func run() throws {
            let address = try Self.parseAddress(self.address)
            guard let offsetValue = Double(offset), offsetValue.isFinite, abs(offsetValue) <= 20 else {
                throw Self.fail("--offset \(offset) is not a temperature offset; give degrees Celsius from -20 to 20, e.g. --offset -2.5", 64)
            }
            if simulate {
                guard let id = UInt8(simulatedChipID.dropFirst(2), radix: 16), simulatedChipID.lowercased().hasPrefix("0x") else {
                    throw Self.fail("--simulated-chip-id \(simulatedChipID) must be a hex byte such as 0x60", 64)
                }
                let clock = VirtualClock()
                let simulated = SimulatedI2CBus(clock: clock)
                simulated.attach(BME280Model.datasheetExample(chipID: id, clock: clock), at: address.rawValue)
                var sensor = BME280(bus: simulated, address: address, temperatureOffset: offsetValue)
                let result = Self.measure(&sensor, now: clock.now) { clock.advance(to: $0) }
                try report(result, address: address, busName: "the simulated bus")
            } else {
                let linux: LinuxI2CBus<LiveSystemCalls>
                do {
                    linux = try LinuxI2CBus(path: FilePath(bus))
                } catch {
                    throw Self.openFailure(bus, error)
                }
                let clock = LinuxClock()
                var sensor = BME280(bus: linux, address: address, temperatureOffset: offsetValue)
                let result = Self.measure(&sensor, now: clock.now) { Self.sleep(until: $0, clock: clock) }
                try report(result, address: address, busName: bus)
            }
        }

        /// Runs the driver's cycle to the end, waiting at every `.busy(until:)`.
        static func measure<Bus: I2CBus>(
            _ sensor: inout BME280<Bus>, now: () -> Instant, waitUntil: (Instant) -> Void
        ) -> Result<BME280Measurement, BME280Error> {
            while true {
                do throws(BME280Error) {
                    switch try sensor.measure(now: now()) {
                    case .done(let measurement): return .success(measurement)
                    case .busy(let until): waitUntil(until)
                    }
                } catch {
                    return .failure(error)
                }
            }
        }

        func report(_ result: Result<BME280Measurement, BME280Error>, address: BME280Address, busName: String) throws {
            switch result {
            case .success(let m):
                print(json ? Self.jsonLine(m, address: address) : Self.textLine(m, address: address, busName: busName))
            case .failure(let error):
                throw Self.fail(error.description(bus: busName), Self.exitCode(error))
            }
        }
    }
}

/// The lines `sensor read` prints, its exit codes and its waiting.
extension SensorCommand.Read {
    /// `indoor 21.43 °C  45.2 %RH  1013.2 hPa (BME280 at 0x76 on /dev/i2c-1)`; no humidity
    /// field on a BMP280.
    static func textLine(_ m: BME280Measurement, address: BME280Address, busName: String) -> String {
        var line = "indoor \(decimalText(m.temperatureCelsius, places: 2)) °C  "
        if let humidity = m.humidityPercent { line += "\(decimalText(humidity, places: 1)) %RH  " }
        line += "\(decimalText(m.pressureHectopascals, places: 1)) hPa"
        return line + " (\(m.chip.name) at \(hexAddress(address)) on \(busName))"
    }

    /// One JSON object; temperature and humidity to 0.01 (the sensor's resolution), pressure
    /// to 0.01 hPa (1 Pa).
    static func jsonLine(_ m: BME280Measurement, address: BME280Address) -> String {
        let humidity = m.humidityPercent.map { decimalText($0, places: 2) } ?? "null"
        return #"{"chip":"\#(m.chip.name)","address":"\#(hexAddress(address))","#
            + #""temperature_c":\#(decimalText(m.temperatureCelsius, places: 2)),"#
            + #""humidity_pct":\#(humidity),"pressure_hpa":\#(decimalText(m.pressureHectopascals, places: 2))}"#
    }

    static func hexAddress(_ address: BME280Address) -> String {
        address == .primary ? "0x76" : "0x77"
    }

    /// 0x76 or 0x77 (also without the 0x, any case); anything else is exit 64.
    static func parseAddress(_ text: String) throws(ExitCode) -> BME280Address {
        var digits = Substring(text.lowercased())
        if digits.hasPrefix("0x") { digits = digits.dropFirst(2) }
        guard let value = UInt8(digits, radix: 16), let address = BME280Address(rawValue: value) else {
            throw fail("--address \(text) is not a BME280 address; use 0x76 (SDO to GND) or 0x77 (SDO to 3.3 V)", 64)
        }
        return address
    }

    /// sysexits: no part or the wrong one is "unavailable" (69), no result is bad data (65),
    /// the rest is I/O (74).
    static func exitCode(_ error: BME280Error) -> Int32 {
        switch error {
        case .noDevice, .wrongChip: 69
        case .notMeasured: 65
        case .invalidCalibration, .stuck, .bus: 74
        }
    }

    static func openFailure(_ bus: String, _ error: I2CError) -> ExitCode {
        let reason = error.errno.map { "\($0)" } ?? error.description
        switch error.errno {
        case .noSuchFileOrDirectory?:
            return fail("cannot open \(bus): \(reason); enable I²C (raspi-config → Interface Options → I2C) or name the bus with --bus", 69)
        case .permissionDenied?:
            return fail("cannot open \(bus): \(reason); add the user to the i2c group (sudo adduser $USER i2c) and log in again", 69)
        default:
            return fail("cannot open \(bus): \(reason); check that it is an I²C bus (ls /dev/i2c-*)", 74)
        }
    }

    /// Prints `sensor read: line` on stderr and returns the exit code to throw.
    static func fail(_ line: String, _ code: Int32) -> ExitCode {
        printError("sensor read: \(line)")
        return ExitCode(code)
    }

    /// Sleeps on the monotonic clock until `instant` (nanosleep, again after a signal).
    static func sleep(until instant: Instant, clock: LinuxClock<LiveSystemCalls>) {
        while true {
            let remaining = (instant - clock.now()).nanoseconds
            guard remaining > 0 else { return }
            var request = timespec(tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
            _ = nanosleep(&request, nil)
        }
    }
}

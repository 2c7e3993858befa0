import Drivers
import HAL
import HALSim
import Testing

/// A BME280 driver on a simulated bus with the data-sheet model, on a virtual clock: the
/// driver's `.busy(until:)` instants are honoured by advancing the clock, never by sleeping.
struct BME280Rig {
    let clock = VirtualClock()
    let bus: SimulatedI2CBus
    let model: BME280Model
    var sensor: BME280<SimulatedI2CBus>

    init(
        chipID: UInt8 = 0x60, block1: [UInt8] = BME280Model.datasheetExampleBlock1,
        block2: [UInt8] = BME280Model.datasheetExampleBlock2,
        environment: BME280Model.Environment = BME280Model.datasheetExampleEnvironment,
        address: BME280Address = .primary, offset: Double = 0
    ) {
        bus = SimulatedI2CBus(clock: clock)
        model = BME280Model(
            chipID: chipID, calibrationBlock1: block1, calibrationBlock2: chipID == 0x60 ? block2 : [],
            environment: environment, clock: clock)
        bus.attach(model, at: address.rawValue)
        sensor = BME280(bus: bus, address: address, temperatureOffset: offset)
    }

    /// One whole `measure` cycle: calls again at every `.busy(until:)` after moving the clock
    /// there. At most 200 steps (a cycle takes 5 to 8).
    mutating func measure() -> Result<BME280Measurement, BME280Error> {
        for _ in 0..<200 {
            do throws(BME280Error) {
                switch try sensor.measure(now: clock.now()) {
                case .done(let m): return .success(m)
                case .busy(let until):
                    #expect(until > clock.now(), "busy until a past instant")
                    clock.advance(to: until)
                }
            } catch {
                return .failure(error)
            }
        }
        Issue.record("the measure cycle did not finish in 200 steps")
        return .failure(.stuck(address: sensor.address.rawValue))
    }

    /// The bus log as `76: D0` (write) and `76: read 1` lines, without times.
    var wire: [String] {
        bus.log.compactMap { entry in
            switch entry {
            case .write(let address, let bytes, _): line(address, Array(bytes))
            case .read(let address, let bytes, _): "\(hex(address)): read \(bytes.count)"
            default: nil
            }
        }
    }
}

/// A measurement's integers, for comparing with the corpus.
func integers(_ m: BME280Measurement) -> [Int64] {
    [Int64(m.reading.tFine), Int64(m.reading.temperatureCentiCelsius), Int64(m.reading.pressureQ24_8),
     m.reading.humidityQ22_10.map(Int64.init) ?? -1]
}

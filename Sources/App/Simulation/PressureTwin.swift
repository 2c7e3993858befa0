import Drivers
import HAL
import HALSim
import Weather

/// The simulated BME280's share of the simulated weather: the sea-level pressure of
/// `SimulatedClimate` (its fronts and a scripted storm included) brought up to the station's
/// height, and turned into the raw `adc_P` the part would convert, so the device's driver, its
/// compensation and its barograph all run on it.
///
/// Up to the station with the same hypsometric formula the device reduces with
/// (`SeaLevelPressure`, WMO-No. 8 Part I ch. 3) at the simulated outdoor temperature: a device
/// that knows its height gets the weather's sea-level pressure back (within the temperature it
/// reduces with), and one that climbs sees its station pressure fall as a real one does.
struct PressureTwin {
    let calibration: BME280Calibration
    let climate: SimulatedClimate
    /// The station's height when no GPS route gives one: the simulated service's elevation for
    /// the place (what the device then reduces with).
    let fixedAltitude: Double
    var nextUpdate = Instant.zero
    /// How often the raw value follows the weather: the device reads once a minute.
    static let every = Duration.seconds(30)

    init(latitude: Double, longitude: Double, seed: UInt64, storm: SimulatedStorm?) {
        calibration = BME280Model.datasheetExampleBlock1.withUnsafeBytes { one in
            BME280Model.datasheetExampleBlock2.withUnsafeBytes { two in BME280Calibration(block1: one, block2: two) }
        }
        climate = SimulatedClimate(latitude: latitude, longitude: longitude, seed: seed, storm: storm)
        // As `OpenMeteoBody` draws the `elevation` it answers with.
        var random = climate.generator(day: 0, stream: 2)
        fixedAltitude = Double(random.next(in: 0...600))
    }

    /// The station pressure, hPa, at `altitude` metres at the true time `time`.
    func stationPressure(at time: WallTime, altitude: Double) -> Double {
        let sample = climate.sample(at: time)
        return sample.pressure / SeaLevelPressure.reduce(stationHectopascals: 1, altitude: altitude, outdoorCelsius: sample.temperature)
    }

    /// The `adc_P` that the data sheet's compensation (§4.2.3) turns into `hectopascals` at the
    /// temperature `adcT`: compensated pressure falls as `adc_P` rises (the code starts from
    /// 1048576 − adc_P), so a binary search over the range that covers 300–1100 hPa finds it.
    func raw(for hectopascals: Double, adcT: Int32) -> Int32 {
        let tFine = calibration.compensateTemperature(adcT).tFine
        let target = hectopascals * 100 * 256
        var low: Int32 = 100_000
        var high: Int32 = 900_000
        while low < high {
            let mid = low + (high - low) / 2
            if Double(calibration.compensatePressure(mid, tFine: tFine)) > target { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension SimulatedBoard {
    /// Moves the BME280 model's raw pressure to the weather's at the station's height (the GPS
    /// route's altitude, else the service's elevation), at most every 30 s of virtual time.
    func followWeather() {
        guard var twin = pressureTwin, let model = sensorModel, clock.now() >= twin.nextUpdate else { return }
        twin.nextUpdate = clock.now() + PressureTwin.every
        pressureTwin = twin
        let altitude = drive?.altitude ?? twin.fixedAltitude
        let station = twin.stationPressure(at: trueTime, altitude: altitude)
        model.environment.pressure = twin.raw(for: station, adcT: model.environment.temperature)
    }
}

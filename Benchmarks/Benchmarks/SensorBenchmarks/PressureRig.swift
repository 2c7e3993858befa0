// "PressureSample": the barograph's share of a sensor reading, once the 10-minute interval is
// over: PressureHistory.record of one sea-level sample into the full 48-hour ring (288
// samples, the oldest dropped), the three-hour tendency over it (PressureHistory.tendency,
// three binary searches and the quality scan) and StormAlarm.update with that reading, 1,000
// samples per iteration; ns/sample. The pressure follows a slow sine with a storm's fall in it,
// so the alarm is raised and ended while it runs. Mallocs per iteration are gated at 0
// (ARCHITECTURE §4: the ring is allocated once; a sample allocates nothing). The hourly write
// of the history to the card (BarographFile.encode) is not in it: it is off the sample's path
// and allocates its file image by design.

import Benchmark
import HAL
import Weather

let samplesPerIteration = 1000

final class PressureRig {
    var history = PressureHistory()
    var alarm = StormAlarm()
    var time = WallTime(seconds: 1_783_000_200)
    var step = 0
    var raised = 0

    init() {
        // Fill the ring first: the steady state is a full ring dropping its oldest sample.
        for _ in 0..<PressureHistory.defaultCapacity { _ = sample() }
        precondition(history.count == PressureHistory.defaultCapacity)
        precondition(history.tendency(at: time) != .unknown)
    }

    /// A day-long swell of ±3 hPa and, every 2,000 samples, 10 hPa lost in 5 hours.
    @inline(__always)
    func pressure(_ i: Int) -> Double {
        let phase = Double(i % 144) / 144
        let swell = 3 * (phase < 0.5 ? 4 * phase - 1 : 3 - 4 * phase)
        let inStorm = i % 2_000
        let storm = inStorm < 30 ? Double(inStorm) / 3 : inStorm < 60 ? Double(60 - inStorm) / 3 : 0
        return 1013 + swell - storm
    }

    @inline(__always)
    func sample() -> PressureHistory.Reading {
        time = time + PressureHistory.interval
        step += 1
        history.record(PressureSample(time: time, hectopascals: pressure(step)))
        let reading = history.tendency(at: time)
        if case .raised? = alarm.update(reading) { raised += 1 }
        return reading
    }

    func run() {
        var unknown = 0
        for _ in 0..<samplesPerIteration {
            if sample() == .unknown { unknown += 1 }
        }
        blackHole(unknown)
    }
}

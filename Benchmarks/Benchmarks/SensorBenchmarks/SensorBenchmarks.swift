// The sensor and weather paths of the loop (ARCHITECTURE §4: no allocation in steady state):
// - "BME280Cycle": one forced-mode cycle of the BME280 driver, startMeasurement(now:) then
//   readMeasurement(now:) at the instant it returns, compensation included, 1,000 cycles per
//   iteration; the custom metric is ns/cycle. The bus is a struct answering from a 256-byte
//   register image holding the corpus calibration C1 and data registers "65 5A C0 7E ED 00 76
//   49" (sensors/bme280-vectors.json V01: 25.08 °C, checked once before measuring), so the
//   figure is the driver's CPU cost, not the wire. Mallocs per iteration are gated at 0.
// - "ZoneOffset": ZoneRules.offset(at:) for Europe/Berlin as loaded from tzdata by
//   LinuxFileSystem (the POSIX rule "CET-1CEST,M3.5.0,M10.5.0/3" when tzdata lacks it; which
//   one is printed to stderr), 1,000 lookups per iteration at instants spread over 2020–2040 (the
//   TZif table up to 2037, the footer rule after it); ns/lookup. Mallocs are gated at 0.
// - "OpenMeteoDecode": OpenMeteoService.decode of a 2.8 KB constructed Open-Meteo body (current,
//   48 hours, 2 days; the shape of corpus weather/open-meteo-current-hourly-daily.json), one
//   decode per iteration; ns/decode. This one allocates by design, so its gate is not 0: the
//   body is parsed into a JSON tree (arrays, dictionaries, strings) and decoded into a report
//   of arrays, once per fetch every 15 minutes, off the steady-state loop. Its mallocs per decode
//   are gated at a bound ~25 % above the measured count (Thresholds/), with a ±40 % tolerance
//   around it, so a change that doubles them fails, as does one that drops them by more than
//   ~25 % (then lower the bound).
// - "PressureSample": the barograph's sample (PressureRig.swift).

import Benchmark
import Drivers
import Foundation
import HAL
import HALLinux
import Weather

extension BenchmarkMetric {
    static let nanosecondsPerCycle = BenchmarkMetric.custom("ns/cycle", polarity: .prefersSmaller)
    static let nanosecondsPerLookup = BenchmarkMetric.custom("ns/lookup", polarity: .prefersSmaller)
    static let nanosecondsPerDecode = BenchmarkMetric.custom("ns/decode", polarity: .prefersSmaller)
    static let nanosecondsPerSample = BenchmarkMetric.custom("ns/sample", polarity: .prefersSmaller)
}

let cyclesPerIteration = 1000
let lookupsPerIteration = 1000

func printError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

/// Runs `body` in the measured region and records `metric` as its time divided by `count`.
@inline(__always)
func measure(_ benchmark: Benchmark, _ metric: BenchmarkMetric, per count: Int, _ body: () -> Void) {
    let clock = ContinuousClock()
    benchmark.startMeasurement()
    let start = clock.now
    body()
    let duration = clock.now - start
    benchmark.stopMeasurement()
    let elapsed = Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    benchmark.measurement(metric, Int(elapsed) / count)
}

// MARK: BME280

/// A BME280 at 0x76 that answers reads from a fixed 256-byte register image and stores writes
/// (except to `reset`, which reads 0). No class, no heap: the image is a tuple.
struct RegisterImageBus: I2CBus {
    var image: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var transactions = 0

    /// The corpus calibration C1 (bme280-vectors.json), chip id 0x60, status 0, data of V01.
    static func c1() -> RegisterImageBus {
        var bus = RegisterImageBus()
        bus.poke(0x88, hex: "70 6B 43 67 18 FC 7D 8E 43 D6 D0 0B 27 0B 8C 00 F9 FF 8C 3C F8 C6 70 17 00 4B")
        bus.poke(0xE1, hex: "78 01 00 11 2E 03 1E")
        bus.poke(0xD0, hex: "60")
        bus.poke(0xF3, hex: "00")
        bus.poke(0xF7, hex: "65 5A C0 7E ED 00 76 49")
        return bus
    }

    mutating func poke(_ register: UInt8, hex: String) {
        let bytes = hex.split(separator: " ").map { UInt8($0, radix: 16)! }
        withUnsafeMutableBytes(of: &image) { image in
            for (index, byte) in bytes.enumerated() { image[Int(register) + index] = byte }
        }
    }

    mutating func transfer(
        address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        guard address == BME280Address.primary.rawValue else { throw I2CError(.noAcknowledge(.address)) }
        transactions += 1
        withUnsafeMutableBytes(of: &image) { image in
            if read.isEmpty {
                // Register/value pairs (data sheet §6.2.1).
                var index = 0
                while index + 1 < write.count {
                    if write[index] != BME280Register.reset { image[Int(write[index])] = write[index + 1] }
                    index += 2
                }
            } else {
                // The register address, then a burst read that wraps like the 8-bit pointer.
                let first = write.isEmpty ? 0 : Int(write[0])
                for index in read.indices { read[index] = image[(first + index) & 0xFF] }
            }
        }
    }
}

final class BME280Rig {
    var sensor = BME280(bus: RegisterImageBus.c1())
    var now = Instant(nanoseconds: 1_000_000_000)

    init() throws {
        // start: chip id and reset, `.busy` for the start-up time, then status and calibration.
        var started = false
        for _ in 0..<4 where !started {
            switch try sensor.start(now: now) {
            case .done: started = true
            case .busy(let until): now = until
            }
        }
        precondition(started, "the BME280 did not start on the register image")
        let measurement = try cycle()
        precondition(
            measurement.reading.temperatureCentiCelsius == 2508 && measurement.reading.tFine == 128422
                && measurement.reading.pressureQ24_8 == 25_767_233 && measurement.reading.humidityQ22_10 == 70339,
            "the BME280 cycle does not give the corpus V01 values: \(measurement.reading)")
        precondition(measurement.temperatureCelsius == 25.08)
    }

    /// One forced measurement: trigger, then read at the instant the driver named.
    @inline(__always)
    func cycle() throws(BME280Error) -> BME280Measurement {
        let readyAt = try sensor.startMeasurement(now: now)
        guard case .done(let measurement) = try sensor.readMeasurement(now: readyAt) else {
            fatalError("the register image never reports a measurement in progress")
        }
        now = readyAt + .seconds(60)
        return measurement
    }

    func run() {
        var sum: Int32 = 0
        for _ in 0..<cyclesPerIteration {
            do {
                sum &+= try cycle().reading.temperatureCentiCelsius
            } catch {
                fatalError("BME280 cycle failed: \(error)")
            }
        }
        blackHole(sum)
    }
}

// MARK: Zone rules

final class ZoneRig {
    let zone: ZoneRules
    /// 1,000 instants from 2020-01-01 to 2040-01-01 UTC, every ~7.3 days, not on the hour.
    let instants: [WallTime]

    init() {
        var files = LinuxFileSystem()
        switch ZoneRules.load(identifier: "Europe/Berlin", files: &files) {
        case .success(let rules):
            zone = rules
            printError("ZoneOffset: Europe/Berlin from tzdata (/usr/share/zoneinfo)\n")
        case .failure(let error):
            zone = ZoneRules.parse(posix: "CET-1CEST,M3.5.0,M10.5.0/3")!
            printError("ZoneOffset: no tzdata Europe/Berlin (\(error)); the POSIX rule CET-1CEST,M3.5.0,M10.5.0/3\n")
        }
        let first: Int64 = 1_577_836_800, last: Int64 = 2_208_988_800  // 2020-01-01, 2040-01-01
        let step = (last - first) / Int64(lookupsPerIteration)
        instants = (0..<Int64(lookupsPerIteration)).map { WallTime(seconds: first + $0 * step + 1_234) }
        // Winter and summer, in the table and in the footer (after 2037).
        precondition(zone.offset(at: WallTime(seconds: 1_768_464_000)) == 3600)  // 2026-01-15
        precondition(zone.offset(at: WallTime(seconds: 1_782_864_000)) == 7200)  // 2026-07-01
        precondition(zone.offset(at: WallTime(seconds: 2_192_659_200)) == 7200)  // 2039-06-26
        precondition(zone.offset(at: WallTime(seconds: 2_207_520_000)) == 3600)  // 2039-12-15
    }

    func run() {
        var sum = 0
        for instant in instants { sum &+= zone.offset(at: instant) }
        blackHole(sum)
    }
}

// MARK: Open-Meteo

/// A constructed Open-Meteo answer (Innsbruck, 4–5 July 2026, values made up for this
/// benchmark) with the keys, block layout and sizes of the corpus file: current, 48 hours of
/// temperature, precipitation chance and weather code, 2 days.
let openMeteoBody = """
    {"latitude":47.26,"longitude":11.38,"generationtime_ms":0.0871419906616211,\
    "utc_offset_seconds":7200,"timezone":"Europe/Vienna","timezone_abbreviation":"GMT+2",\
    "elevation":574.0,"current_units":{"time":"iso8601","interval":"seconds","temperature_2m":"°C",\
    "relative_humidity_2m":"%","apparent_temperature":"°C","is_day":"","precipitation":"mm",\
    "weather_code":"wmo code","cloud_cover":"%","pressure_msl":"hPa","wind_speed_10m":"km/h",\
    "wind_direction_10m":"°","wind_gusts_10m":"km/h"},"current":{"time":"2026-07-04T15:45",\
    "interval":900,"temperature_2m":23.9,"relative_humidity_2m":54,"apparent_temperature":24.6,\
    "is_day":1,"precipitation":0.40,"weather_code":95,"cloud_cover":87,"pressure_msl":1012.7,\
    "wind_speed_10m":14.8,"wind_direction_10m":262,"wind_gusts_10m":41.0},\
    "hourly_units":{"time":"iso8601","temperature_2m":"°C","precipitation_probability":"%",\
    "weather_code":"wmo code"},"hourly":{"time":["2026-07-04T00:00","2026-07-04T01:00",\
    "2026-07-04T02:00","2026-07-04T03:00","2026-07-04T04:00","2026-07-04T05:00","2026-07-04T06:00",\
    "2026-07-04T07:00","2026-07-04T08:00","2026-07-04T09:00","2026-07-04T10:00","2026-07-04T11:00",\
    "2026-07-04T12:00","2026-07-04T13:00","2026-07-04T14:00","2026-07-04T15:00","2026-07-04T16:00",\
    "2026-07-04T17:00","2026-07-04T18:00","2026-07-04T19:00","2026-07-04T20:00","2026-07-04T21:00",\
    "2026-07-04T22:00","2026-07-04T23:00","2026-07-05T00:00","2026-07-05T01:00","2026-07-05T02:00",\
    "2026-07-05T03:00","2026-07-05T04:00","2026-07-05T05:00","2026-07-05T06:00","2026-07-05T07:00",\
    "2026-07-05T08:00","2026-07-05T09:00","2026-07-05T10:00","2026-07-05T11:00","2026-07-05T12:00",\
    "2026-07-05T13:00","2026-07-05T14:00","2026-07-05T15:00","2026-07-05T16:00","2026-07-05T17:00",\
    "2026-07-05T18:00","2026-07-05T19:00","2026-07-05T20:00","2026-07-05T21:00","2026-07-05T22:00",\
    "2026-07-05T23:00"],"temperature_2m":[11.7,10.5,9.8,9.5,9.8,10.5,11.7,13.2,15.1,17.0,18.9,20.8,22.3,\
    23.5,24.2,24.5,24.2,23.5,22.3,20.8,18.9,17.0,15.1,13.2,10.2,9.0,8.3,8.0,8.3,9.0,10.2,11.8,13.6,15.5,\
    17.4,19.2,20.8,22.0,22.7,23.0,22.7,22.0,20.8,19.2,17.4,15.5,13.6,11.8],\
    "precipitation_probability":[29,19,11,5,2,2,5,11,19,29,40,51,61,69,75,78,78,75,69,61,51,40,29,19,11,\
    5,2,2,5,11,19,29,40,51,61,69,75,78,78,75,69,61,51,40,29,19,11,5],"weather_code":[2,1,1,0,0,0,0,1,1,\
    2,3,3,61,61,95,95,95,95,61,61,3,3,2,1,1,0,0,0,0,1,1,2,3,3,61,61,95,95,95,95,61,61,3,3,2,1,1,0]},\
    "daily_units":{"time":"iso8601","weather_code":"wmo code","temperature_2m_max":"°C",\
    "temperature_2m_min":"°C","sunrise":"iso8601","sunset":"iso8601",\
    "precipitation_probability_max":"%"},"daily":{"time":["2026-07-04","2026-07-05"],"weather_code":[95,\
    95],"temperature_2m_max":[24.5,23.0],"temperature_2m_min":[9.5,8.0],"sunrise":["2026-07-04T05:22",\
    "2026-07-05T05:23"],"sunset":["2026-07-04T21:12","2026-07-05T21:12"],\
    "precipitation_probability_max":[78,78]}}
"""

final class DecodeRig {
    let service = OpenMeteoService(identity: ClientIdentity(contact: "bench@example.invalid"))
    let response = HTTPResponse(status: 200, body: Array(openMeteoBody.utf8))
    let order = FetchOrder(position: try! Coordinate(latitude: 47.26, longitude: 11.38))
    let receivedAt = WallTime(seconds: 1_783_172_760)  // 2026-07-04T13:46Z

    init() {
        guard case .success(.report(let report, _)) = decode() else {
            fatalError("the constructed Open-Meteo body does not decode: \(decode())")
        }
        precondition(report.hours.count == 48 && report.days.count == 2 && report.current?.temperature == 23.9)
        precondition(response.body.count > 2_500)
    }

    @inline(__always)
    func decode() -> Result<FetchOutcome, WeatherError> {
        service.decode(response, for: order, receivedAt: receivedAt)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 100,
        thresholds: [.mallocCountTotal: .init(absolute: [.p90: 0])]
    )

    Benchmark(
        "BME280Cycle",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal, .nanosecondsPerCycle])
    ) { benchmark, rig in
        measure(benchmark, .nanosecondsPerCycle, per: cyclesPerIteration) { rig.run() }
        precondition(rig.sensor.bus.transactions > 0)
    } setup: {
        try BME280Rig()
    }

    Benchmark(
        "ZoneOffset",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal, .nanosecondsPerLookup])
    ) { benchmark, rig in
        measure(benchmark, .nanosecondsPerLookup, per: lookupsPerIteration) { rig.run() }
    } setup: {
        ZoneRig()
    }

    Benchmark(
        "PressureSample",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal, .nanosecondsPerSample])
    ) { benchmark, rig in
        measure(benchmark, .nanosecondsPerSample, per: samplesPerIteration) { rig.run() }
        precondition(rig.raised > 0, "the storm in the trace never raised the alarm")
    } setup: {
        PressureRig()
    }

    Benchmark(
        "OpenMeteoDecode",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .nanosecondsPerDecode],
            maxIterations: 1000,
            thresholds: [.mallocCountTotal: .init(relative: [.p90: 40])])
    ) { benchmark, rig in
        var outcome: Result<FetchOutcome, WeatherError>?
        measure(benchmark, .nanosecondsPerDecode, per: 1) { outcome = rig.decode() }
        blackHole(outcome)
    } setup: {
        DecodeRig()
    }
}

// One frame of the display stack (issue 5, ARCHITECTURE §8: render + diff ≤ 10 µs, 0
// allocations), per frame, 1,000 frames per iteration:
// - "RenderDiffNow": the now screen drawn into the framebuffer (OLEDScreens.render) and flushed
//   by the SSD1306 128×64 driver, the minute changing on every frame (14:00, 14:01, …), so each
//   flush diffs the whole frame against the shadow and sends one small window. The bus counts
//   bytes and keeps nothing, so the figure is the CPU cost, not the wire.
// - "RenderDiffNowSH1106": the same on the SH1106 driver (page writes with the column offset).
// - "RenderNow": the drawing alone.
// - "RenderBarograph": the barograph screen's drawing alone (the barograph scene: 72 sensor and
//   96 provider columns, the scale, the arrow), and "RenderStormBanner" the now screen under the
//   storm banner (drawn through the view that drops the banner's rows).
// - "DiffUnchanged": a flush of a frame that is already on the glass (a tick with nothing new).
// - "CharacterNow": the 16×2 character layout and the HD44780 flush (DDRAM shadow, CGRAM slots).
// Mallocs per iteration are gated at 0 (Thresholds/).

import Benchmark
import Drivers
import Graphics
import HAL
import Screens
import Store

extension BenchmarkMetric {
    static let nanosecondsPerFrame = BenchmarkMetric.custom("ns/frame", polarity: .prefersSmaller)
    static let payloadBytesPerFrame = BenchmarkMetric.custom("payload B/frame", polarity: .prefersSmaller)
}

let framesPerIteration = 1000

/// A bus that acknowledges everything and counts what it was sent.
struct CountingBus: I2CBus {
    var payloadBytes = 0
    var transactions = 0

    mutating func transfer(
        address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        payloadBytes += write.count
        transactions += 1
        for index in read.indices { read[index] = 0 }
    }
}

/// The now screen at each minute of an hour, built before the measurement.
let models: [ScreenModel] = (0..<60).map { minute in
    var model = SampleScene.now.frames[0]
    model.clock = ClockTime(hour: 14, minute: minute)
    return model
}

/// Renders and flushes `framesPerIteration` frames, each a minute later than the one before.
@inline(__always)
func renderAndFlush(_ display: inout OLEDDisplay<CountingBus>, _ frame: inout Framebuffer, from first: Int) {
    for index in 0..<framesPerIteration {
        OLEDScreens.render(models[(first + index) % models.count], .now, into: &frame)
        guard (try? display.flush(frame)) != nil else { fatalError("the counting bus never fails") }
    }
}

func measure(_ benchmark: Benchmark, _ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    benchmark.startMeasurement()
    let start = clock.now
    body()
    let duration = clock.now - start
    benchmark.stopMeasurement()
    let elapsed = Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    benchmark.measurement(.nanosecondsPerFrame, Int(elapsed) / framesPerIteration)
    return elapsed
}

final class OLEDRig {
    var display: OLEDDisplay<CountingBus>
    var frame: Framebuffer
    var minute = 0

    init(_ profile: OLEDProfile) throws {
        display = OLEDDisplay(bus: CountingBus(), profile: profile)
        frame = Framebuffer(width: profile.width, height: profile.height)
        _ = try display.start()
        OLEDScreens.render(models[0], .now, into: &frame)
        _ = try display.flush(frame)
    }

    func run(_ benchmark: Benchmark) {
        let before = display.bus.payloadBytes
        _ = measure(benchmark) { renderAndFlush(&display, &frame, from: minute + 1) }
        minute += framesPerIteration
        benchmark.measurement(.payloadBytesPerFrame, (display.bus.payloadBytes - before) / framesPerIteration)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .nanosecondsPerFrame],
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 100,
        thresholds: [.mallocCountTotal: .init(absolute: [.p90: 0])]
    )

    Benchmark(
        "RenderDiffNow",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal, .nanosecondsPerFrame, .payloadBytesPerFrame])
    ) { benchmark, rig in
        rig.run(benchmark)
    } setup: {
        try OLEDRig(.ssd1306_128x64)
    }

    Benchmark(
        "RenderDiffNowSH1106",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal, .nanosecondsPerFrame, .payloadBytesPerFrame])
    ) { benchmark, rig in
        rig.run(benchmark)
    } setup: {
        try OLEDRig(.sh1106_128x64)
    }

    Benchmark("RenderNow") { benchmark, rig in
        _ = measure(benchmark) {
            for index in 0..<framesPerIteration {
                OLEDScreens.render(models[index % models.count], .now, into: &rig.frame)
            }
        }
        blackHole(rig.frame.byte(page: 0, column: 127))
    } setup: {
        try OLEDRig(.ssd1306_128x64)
    }

    Benchmark("RenderBarograph") { benchmark, rig in
        let model = SampleScene.barograph.frames[0]
        _ = measure(benchmark) {
            for _ in 0..<framesPerIteration { OLEDScreens.render(model, .barograph, into: &rig.frame) }
        }
        blackHole(rig.frame.byte(page: 7, column: 100))
    } setup: {
        try OLEDRig(.ssd1306_128x64)
    }

    Benchmark("RenderStormBanner") { benchmark, rig in
        let model = SampleScene.storm.frames[0]
        _ = measure(benchmark) {
            for _ in 0..<framesPerIteration { OLEDScreens.render(model, .now, into: &rig.frame) }
        }
        blackHole(rig.frame.byte(page: 0, column: 0))
    } setup: {
        try OLEDRig(.ssd1306_128x64)
    }

    Benchmark("DiffUnchanged") { benchmark, rig in
        _ = measure(benchmark) {
            for _ in 0..<framesPerIteration {
                guard (try? rig.display.flush(rig.frame)) != nil else { fatalError("the counting bus never fails") }
            }
        }
        precondition(rig.display.bus.transactions > 0)
    } setup: {
        try OLEDRig(.ssd1306_128x64)
    }

    Benchmark("CharacterNow") { benchmark, rig in
        _ = measure(benchmark) { rig.run() }
    } setup: {
        try LCDRig()
    }
}

// NMEA parsing cost over the gpsd captures concatenated to about 50 MB, the input minmea was
// measured on (notes/gps-nmea.md §2: every capture with its `#` lines removed and LF line ends,
// repeated 96 times = 842,400 lines, 50.46 MB; minmea ≈ 215 ns per sentence).
//
// Each benchmark iteration is one pass over the whole input, fed in 4 KiB chunks as a serial
// read would deliver it. Reported per pass: wall clock and Malloc (total). Reported per
// sentence: the custom metric "ns/sentence", the pass time divided by the number of input lines
// (842,400), which is minmea's denominator. Mallocs per sentence = Malloc (total) / lines; the
// CI gate (Thresholds/*.p90.json) requires 0 mallocs per pass.

import Benchmark
import Foundation
import GPS

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The concatenated corpus, built once per process before the first benchmark runs.
struct NMEAInput: Sendable {
    let bytes: [UInt8]
    /// LF-terminated lines, i.e. sentences in minmea's count.
    let lines: Int
    let captures: Int
    let repeats: Int

    static let targetSize = 50_000_000
    static let chunkSize = 4096

    /// `$THUNDERSTORM_CORPUS/nmea`, else `../../shared/corpus/nmea` from this package's directory.
    static var directory: String {
        if let root = ProcessInfo.processInfo.environment["THUNDERSTORM_CORPUS"] {
            return root + "/nmea"
        }
        let packageDirectory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // NMEABenchmarks
            .deletingLastPathComponent()  // Benchmarks (sources)
            .deletingLastPathComponent()  // Benchmarks (package)
        return packageDirectory.appendingPathComponent("../../shared/corpus/nmea").standardizedFileURL.path
    }

    static func load() -> NMEAInput {
        let directory = directory
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".log") }.sorted()
        guard !names.isEmpty else {
            let message = """
                NMEABenchmarks: no NMEA corpus (*.log) at \(directory).
                Put the shared corpus at ../../shared/corpus/nmea relative to Benchmarks/, or set \
                THUNDERSTORM_CORPUS to the directory that contains nmea/.

                """
            printError(message)
            exit(1)
        }
        // One pass: each capture's lines without `#` comment lines and without CRs before the LF.
        var one: [UInt8] = []
        var lines = 0
        for name in names {
            guard let data = FileManager.default.contents(atPath: directory + "/" + name) else {
                printError("NMEABenchmarks: cannot read \(directory)/\(name)\n")
                exit(1)
            }
            let bytes = [UInt8](data)
            var lineStart = 0
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
                var contentEnd = lineEnd
                while contentEnd > lineStart, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                if bytes[lineStart] != UInt8(ascii: "#") {
                    one.append(contentsOf: bytes[lineStart..<contentEnd])
                    one.append(0x0A)
                    lines += 1
                }
                lineStart = lineEnd + 1
            }
        }
        let repeats = (targetSize + one.count - 1) / one.count
        var all: [UInt8] = []
        all.reserveCapacity(one.count * repeats)
        for _ in 0..<repeats { all.append(contentsOf: one) }
        return NMEAInput(bytes: all, lines: lines * repeats, captures: names.count, repeats: repeats)
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

let input = NMEAInput.load()

@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Feeds the input in `chunkSize` pieces.
@inline(__always)
func forEachChunk(_ body: (UnsafeRawBufferPointer) -> Void) {
    input.bytes.withUnsafeBytes { all in
        var offset = 0
        while offset < all.count {
            let end = min(offset + NMEAInput.chunkSize, all.count)
            body(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
            offset = end
        }
    }
}

extension BenchmarkMetric {
    /// Pass time divided by the input's line count (842,400 for the gpsd corpus ×96).
    static let nanosecondsPerSentence = BenchmarkMetric.custom("ns/sentence", polarity: .prefersSmaller)
}

/// Times one pass, stops the benchmark's measured region, records ns/sentence.
@inline(__always)
func measurePass(_ benchmark: Benchmark, _ pass: () -> Void) {
    let start = monotonicNanoseconds()
    pass()
    let elapsed = monotonicNanoseconds() - start
    benchmark.stopMeasurement()  // recording the custom metric is not part of the measured region
    benchmark.measurement(.nanosecondsPerSentence, Int((Double(elapsed) / Double(input.lines)).rounded()))
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .nanosecondsPerSentence],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(5),
        maxIterations: 25,
        // With `benchmark thresholds check`, Malloc (total) per pass must equal the static
        // threshold in Thresholds/ (0) exactly: no tolerance.
        thresholds: [.mallocCountTotal: .init(absolute: [.p90: 0])]
    )

    Benchmark.setup = {
        printError(
            "NMEABenchmarks input: \(input.captures) captures ×\(input.repeats) = \(input.lines) lines, "
                + "\(input.bytes.count) bytes, fed in \(NMEAInput.chunkSize)-byte chunks. One iteration is one "
                + "pass: Time and Malloc (total) are per pass; ns/sentence = pass time ÷ \(input.lines) lines; "
                + "mallocs/sentence = Malloc (total) ÷ \(input.lines).\n")
    }

    // (a) Everything the device runs per byte: framer, decoder, epoch assembler.
    Benchmark("Receiver") { benchmark in
        measurePass(benchmark) {
            var receiver = NMEAReceiver(rules: .archive)
            var sentences = 0
            var fixes = 0
            var positions: Int64 = 0
            // Closure literals at each call, not a closure stored in a local: a stored closure is
            // escaping, so the counters it captures would be boxed on the heap.
            forEachChunk { chunk in
                receiver.consume(chunk) { event in
                    switch event {
                    case .sentence: sentences &+= 1
                    case .fix(let fix):
                        fixes &+= 1
                        positions &+= fix.latitude?.nanominutes ?? 0
                    }
                }
            }
            receiver.finish { event in
                if case .fix = event { fixes &+= 1 }
            }
            blackHole(sentences &+ fixes &+ Int(truncatingIfNeeded: positions))
            blackHole(receiver.statistics.accepted)
        }
    }

    // (b) Framing and checksums only.
    Benchmark("Framer") { benchmark in
        measurePass(benchmark) {
            var framer = NMEAFramer()
            var sentences = 0
            var lengths = 0
            forEachChunk { chunk in
                framer.feed(chunk) { sentence in
                    sentences &+= 1
                    lengths &+= sentence.count
                }
            }
            framer.finish()
            blackHole(sentences &+ lengths)
            blackHole(framer.statistics.accepted)
        }
    }

    // (c) Framing and field decoding, no epochs.
    Benchmark("FramerDecoder") { benchmark in
        measurePass(benchmark) {
            var framer = NMEAFramer()
            var decoded = 0
            var unknown = 0
            var malformed = 0
            forEachChunk { chunk in
                framer.feed(chunk) { sentence in
                    switch NMEADecoder.decode(sentence) {
                    case .decoded: decoded &+= 1
                    case .unknown: unknown &+= 1
                    case .malformed: malformed &+= 1
                    }
                }
            }
            framer.finish()
            blackHole(decoded &+ unknown &* 3 &+ malformed &* 7)
        }
    }
}

// The cost of one settings change in the file store (issue 4), per commit:
// - "CommitTmpfs": 1,000 commits per iteration through the device's own file system code
//   (LinuxFileSystem: real pwrite and fdatasync) on tmpfs, so the figure is the store's CPU
//   cost and the syscalls, not a disk. Mallocs per iteration are gated at 0: a commit, the
//   compactions among them included, allocates nothing once the store is open.
// - "CommitSimulated": the same on the crashable in-memory file system of the tests. The
//   simulation records every unsynced write for crash replay, so it allocates by design; its
//   mallocs are reported and gated near the measured count, and commits/s is the figure.
// - "Open10000Records": opening a store whose log holds 10,000 records (2 MiB files) on
//   tmpfs: the read, the checks of both copies of each record, the replay.

import Benchmark
import Foundation
import HAL
import HALLinux
import HALSim
import Store
import SystemPackage

extension BenchmarkMetric {
    static let commitsPerSecond = BenchmarkMetric.custom("commits/s", polarity: .prefersLarger)
    static let nanosecondsPerCommit = BenchmarkMetric.custom("ns/commit", polarity: .prefersSmaller)
}

let commitsPerIteration = 1000

/// A scratch directory on tmpfs when there is one.
func scratchDirectory(_ name: String) -> FilePath {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let path = "\(base)/thunderstorm-bench-\(getpid())-\(name)"
    try? FileManager.default.removeItem(atPath: path)
    return FilePath(path)
}

func removeScratchDirectories() {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
    where name.hasPrefix("thunderstorm-bench-\(getpid())-") {
        try? FileManager.default.removeItem(atPath: "\(base)/\(name)")
    }
}

/// Commits `count` alternating temperature changes; every one changes something.
@inline(__always)
func commitAlternating<S: Store>(_ store: S, _ count: Int) {
    for _ in 0..<count {
        var settings = store.state.settings
        settings.temperature = settings.temperature == .celsius ? .fahrenheit : .celsius
        guard case .durable = try? store.commit(.settings(settings)) else {
            fatalError("benchmark commit was not durable: \(store.health)")
        }
    }
}

/// One iteration: `commitsPerIteration` commits in the measured region, then the per-commit
/// figures (recorded outside it).
func measureCommits<S: Store>(_ benchmark: Benchmark, _ store: S) {
    let clock = ContinuousClock()
    benchmark.startMeasurement()
    let start = clock.now
    commitAlternating(store, commitsPerIteration)
    let duration = clock.now - start
    benchmark.stopMeasurement()
    let elapsed = Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    benchmark.measurement(.nanosecondsPerCommit, Int(elapsed) / commitsPerIteration)
    benchmark.measurement(.commitsPerSecond, Int(Double(commitsPerIteration) * 1e9 / elapsed))
}

/// A store with the three locations a user might save, as in the field.
func populate<S: Store>(_ store: S) {
    for (name, lat, lon) in [("Zürich", 47.3769, 8.5417), ("Tromsø", 69.6496, 18.956), ("Île d’Yeu", 46.71, -2.35)] {
        _ = try? store.addLocation(name: name, latitude: lat, longitude: lon)
    }
}

final class Counter: @unchecked Sendable { var events = 0 }

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .commitsPerSecond, .nanosecondsPerCommit],
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 50,
        thresholds: [.mallocCountTotal: .init(absolute: [.p90: 0])]
    )

    Benchmark("CommitTmpfs") { (benchmark, store: FileStore<LinuxFileSystem<LiveSystemCalls>, LinuxClock<LiveSystemCalls>>) in
        measureCommits(benchmark, store)
    } setup: {
        let store = try FileStore(files: LinuxFileSystem(), clock: LinuxClock(), configuration: .init(directory: scratchDirectory("commit")))
        populate(store)
        let counter = Counter()
        store.observe { _ in counter.events += 1 }
        return store
    } teardown: {
        removeScratchDirectories()
    }

    Benchmark(
        "CommitSimulated",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .commitsPerSecond, .nanosecondsPerCommit],
            thresholds: [.mallocCountTotal: .init(relative: [.p90: 5])])
    ) { (benchmark, store: FileStore<CrashableFileSystem, VirtualClock>) in
        measureCommits(benchmark, store)
    } setup: {
        let store = try FileStore(
            files: CrashableFileSystem(), clock: VirtualClock(), configuration: .init(directory: "/store"))
        populate(store)
        return store
    }

    Benchmark(
        "Open10000Records",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal],
            timeUnits: .microseconds,
            thresholds: [.mallocCountTotal: .init(relative: [.p90: 5])])
    ) { (benchmark, directory: FilePath) in
        for _ in benchmark.scaledIterations {
            let store = try FileStore(
                files: LinuxFileSystem(), clock: LinuxClock(),
                configuration: .init(directory: directory, fileSize: 2 << 20, readOnly: true))
            precondition(store.sequence == 10_000 && store.report.files.map(\.records).max() == 10_000, "\(store.report)")
            blackHole(store.sequence)
            store.close()
        }
    } setup: {
        let directory = scratchDirectory("open")
        let store = try FileStore(
            files: LinuxFileSystem(), clock: LinuxClock(), configuration: .init(directory: directory, fileSize: 2 << 20))
        populate(store)
        commitAlternating(store, 10_000 - 3)
        store.close()
        return directory
    } teardown: {
        removeScratchDirectories()
    }
}

#if canImport(Glibc)
import Glibc
#endif
import HAL
import HALSim
import SystemPackage
import Testing
@testable import Store

/// The crash-consistency proof for the file store (docs/design/decisions.md#crash-tests, C1–C4): a seeded
/// workload on small files, crashed in every way C1 allows before every operation, including
/// the operations of creating and migrating the store and of recoveries that write.
///
/// Scale: the whole `CrashConsistency` filter must stay under ~30 s in a debug `swift test` on
/// 2 cores, and a debug open of the store costs about 1 ms (each crash state needs two opens
/// and a commit), so the runs are a few hundred commits, in parallel. Each healthy commit is
/// one pwrite and one fdatasync: 1 + 2 + 9 crash states (+3 per 512 B of a snapshot).
@Suite struct CrashConsistencyFileStoreTests {

    /// C2 inside open: every crash while a fresh store is created, and (nested) every crash
    /// while the next open re-creates it. Creation does the same operations whatever the
    /// workload, so this runs once. Fails while the store has bugs A and B (see
    /// CrashConsistencyBugReproductions.swift).
    @Test func crashesDuringCreationRecover() throws {
        let tally = CrashTally()
        let explorer = CrashExplorer<FileStoreCrashSubject>(label: "creation", tally: tally, seed: 0)
        try explorer.open()
        explorer.finish()
        Self.cutPowerInsideOpen(label: "creation", tally: tally) { _ in [0: .initial] }
        print(tally.summary("FileStore creation"))
        #expect(tally.violations == 0, "\(tally.report)")
    }

    /// C2 with `cutPower(afterOperations:)`: power fails after k operations of an open that
    /// creates or migrates the store, so the open's own error path runs too; then the crash
    /// keeps what C1 allows, and the second recovery is judged (with crashes inside it).
    /// `seed` prepares a file system and returns the model of what it holds.
    static func cutPowerInsideOpen(
        label: String, tally: CrashTally, seed: (CrashableFileSystem) -> [UInt64: StoreState]
    ) {
        let probe = CrashableFileSystem()
        _ = seed(probe)
        let before = probe.operationCount
        let opened = try? FileStoreCrashSubject(opening: probe)
        let operations = probe.operationCount - before
        opened?.close()
        for k in 0..<operations {
            let fs = CrashableFileSystem()
            let model = seed(fs)
            let explorer = CrashExplorer<FileStoreCrashSubject>(fs: fs, label: label, tally: tally, seed: UInt64(k))
            explorer.judging = false
            explorer.model = model
            let base = model.keys.max()!
            (explorer.lastAcknowledged, explorer.highestInFlight) = (base, base)
            fs.cutPower(afterOperations: k)
            // Open fails, or (a migration whose write failed) serves the old data, degraded.
            if let opened = try? FileStoreCrashSubject(opening: fs) {
                if case .degraded = opened.store.health {} else {
                    Issue.record("\(label): open with power cut after \(k) operations: \(opened.store.health)")
                }
                opened.close()
            }
            for choice in explorer.choices(fs.pendingOperations, reduced: false) {
                explorer.judge(choice.crash(fs), allowed: base...base, where: "\(label), power cut after op \(k) of open, \(choice)", depth: 0)
            }
            fs.onOperation = nil
        }
    }

    struct Run: Sendable {
        var seed: UInt64
        var commits: Int
        var fileKiB = 8
    }

    /// The runs of `freshStoreHasNoViolations`: 8 KiB files (the log is one 4 KiB block), 4 KiB
    /// files (many compactions), 16 KiB files (the log crosses into a second block). With
    /// `CRASH_CONSISTENCY_SCALE=n` in the environment, each runs with n seeds (a longer soak).
    static let freshRuns = CrashScale.seeds([
        Run(seed: 1, commits: 120), Run(seed: 2, commits: 120), Run(seed: 3, commits: 150, fileKiB: 4),
        Run(seed: 4, commits: 100, fileKiB: 16),
    ])

    /// Runs the seeded workload on a fresh store.
    static func runFresh<Subject: FileStoreCrashSubject>(_: Subject.Type, _ run: Run) throws -> CrashRunResult {
        let tally = CrashTally()
        let explorer = CrashExplorer<Subject>(label: "\(Subject.name) seed \(run.seed)", tally: tally, seed: run.seed)
        var workload = CrashWorkload(seed: run.seed)
        try explorer.open(explore: false)
        explorer.run(&workload, commits: run.commits, powerCutEvery: 15)
        tally.compactions = Int(explorer.subject!.store.generation) - 1
        explorer.finish()
        return tally.result
    }

    /// Runs `body` for each run in parallel (the runs are independent; each task builds its own
    /// file system and store) and sums the results.
    static func inParallel(_ runs: [Run], _ body: @escaping @Sendable (Run) throws -> CrashRunResult) async throws -> CrashTally {
        let tally = CrashTally()
        try await withThrowingTaskGroup(of: CrashRunResult.self) { group in
            for run in runs { group.addTask { try body(run) } }
            for try await result in group { tally.add(result) }
        }
        return tally
    }

    /// C2–C4 from a fresh store, through several compactions.
    @Test func freshStoreHasNoViolations() async throws {
        let tally = try await Self.inParallel(Self.freshRuns) { run in
            switch run.fileKiB {
            case 4: try Self.runFresh(SmallFileStoreCrashSubject.self, run)
            case 16: try Self.runFresh(LargeFileStoreCrashSubject.self, run)
            default: try Self.runFresh(FileStoreCrashSubject.self, run)
            }
        }
        let compactions = tally.compactions
        let runs = Self.freshRuns.prefix(Self.freshRuns.count / CrashScale.factor)
            .map { "\($0.commits) on \($0.fileKiB) KiB" }.joined(separator: ", ")
            + (CrashScale.factor > 1 ? ", × \(CrashScale.factor) seeds" : "")
        print(tally.summary("FileStore") + " (commits: \(runs); \(compactions) compactions; lived through "
            + "\(tally.powerCuts) power cuts mid-commit, \(tally.powerCutsKeepingTheCommit) keeping the commit)")
        #expect(compactions >= 6, "the workload must force several compactions (C4)")
        #expect(tally.violations == 0, "\(tally.report)")
    }

    /// C4 migration: the run starts from a schema-1 store, so the first open writes a schema-2
    /// generation into the spare; crashes inside that open, and inside the recovery that
    /// redoes it, must recover the schema-1 state.
    @Test func storeMigratedFromSchema1HasNoViolations() async throws {
        let runs = CrashScale.seeds([Run(seed: 101, commits: 60), Run(seed: 102, commits: 60)])
        let tally = try await Self.inParallel(runs) { run in
            let tally = CrashTally()
            let fs = CrashableFileSystem()
            var workload = CrashWorkload(seed: run.seed)
            let legacy = CrashLegacyStore.seed(fs, workload: &workload)
            let explorer = CrashExplorer<FileStoreCrashSubject>(
                fs: fs, label: "schema-1 seed \(run.seed)", tally: tally, seed: run.seed)
            explorer.model = legacy
            explorer.lastAcknowledged = legacy.keys.max()!
            try explorer.open()
            #expect(explorer.subject!.store.report.migratedFrom == 1)
            #expect(explorer.subject!.store.generation == 2)
            explorer.run(&workload, commits: run.commits)
            explorer.finish()
            return tally.result
        }
        Self.cutPowerInsideOpen(label: "schema-1 seed 103", tally: tally) { fs in
            var workload = CrashWorkload(seed: 103)
            return CrashLegacyStore.seed(fs, workload: &workload)
        }
        print(tally.summary("FileStore from schema 1") + " (\(runs.count) seeds × \(runs[0].commits) commits, crashes inside the migration)")
        #expect(tally.violations == 0, "\(tally.report)")
    }
}

/// `CRASH_CONSISTENCY_SCALE=n` multiplies the seeds of the workload suites, for a soak run
/// outside CI (the default, 1, keeps the debug `swift test` under ~30 s on 2 cores).
enum CrashScale {
    static let factor: Int = getenv("CRASH_CONSISTENCY_SCALE").flatMap { Int(String(cString: $0)) }.map { max($0, 1) } ?? 1

    static func seeds(_ runs: [CrashConsistencyFileStoreTests.Run]) -> [CrashConsistencyFileStoreTests.Run] {
        (0..<factor).flatMap { k in runs.map { var run = $0; run.seed += UInt64(1000 * k); return run } }
    }
}

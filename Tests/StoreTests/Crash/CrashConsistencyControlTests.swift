import HAL
import HALSim
import SystemPackage
import Testing
@testable import Store

/// docs/design/decisions.md#crash-tests, C8: the harness must catch each negative control. They run through the
/// same explorer and oracle as the file store, from creation on, with fewer commits (the
/// rename-without-fsync control never syncs, so its pending list, and with it the number of
/// sampled subsets per crash point, grows with every commit).
@Suite struct CrashConsistencyControlTests {
    static func run<Subject: CrashSubject>(_: Subject.Type, commits: Int) throws -> CrashTally {
        let tally = CrashTally()
        let explorer = CrashExplorer<Subject>(label: "\(Subject.name) seed 1", tally: tally, seed: 1)
        var workload = CrashWorkload(seed: 1)
        try explorer.open()
        explorer.run(&workload, commits: commits)
        explorer.finish()
        print(tally.summary(Subject.name))
        return tally
    }

    @Test func truncatingRewriteIsCaught() throws {
        #expect(try Self.run(TruncatingRewriteControl.self, commits: 20).violations > 0)
    }

    @Test func renameWithoutSyncIsCaught() throws {
        #expect(try Self.run(RenameWithoutSyncControl.self, commits: 6).violations > 0)
    }

    @Test func renameWithoutDirectorySyncIsCaught() throws {
        #expect(try Self.run(RenameWithoutDirectorySyncControl.self, commits: 8).violations > 0)
    }

    @Test func logWithoutChecksumIsCaught() throws {
        #expect(try Self.run(LogWithoutChecksumControl.self, commits: 40).violations > 0)
    }
}

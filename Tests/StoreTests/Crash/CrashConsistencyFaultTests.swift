import HAL
import HALSim
import SystemPackage
import Testing
@testable import Store

/// docs/design/decisions.md#crash-tests, C5: faults during commits and opens. Each fault round injects
/// one fault into a commit, checks what the store acknowledges and tells its observers, lets
/// it retry, checks the fsyncgate rule, and judges a crash before every operation of the
/// round with the same oracle as the workload suites (C3).
@Suite struct CrashConsistencyFaultTests {
    static let seeds: [UInt64] = (0..<CrashScale.factor).flatMap { k in [11, 12, 13].map { $0 + UInt64(1000 * k) } }
    static let rounds = 10

    @Test func failedCommitsAreNeverAcknowledgedAndRetriesMakeThemDurable() throws {
        let tally = CrashTally()
        var faults: [String: Int] = [:]
        var fsyncgateChecks = 0
        for (index, seed) in Self.seeds.enumerated() {
            let explorer = CrashExplorer<FileStoreCrashSubject>(label: "faults seed \(seed)", tally: tally, seed: seed)
            var workload = CrashWorkload(seed: seed)
            var random = SplitMix64(seed: seed)
            try explorer.open(explore: false)
            let subject = explorer.subject!
            let log = CrashEventLog()
            subject.store.observe { log.events.append($0) }
            for round in 0..<Self.rounds {
                explorer.judging = false  // the healthy commits between faults are the workload suites' business
                explorer.run(&workload, commits: random.next(in: 0...8))
                explorer.judging = true
                let fault = CrashFault.all[(index * Self.rounds + round) % CrashFault.all.count]
                faults["\(fault)", default: 0] += 1
                if runRound(explorer, fault, log: log, workload: &workload, random: &random, label: "seed \(seed) round \(round)") {
                    fsyncgateChecks += 1
                }
            }
            explorer.finish()
        }
        print(tally.summary("FileStore faults") + " (\(Self.seeds.count * Self.rounds) faults: "
            + faults.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: ", ")
            + "; \(fsyncgateChecks) fsyncgate checks)")
        #expect(tally.violations == 0, "\(tally.report)")
    }

    /// One fault round; returns whether it checked the fsyncgate rule.
    func runRound(
        _ explorer: CrashExplorer<FileStoreCrashSubject>, _ fault: CrashFault, log: CrashEventLog,
        workload: inout CrashWorkload, random: inout SplitMix64, label: String
    ) -> Bool {
        let fs = explorer.fs
        let subject = explorer.subject!
        let store = subject.store
        let where_ = "\(label) (\(fault))"

        // The faulted commit: never acknowledged, and observers hear `.degraded`.
        var change = changing(&workload, explorer.expected)
        if case .compactionSync = fault {  // fill the log until this change must compact
            explorer.judging = false
            while !CrashFault.compacts(change, in: store) {
                explorer.commit(change, step: "\(label), filling the log")
                change = changing(&workload, explorer.expected)
            }
            explorer.judging = true
        }
        var changes = [change]
        let mark = log.events.count
        let traceMark = explorer.trace.count
        let generation = store.generation
        let acknowledged = explorer.lastAcknowledged
        fault.inject(into: fs, store: store, change: change)
        let outcome = explorer.commit(change, step: "\(label), faulted commit")
        CrashFault.clear(fs)
        #expect(outcome == .pending, "\(where_): a failed commit gave \(String(describing: outcome))")
        #expect(log.committed(since: mark).isEmpty, "\(where_): observers heard of a change that is not durable")
        #expect(log.health(since: mark).contains { if case .degraded = $0 { true } else { false } },
                "\(where_): observers did not hear .degraded")
        if case .shortWrite = fault, let write = explorer.trace[traceMark].write {
            #expect(write.kind == .write(offset: write.kind.offset, count: 16), "\(where_): the write was not cut short")
        }

        // While degraded, further changes stay in memory: pending, no I/O.
        for _ in 0..<random.next(in: 0...2) {
            let before = fs.operationCount
            changes.append(changing(&workload, explorer.expected))
            let more = explorer.commit(changes.last!, step: "\(label), degraded commit")
            #expect(more == .pending && fs.operationCount == before, "\(where_): a degraded commit gave \(String(describing: more))")
        }

        // Sometimes the first retry fails too (not after a failed fdatasync: there the first
        // write after the failure is what the fsyncgate check inspects).
        if !fault.failsSync, random.chance(0.3) {
            fs.failNext([.write, .synchronizeData][Int(random.next(below: 2))], with: .io)
            store.retry()
            CrashFault.clear(fs)
            #expect(store.pending.count == Int(explorer.highestInFlight - acknowledged), "\(where_): a failed retry lost changes")
            #expect(log.committed(since: mark).isEmpty, "\(where_): a failed retry was reported durable")
        }

        // Recover: at once, or when the backoff runs out (and not before).
        if random.chance(0.5) {
            store.retry()
        } else if let due = store.nextRetry {
            let before = fs.operationCount
            store.retryIfDue()
            #expect(fs.operationCount == before, "\(where_): retryIfDue wrote before its time")
            subject.clock.advance(to: due)
            store.retryIfDue()
        }
        #expect(store.health == .healthy, "\(where_): still \(store.health) after the retry")
        #expect(store.sequence == explorer.highestInFlight && store.state == explorer.expected, "\(where_): retry lost changes")
        let heard = log.committed(since: mark)
        #expect(heard.map(\.sequence) == Array((acknowledged + 1)...explorer.highestInFlight) && heard.map(\.change) == changes,
                "\(where_): observers heard sequences \(heard.map(\.sequence))")
        #expect(log.health(since: mark).last == .healthy, "\(where_): observers did not hear .healthy")
        if fault.failsSync, let problem = explorer.checkWriteAfterFailedSync(fault, since: traceMark, generation: generation) {
            Issue.record("\(where_): \(problem)")
        }
        explorer.acknowledgeAll()
        return fault.failsSync
    }

    func changing(_ workload: inout CrashWorkload, _ state: StoreState) -> StoreChange {
        while true {
            let change = workload.nextChange(after: state)
            if (try? state.validate(change)) == true { return change }
        }
    }

    /// Any single operation of open may fail with EIO, ENOSPC or EROFS: open then throws or
    /// serves the right state, and once the fault is gone the store opens intact.
    @Test func aFailedOperationDuringOpenLeavesTheStoreIntact() throws {
        let fs = CrashableFileSystem()
        let store = try FileStoreCrashSubject(opening: fs)
        var workload = CrashWorkload(seed: 21)
        for _ in 0..<100 { _ = try store.commit(workload.nextChange(after: store.state)) }
        let (state, sequence) = (store.state, store.sequence)
        #expect(store.store.generation > 1)
        store.close()
        let before = fs.operationCount
        try FileStoreCrashSubject(opening: fs).close()
        let operations = fs.operationCount - before
        var failedOpens = 0
        for k in 0..<operations {
            for kind in [FileSystemError.Kind.io, .noSpace, .readOnly] {
                let disk = fs.copy()
                disk.fail(CrashableFileSystem.Operation.failable, with: kind, count: 1, afterOperations: k)
                if let opened = try? FileStoreCrashSubject(opening: disk) {
                    #expect(opened.state == state && opened.sequence == sequence, "op \(k) failing with \(kind)")
                    opened.close()
                } else {
                    failedOpens += 1
                }
                disk.clearFaults()
                let again = try FileStoreCrashSubject(opening: disk)
                #expect(again.state == state && again.sequence == sequence && again.dataLossReport == nil,
                        "after op \(k) of open failed with \(kind)")
                again.close()
            }
        }
        #expect(failedOpens > 0)
    }
}

extension PendingOperation.Kind {
    var offset: Int64 {
        if case .write(let offset, _) = self { return offset }
        return -1
    }
}

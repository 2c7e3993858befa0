import HAL
import HALSim
import SystemPackage
import Testing
@testable import Store

/// The file system as it was just before one operation, and the sequence numbers a crash there
/// may recover (C3: the last acknowledged one up to the highest handed to the store).
struct CrashPoint {
    var disk: CrashableFileSystem
    var operation: CrashableFileSystem.Operation
    var number: Int
    var allowed: ClosedRange<UInt64>
    var step: String
}

/// Drives one subject through a workload on a `CrashableFileSystem`, keeps the model (the state
/// after each sequence number), copies the file system before every operation that can change
/// it (C2: a copy taken before op k is the state after op k − 1; copies before reads are
/// skipped because they equal the copy before the next change), and judges every crash each
/// copy allows with the oracle in `CrashExplorer+Oracle.swift`.
final class CrashExplorer<Subject: CrashSubject> {
    /// Operations before which a copy is taken: the seam's changing calls, plus `open`, which
    /// can create a name.
    static var recorded: Set<CrashableFileSystem.Operation> { CrashableFileSystem.Operation.changing.union([.open]) }

    let fs: CrashableFileSystem
    let label: String
    let tally: CrashTally
    /// Subset samples when more than 8 operations are pending (C2: ≥ 256).
    var samples = 256
    /// Whether copies are taken at all (a fault run skips the healthy commits between faults,
    /// which the workload suites cover).
    var judging = true
    var subject: Subject?
    var model: [UInt64: StoreState] = [0: .initial]
    var lastAcknowledged: UInt64 = 0
    /// The highest sequence number handed to the store; above `lastAcknowledged` while a commit
    /// runs, or while a degraded store keeps changes in memory.
    var highestInFlight: UInt64 = 0
    var step = "open"
    private var points: [CrashPoint] = []
    /// Verdicts by disk image and allowed range (see `judge`).
    var verdicts: [CrashVerdictKey: String?] = [:]
    /// Garbage seeds, subset samples and the power cuts' crash choices.
    var random: SplitMix64
    /// Writes seen, with what followed, for the fsyncgate checks of C5.
    private(set) var trace: [(operation: CrashableFileSystem.Operation, number: Int, write: PendingOperation?)] = []
    private var pendingBefore = 0

    init(fs: CrashableFileSystem = CrashableFileSystem(), label: String, tally: CrashTally, seed: UInt64) {
        self.fs = fs
        self.label = label
        self.tally = tally
        random = SplitMix64(seed: seed ^ 0xC4A5_4C4A_5C4A_5C4A)
        fs.onOperation = { [unowned self] operation, number in self.willRun(operation, number) }
    }

    var expected: StoreState { model[highestInFlight]! }

    private func willRun(_ operation: CrashableFileSystem.Operation, _ number: Int) {
        resolveTrace()
        trace.append((operation, number, nil))
        pendingBefore = fs.pendingOperations.count
        guard judging, Self.recorded.contains(operation) else { return }
        points.append(
            CrashPoint(disk: fs.copy(), operation: operation, number: number, allowed: lastAcknowledged...highestInFlight, step: step))
    }

    /// Fills in the write the previous operation made, if it was a write that succeeded.
    private func resolveTrace() {
        guard let last = trace.indices.last, trace[last].operation == .write, trace[last].write == nil else { return }
        let pending = fs.pendingOperations
        if pending.count > pendingBefore, case .write = pending.last!.kind { trace[last].write = pending.last }
    }

    /// Opens the store (creating or migrating it) and judges every crash during the open, where
    /// nothing but `lastAcknowledged` may be recovered.
    /// `explore: false` skips the crashes inside this open (creation does the same operations
    /// whatever the seed, so one seed explores it).
    func open(explore: Bool = true) throws {
        step = "open"
        highestInFlight = lastAcknowledged
        subject = try Subject(opening: fs)
        #expect(subject!.sequence == lastAcknowledged, "\(label): open recovered \(subject!.sequence)")
        #expect(subject!.state == expected, "\(label): open recovered a different state")
        if !explore { points = [] }
        judgeRecorded()
    }

    /// Commits one change, checks the outcome against the model, and judges every crash during
    /// the commit. A change that changes nothing must do no I/O (C4).
    @discardableResult
    func commit(_ change: StoreChange, step name: String) -> CommitOutcome? {
        step = name
        let changes: Bool
        do { changes = try expected.validate(change) } catch {
            Issue.record("\(label) \(name): the workload made an invalid change \(change): \(error)")
            return nil
        }
        var next = expected
        next.apply(change)
        let number = highestInFlight + 1
        if changes {
            model[number] = next
            highestInFlight = number
        }
        let before = fs.operationCount
        let outcome: CommitOutcome
        do { outcome = try subject!.commit(change) } catch {
            Issue.record("\(label) \(name): commit refused \(change): \(error)")
            return nil
        }
        switch outcome {
        case .unchanged:
            #expect(!changes, "\(label) \(name): \(change) reported unchanged")
            #expect(fs.operationCount == before, "\(label) \(name): a change that changes nothing did I/O")
        case .durable(let sequence):
            #expect(changes && sequence == number, "\(label) \(name): acknowledged as \(sequence), expected \(number)")
            lastAcknowledged = sequence
        case .pending:
            break  // the caller (the fault suite) expects it or not
        }
        judgeRecorded()
        return outcome
    }

    /// After a retry wrote what was pending: everything handed to the store is acknowledged.
    func acknowledgeAll() {
        lastAcknowledged = highestInFlight
        judgeRecorded()
    }

    /// Runs `count` changes of the seeded workload.
    func run(_ workload: inout CrashWorkload, commits count: Int) {
        for index in 0..<count { commit(workload.nextChange(after: expected), step: "commit \(index)") }
    }

    /// Judges the state at the end (after the last operation) and closes the subject.
    func finish() {
        points.append(CrashPoint(disk: fs.copy(), operation: .close, number: fs.operationCount + 1,
                                 allowed: lastAcknowledged...highestInFlight, step: "end"))
        judgeRecorded()
        subject?.close()
        fs.onOperation = nil
    }

    /// Judges every crash state of the copies taken since the last call, then drops them.
    func judgeRecorded() {
        resolveTrace()
        let taken = points
        points = []
        for point in taken {
            for choice in choices(point.disk.pendingOperations, reduced: false) {
                let where_ = "\(label), \(point.step), before op #\(point.number) \(point.operation), \(choice)"
                judge(choice.crash(point.disk), allowed: point.allowed, where: where_, depth: 0)
            }
        }
    }

    /// C1/C2: every in-order subset of the pending operations (exhaustive up to 8, else the
    /// empty and full sets plus `samples` seeded subsets), and the last unsynced write torn at
    /// every 512-byte boundary and at 1, L/2 and L−1, with the rest old, zeros or garbage.
    /// `reduced` (crashes inside a recovery): subsets only up to 3 pending, tears at L/2.
    func choices(_ pending: [PendingOperation], reduced: Bool) -> [CrashChoice] {
        var result: [CrashChoice] = []
        let n = pending.count
        if n <= (reduced ? 3 : 8) {
            for mask in 0..<(1 << n) { result.append(.keep((0..<n).map { mask & (1 << $0) != 0 }, of: n)) }
        } else {
            result.append(.keep(Array(repeating: false, count: n), of: n))
            result.append(.keep(Array(repeating: true, count: n), of: n))
            for _ in 0..<(reduced ? 0 : samples) { result.append(.keep((0..<n).map { _ in random.chance(0.5) }, of: n)) }
        }
        guard let last = pending.last(where: { if case .write = $0.kind { true } else { false } }),
            case .write(_, let length) = last.kind, length > 1
        else { return result }
        var cuts = reduced ? [length / 2] : Array(Swift.stride(from: 512, to: length, by: 512)) + [1, length / 2, length - 1]
        cuts = Array(Set(cuts.filter { $0 > 0 && $0 < length })).sorted()
        let tails: [CrashableFileSystem.TornWriteTail] =
            reduced ? [.garbage(seed: random.next())] : [.old, .zeros, .garbage(seed: random.next())]
        for cut in cuts {
            for tail in tails { result.append(.tear(at: cut, of: length, tail: tail)) }
        }
        return result
    }
}

/// One way to crash a copy, described so that a violation can be replayed.
enum CrashChoice: CustomStringConvertible {
    case keep([Bool], of: Int)
    case tear(at: Int, of: Int, tail: CrashableFileSystem.TornWriteTail)

    /// Crashes a fresh copy of `disk` this way, with faults cleared: recovery is judged on what
    /// the crash left, not on faults a fault run injected before it (those are C5's business).
    func crash(_ disk: CrashableFileSystem) -> CrashableFileSystem {
        let copy = disk.copy()
        copy.clearFaults()
        copy.isReadOnly = false
        copy.capacity = nil
        apply(to: copy)
        return copy
    }

    /// Crashes `disk` itself this way.
    func apply(to disk: CrashableFileSystem) {
        switch self {
        case .keep(let mask, _): disk.crash(keepingPending: { mask[$0.index] })
        case .tear(let cut, _, let tail): disk.crash(keepingPending: { _ in true }, tearingLastWriteAt: cut, tail: tail)
        }
    }

    var description: String {
        switch self {
        case .keep(let mask, let n):
            "crash keeping pending \(mask.indices.filter { mask[$0] }) of \(n)"
        case .tear(let cut, let length, let tail):
            "crash keeping all pending, last write (\(length) B) torn at \(cut), tail \(tail)"
        }
    }
}

import HAL
import HALSim
import SystemPackage
import Testing
@testable import Store

/// Power cuts the workload lives through (C3, last bullet: after recovery, committing and
/// re-enumerating still passes). The crash states judged elsewhere each get one commit after
/// recovery; here the run itself loses power in the middle of a commit, recovers, and carries
/// on for many commits, so later commits, compactions and crashes happen in files that hold
/// what the earlier crash left (torn entries, an abandoned snapshot).
extension CrashExplorer {
    /// Commits `change` with the power cut after `operations` of its calls (0: before the
    /// pwrite, 1: between the pwrite and the fdatasync), crashes the file system in a seeded
    /// way C1 allows, reopens the store and checks it, and continues from what it recovered.
    /// Returns false (after recording a violation) when the run cannot continue.
    func commitCuttingPower(_ change: StoreChange, afterOperations operations: Int, step name: String) -> Bool {
        guard (try? expected.validate(change)) == true else { return true }
        step = name
        var next = expected
        next.apply(change)
        let number = highestInFlight + 1
        model[number] = next
        highestInFlight = number
        fs.cutPower(afterOperations: operations)
        let outcome = try? subject!.commit(change)
        #expect(outcome == .pending, "\(label) \(name): a commit without power gave \(String(describing: outcome))")
        judgeRecorded()

        let options = choices(fs.pendingOperations, reduced: false)
        let choice = options[Int(random.next(below: UInt64(options.count)))]
        choice.apply(to: fs)
        subject!.close()
        let place = "\(label), \(name), power cut after \(operations) calls, \(choice)"
        tally.states += 1
        do {
            subject = try Subject(opening: fs)
        } catch {
            tally.violation(at: place, "open failed: \(error)")
            return false
        }
        let recovered = subject!.sequence
        guard (lastAcknowledged...number).contains(recovered), subject!.state == model[recovered] else {
            tally.violation(at: place, "recovered sequence \(recovered) (allowed \(lastAcknowledged)...\(number)) or its state is wrong")
            return false
        }
        if let report = subject!.dataLossReport { tally.violation(at: place, "recovery reported \(report)") }
        judgeRecorded()  // crashes during the reopen, if it wrote anything
        tally.powerCuts += 1
        if recovered == number { tally.powerCutsKeepingTheCommit += 1 }
        model = model.filter { $0.key <= recovered }
        (lastAcknowledged, highestInFlight) = (recovered, recovered)
        return true
    }

    /// `run` with a power cut in the middle of every `interval`-th commit.
    func run(_ workload: inout CrashWorkload, commits count: Int, powerCutEvery interval: Int) {
        for index in 0..<count {
            let change = workload.nextChange(after: expected)
            if index % interval == interval - 1 {
                let operations = Int(random.next(below: 2))
                guard commitCuttingPower(change, afterOperations: operations, step: "commit \(index)") else { return }
            } else {
                commit(change, step: "commit \(index)")
            }
        }
    }
}

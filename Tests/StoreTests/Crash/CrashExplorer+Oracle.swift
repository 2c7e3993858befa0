import HAL
import HALSim
import SystemPackage
@testable import Store

/// The oracle of docs/design/decisions.md#crash-tests, C3, applied to one crashed file system.
///
/// - Open succeeds (a torn tail never makes it fail).
/// - The recovered sequence number lies between the last acknowledged one and the highest one
///   handed to the store (in a healthy run exactly {acknowledged, in flight}; a degraded store
///   may hold several unacknowledged changes, and a retry writes them all at once).
/// - The recovered state is the model's state at that number: transactions are all-or-nothing.
/// - Damage rule: no report that data may be lost, and health `.healthy`. A power cut without
///   faults leaves at most a torn *last* entry, which recovery ignores without reporting it, and
///   the store never truncates, grows or removes a file after creating it, so `.wrongSize`,
///   `.missing`, `.unreadableAfter`, `.unusableRecord` and `.malformedSnapshot` can only come
///   from a bug. A crash while the store is created is no exception: nothing was acknowledged
///   yet, so nothing can be lost. `.repairedFromCopy` (no data lost) is allowed: after a tear that kept the first
///   copy of the last entry, the next commit follows an entry with a damaged copy.
/// - Then one more change commits and a clean reopen shows it (recovery + continuing works).
/// - When the recovery itself writes (creating the store, migrating, refilling the spare), a
///   crash before each of its changing operations is judged too, with the same rules and a
///   reduced set of crash choices.
extension CrashExplorer {
    /// Judges one crashed file system. Identical disk images with the same allowed range get
    /// the same verdict, so each distinct image is recovered once (different crash choices
    /// often leave the same bytes: a tail torn over zeros with `.old` or `.zeros`).
    func judge(_ disk: CrashableFileSystem, allowed: ClosedRange<UInt64>, where place: String, depth: Int) {
        tally.states += 1
        var hasher = Hasher()
        let image = disk.image()
        for path in image.files.keys.sorted() {
            hasher.combine(path)
            image.files[path]!.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
        hasher.combine(image.directories.sorted())
        let key = CrashVerdictKey(image: hasher.finalize(), allowed: allowed, exploresRecovery: depth == 0)
        let problem: String?
        if let known = verdicts[key] {
            problem = known
        } else {
            tally.distinct += 1
            problem = verdict(disk, allowed: allowed, where: place, depth: depth)
            verdicts[key] = .some(problem)
        }
        if let problem { tally.violation(at: place, problem) }
    }

    private func verdict(_ disk: CrashableFileSystem, allowed: ClosedRange<UInt64>, where place: String, depth: Int) -> String? {
        var nested: [CrashPoint] = []
        if depth == 0 {
            disk.onOperation = { [unowned disk] operation, number in
                guard Self.recorded.contains(operation) else { return }
                nested.append(CrashPoint(disk: disk.copy(), operation: operation, number: number, allowed: allowed, step: place))
            }
        }
        let recovered: Subject
        do { recovered = try Subject(opening: disk) } catch {
            disk.onOperation = nil
            return "open failed: \(error)"
        }
        disk.onOperation = nil
        defer { recovered.close() }
        if let problem = check(recovered, allowed: allowed) { return problem }

        for point in nested {
            for choice in choices(point.disk.pendingOperations, reduced: true) {
                let inner = "\(place); during recovery, before op #\(point.number) \(point.operation), \(choice)"
                judge(choice.crash(point.disk), allowed: allowed, where: inner, depth: depth + 1)
            }
        }

        let sequence = recovered.sequence
        var state = recovered.state
        let change = CrashWorkload.nudge(state)
        state.apply(change)
        do {
            let outcome = try recovered.commit(change)
            guard outcome == .durable(sequence: sequence + 1) else { return "the commit after recovery gave \(outcome)" }
        } catch {
            return "the commit after recovery was refused: \(error)"
        }
        recovered.close()
        do {
            let reopened = try Subject(opening: disk)
            defer { reopened.close() }
            if reopened.sequence != sequence + 1 || reopened.state != state {
                return "after recovery and one commit, reopen gave \(reopened.sequence), expected \(sequence + 1)"
            }
            if let report = reopened.dataLossReport { return "reopen after the commit reported \(report)" }
        } catch {
            return "reopen after recovery and one commit failed: \(error)"
        }
        return nil
    }

    private func check(_ recovered: Subject, allowed: ClosedRange<UInt64>) -> String? {
        let sequence = recovered.sequence
        guard allowed.contains(sequence) else { return "recovered sequence \(sequence), allowed \(allowed)" }
        guard let state = model[sequence] else { return "recovered sequence \(sequence) has no model state" }
        guard recovered.state == state else {
            return "recovered sequence \(sequence) but not its state (\(recovered.state) ≠ \(state))"
        }
        if let report = recovered.dataLossReport { return "recovery reported \(report)" }
        return nil
    }
}

struct CrashVerdictKey: Hashable {
    var image: Int
    var allowed: ClosedRange<UInt64>
    var exploresRecovery: Bool
}

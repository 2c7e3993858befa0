import HAL
import HALSim
import SystemPackage
import Testing
@testable import Store

/// What the store told its observers, in order.
final class CrashEventLog {
    var events: [StoreEvent] = []

    func committed(since mark: Int) -> [(sequence: UInt64, change: StoreChange)] {
        events[mark...].compactMap { if case .committed(let s, let c, _) = $0 { (s, c) } else { nil } }
    }

    func health(since mark: Int) -> [StoreHealth] {
        events[mark...].compactMap { if case .health(let h) = $0 { h } else { nil } }
    }
}

/// One fault of docs/design/decisions.md#crash-tests, C5, injected into the next commit.
enum CrashFault: CustomStringConvertible {
    /// The commit's next call of `operation` fails with `kind`.
    case failNext(CrashableFileSystem.Operation, FileSystemError.Kind)
    /// Whatever call comes `index`-th in the commit fails (`fail(afterOperations:)`): a log
    /// append's fdatasync, or a compaction's pwrite (a compaction first checks the spare's size).
    case nthOperation(Int, FileSystemError.Kind)
    /// The next commit is a compaction (the log is full) and its fdatasync fails.
    case compactionSync(FileSystemError.Kind)
    /// The pwrite is cut short by a full disk (`capacity`); the rest then fails with ENOSPC.
    case shortWrite
    /// The file system is remounted read-only (EROFS) for the commit.
    case readOnlyMount

    /// Every fault, taken in turn by the fault rounds.
    static let all: [CrashFault] = [
        .failNext(.write, .io), .failNext(.write, .noSpace), .failNext(.write, .readOnly),
        .failNext(.synchronizeData, .io), .failNext(.synchronizeData, .noSpace), .failNext(.synchronizeData, .readOnly),
        .nthOperation(1, .io), .compactionSync(.noSpace), .shortWrite, .readOnlyMount,
    ]

    /// Whether an fdatasync is the call that fails (the fsyncgate case).
    var failsSync: Bool {
        switch self {
        case .failNext(.synchronizeData, _), .compactionSync: true
        default: false
        }
    }

    var description: String {
        switch self {
        case .failNext(let operation, let kind): "\(operation == .write ? "pwrite" : "fdatasync") fails with \(kind)"
        case .nthOperation(let index, let kind): "call \(index) of the commit fails with \(kind)"
        case .compactionSync(let kind): "compaction's fdatasync fails with \(kind)"
        case .shortWrite: "short pwrite, then ENOSPC"
        case .readOnlyMount: "read-only mount"
        }
    }

    /// The size of the entry `change` makes in `store`.
    static func entrySize(_ change: StoreChange, in store: FileStoreCrashSubject.Backend) -> Int {
        var buffer = [UInt8](repeating: 0, count: 2 * Record.blockSize)
        let old = store.state.settings
        return buffer.withUnsafeMutableBytes { raw in
            Record.encodeEntry(into: raw, kind: .change, generation: 0, sequence: 0) {
                ChangeCodec.encode(change, old: old, into: &$0)
            }
        }
    }

    /// Whether committing `change` now writes a snapshot into the spare rather than a log entry.
    static func compacts(_ change: StoreChange, in store: FileStoreCrashSubject.Backend) -> Bool {
        store.mustCompact || store.appendOffset(entrySize(change, in: store)) == nil
    }

    /// Arms the fault for `change`, the next commit of `store`.
    func inject(into fs: CrashableFileSystem, store: FileStoreCrashSubject.Backend, change: StoreChange) {
        switch self {
        case .failNext(let operation, let kind):
            fs.failNext(operation, with: kind)
        case .nthOperation(let index, let kind):
            fs.fail(CrashableFileSystem.Operation.failable, with: kind, count: 1, afterOperations: index)
        case .compactionSync(let kind):
            fs.failNext(.synchronizeData, with: kind)
        case .shortWrite:
            // Leave room for exactly 16 bytes at the offset the entry will be written to.
            let offset = Self.compacts(change, in: store) ? 0 : store.appendOffset(Self.entrySize(change, in: store))!
            fs.capacity = fs.usedBytes - store.configuration.fileSize + offset + 16
        case .readOnlyMount:
            fs.isReadOnly = true
        }
    }

    static func clear(_ fs: CrashableFileSystem) {
        fs.clearFaults()
        fs.capacity = nil
        fs.isReadOnly = false
    }
}

extension CrashExplorer where Subject == FileStoreCrashSubject {
    /// C5 fsyncgate: after the fdatasync of file X failed, X's unsynced pages are gone, so the
    /// store must not sync X again as though they were safe. The next write must come before
    /// any sync, be a snapshot of a newer generation at offset 0, and go to the other file
    /// when the lost write was a log append (a failed compaction is redone from offset 0 in
    /// the same spare: every byte that matters is written again). Returns a problem, or nil.
    func checkWriteAfterFailedSync(_ fault: CrashFault, since mark: Int, generation: UInt32) -> String? {
        let steps = Array(trace[mark...])
        guard let failed = steps.firstIndex(where: { $0.operation == .synchronizeData }), failed > 0,
            let lost = steps[failed - 1].write, case .write(let lostOffset, _) = lost.kind
        else { return "no pwrite followed by fdatasync in \(steps.map(\.operation))" }
        let syncs: Set<CrashableFileSystem.Operation> = [.synchronizeData, .synchronize, .synchronizeDirectory]
        guard let next = steps[(failed + 1)...].first(where: { $0.operation == .write || syncs.contains($0.operation) }) else {
            return "nothing written after the failed fdatasync"
        }
        guard next.operation == .write, let write = next.write, case .write(let offset, _) = write.kind else {
            return "after the failed fdatasync of \(lost.path), op #\(next.number) \(next.operation) came before any new snapshot"
        }
        if offset != 0 { return "the first write after the failed fdatasync is at offset \(offset), not a snapshot at 0" }
        if case .compactionSync = fault, lostOffset != 0 { return "the failed fdatasync was not a compaction's" }
        if lostOffset != 0, write.path == lost.path {
            return "the snapshot after the failed fdatasync went to the same file \(lost.path)"
        }
        let bytes = fs.contents(of: write.path) ?? []
        guard let record = bytes.withUnsafeBytes({ ParsedRecord($0, at: 0) }), record.kind == .snapshot,
            record.generation > generation
        else { return "the write after the failed fdatasync is not a snapshot of a generation after \(generation)" }
        return nil
    }
}

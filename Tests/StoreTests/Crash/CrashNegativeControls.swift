import HAL
import HALSim
import SystemPackage
@testable import Store

// The negative controls of docs/design/decisions.md#crash-tests, C8: small stores with one known flaw each, run
// through the same workload, crash points and oracle as the file store. If the harness passed
// any of them, it would prove nothing about the file store. Each creates its files correctly
// (CrashControlFiles.createDurably) so that what the harness catches is the flaw in its commit.

/// Shared bookkeeping of the controls: the state, its number, no I/O for a no-op change.
class CrashControlStore {
    let fs: CrashableFileSystem
    var state: StoreState
    var sequence: UInt64
    var dataLossReport: String? { nil }  // the controls detect nothing, so they report nothing

    init(fs: CrashableFileSystem, state: StoreState, sequence: UInt64) {
        self.fs = fs
        self.state = state
        self.sequence = sequence
    }

    /// Validates, applies and persists with `persist`; acknowledges only if it returns.
    func commit(_ change: StoreChange, persist: (StoreState, UInt64) throws -> Void) throws(StoreError) -> CommitOutcome {
        guard try state.validate(change) else { return .unchanged }
        var next = state
        next.apply(change)
        do { try persist(next, sequence + 1) } catch { return .pending }
        state = next
        sequence += 1
        return .durable(sequence: sequence)
    }

    func close() {}

    /// Opens the whole-state file at `path`, creating it durably if it does not exist.
    static func openBlob(_ fs: CrashableFileSystem, _ path: FilePath) throws -> (StoreState, UInt64) {
        if let bytes = try CrashControlFiles.read(fs, path) { return try CrashControlBlob.decode(bytes) }
        try CrashControlFiles.createDurably(fs, path, CrashControlBlob.encode(sequence: 0, .initial))
        return (.initial, 0)
    }
}

/// (a) `open(O_TRUNC)`-style rewrite in place: truncate, write the whole state, fsync. A crash
/// between the truncate and the fsync leaves an empty or half-written file.
final class TruncatingRewriteControl: CrashControlStore, CrashSubject {
    static let name = "control (a) O_TRUNC rewrite in place"
    static let path: FilePath = "/ctl/state"

    required init(opening fs: CrashableFileSystem) throws {
        let (state, sequence) = try Self.openBlob(fs, Self.path)
        super.init(fs: fs, state: state, sequence: sequence)
    }

    func commit(_ change: StoreChange) throws(StoreError) -> CommitOutcome {
        try commit(change) { state, sequence in
            let file = try fs.open(Self.path, .readWrite)
            defer { fs.close(file) }
            try fs.resize(file, to: 0)
            try CrashControlFiles.write(fs, file, CrashControlBlob.encode(sequence: sequence, state), at: 0)
            try fs.synchronize(file)
        }
    }
}

/// The temporary-file-and-rename pattern, with or without syncing the temporary file; never
/// syncs the directory.
class RenamingControl: CrashControlStore {
    static let path: FilePath = "/ctl/state"
    static let temporary: FilePath = "/ctl/state.tmp"

    func persist(_ state: StoreState, _ sequence: UInt64, syncFile: Bool) throws {
        let file = try fs.open(Self.temporary, FileOpenMode(writable: true, create: true))
        try fs.resize(file, to: 0)
        try CrashControlFiles.write(fs, file, CrashControlBlob.encode(sequence: sequence, state), at: 0)
        if syncFile { try fs.synchronize(file) }
        fs.close(file)
        try fs.rename(Self.temporary, to: Self.path)
    }
}

/// (b) tmp file + rename with no fsync at all (what `Data.write(.atomic)` does on many systems).
final class RenameWithoutSyncControl: RenamingControl, CrashSubject {
    static let name = "control (b) tmp + rename, no fsync"

    required init(opening fs: CrashableFileSystem) throws {
        let (state, sequence) = try Self.openBlob(fs, Self.path)
        super.init(fs: fs, state: state, sequence: sequence)
    }

    func commit(_ change: StoreChange) throws(StoreError) -> CommitOutcome {
        try commit(change) { try persist($0, $1, syncFile: false) }
    }
}

/// (c) tmp file + fsync(file) + rename, but no fsync of the directory: the rename may be lost.
final class RenameWithoutDirectorySyncControl: RenamingControl, CrashSubject {
    static let name = "control (c) tmp + fsync + rename, no dir fsync"

    required init(opening fs: CrashableFileSystem) throws {
        let (state, sequence) = try Self.openBlob(fs, Self.path)
        super.init(fs: fs, state: state, sequence: sequence)
    }

    func commit(_ change: StoreChange) throws(StoreError) -> CommitOutcome {
        try commit(change) { try persist($0, $1, syncFile: true) }
    }
}

/// (d) An append-only log without checksums: each commit appends `length u16 | ops` (the
/// change-record payload: an op count, then ops) and fdatasyncs. Replay applies each op as it
/// decodes and counts a record once its length fits in the file, as a log reader that trusts
/// its length prefix does; a torn record is half applied.
final class LogWithoutChecksumControl: CrashControlStore, CrashSubject {
    static let name = "control (d) append-only log, no checksum"
    static let path: FilePath = "/ctl/log"
    var end: Int

    required init(opening fs: CrashableFileSystem) throws {
        guard let bytes = try CrashControlFiles.read(fs, Self.path) else {
            try CrashControlFiles.createDurably(fs, Self.path, [])
            end = 0
            super.init(fs: fs, state: .initial, sequence: 0)
            return
        }
        var state = StoreState.initial
        var sequence: UInt64 = 0
        var offset = 0
        while offset + 2 <= bytes.count {
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
            guard length > 0, offset + 2 + length <= bytes.count else { break }
            bytes[(offset + 2)..<(offset + 2 + length)].withUnsafeBytes { Self.replay($0, into: &state) }
            sequence += 1
            offset += 2 + length
        }
        end = offset
        super.init(fs: fs, state: state, sequence: sequence)
    }

    /// Applies the ops of one record, one by one, until one does not decode or apply.
    static func replay(_ payload: UnsafeRawBufferPointer, into state: inout StoreState) {
        var reader = ByteReader(payload)
        guard let count = reader.read(UInt8.self) else { return }
        for _ in 0..<count {
            guard let tag = reader.read(UInt8.self) else { return }
            let change: StoreChange
            switch tag {
            case 1:
                var settings = state.settings
                guard let raw = reader.read(UInt16.self), let value = reader.read(UInt32.self),
                    let key = SettingKey(rawValue: raw), settings.set(key, to: value)
                else { return }
                change = .settings(settings)
            case 2:
                guard let location = SnapshotCodec.decodeLocation(&reader) else { return }
                change = .addLocation(location)
            case 3:
                guard let id = reader.read(UInt32.self) else { return }
                change = .removeLocation(LocationID(id))
            case 4:
                guard let id = reader.read(UInt32.self), let name = SnapshotCodec.decodeName(&reader) else { return }
                change = .renameLocation(LocationID(id), name)
            case 5:
                guard let id = reader.read(UInt32.self), let index = reader.read(UInt16.self) else { return }
                change = .moveLocation(LocationID(id), to: Int(index))
            default:
                return
            }
            guard (try? state.validate(change)) != nil else { return }
            state.apply(change)
        }
    }

    func commit(_ change: StoreChange) throws(StoreError) -> CommitOutcome {
        let old = state.settings
        return try commit(change) { _, _ in
            var buffer = [UInt8](repeating: 0, count: Record.blockSize)
            let count = buffer.withUnsafeMutableBytes { raw in
                var writer = ByteWriter(raw)
                writer.write(UInt16(0))
                ChangeCodec.encode(change, old: old, into: &writer)
                raw.storeBytes(of: UInt16(writer.count - 2).littleEndian, toByteOffset: 0, as: UInt16.self)
                return writer.count
            }
            let file = try fs.open(Self.path, .readWrite)
            defer { fs.close(file) }
            try CrashControlFiles.write(fs, file, Array(buffer[..<count]), at: end)
            try fs.synchronizeData(file)
            end += count
        }
    }
}

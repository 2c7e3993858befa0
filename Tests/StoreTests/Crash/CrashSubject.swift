import HAL
import HALSim
import SystemPackage
@testable import Store

/// A store the crash harness can drive: the file store and the negative controls
/// (docs/design/decisions.md#crash-tests, C8) all implement it, so one workload and one oracle (C3) judge them all.
protocol CrashSubject: AnyObject {
    /// The name in the summary line.
    static var name: String { get }
    /// Opens the store in `fs`: creates it, or recovers what a crash left. After a crash a throw
    /// is a violation (C3: a torn tail never makes open fail).
    init(opening fs: CrashableFileSystem) throws
    var state: StoreState { get }
    /// The number of the last durable commit.
    var sequence: UInt64 { get }
    /// What open reported as possibly losing acknowledged data, or nil. A power cut alone must
    /// never cause such a report (the harness's rule, see `CrashExplorer.judge`).
    var dataLossReport: String? { get }
    /// Commits one change: `.durable` only once it is on the medium, `.unchanged` with no I/O.
    func commit(_ change: StoreChange) throws(StoreError) -> CommitOutcome
    /// Releases files and locks, so the next open in the same file system succeeds.
    func close()
}

/// The store under test: `FileStore` with 8 KiB files, so a few dozen commits fill half a file
/// (the log's half is one 4 KiB block) and force a compaction (C4).
class FileStoreCrashSubject: CrashSubject {
    typealias Backend = FileStore<CrashableFileSystem, VirtualClock>
    class var name: String { "FileStore" }
    class var fileSize: Int { 8192 }
    static let directory: FilePath = "/store"

    let store: Backend
    let clock: VirtualClock

    required init(opening fs: CrashableFileSystem) throws {
        clock = VirtualClock()
        store = try Backend(files: fs, clock: clock, configuration: .init(directory: Self.directory, fileSize: Self.fileSize))
    }

    var state: StoreState { store.state }
    var sequence: UInt64 { store.sequence }

    /// Anything that may have lost data, and any health but `.healthy` (a crash without faults
    /// must leave neither `.damaged` nor `.degraded`).
    var dataLossReport: String? {
        if store.report.losesData {
            return store.report.damage.filter(\.losesData).map(\.description).joined(separator: "; ")
        }
        return store.health == .healthy ? nil : "health after open: \(store.health)"
    }

    func commit(_ change: StoreChange) throws(StoreError) -> CommitOutcome { try store.commit(change) }
    func close() { store.close() }
}

/// The file store with 4 KiB files: the log gets 2 KiB, so a compaction every 20-odd commits.
final class SmallFileStoreCrashSubject: FileStoreCrashSubject {
    override class var name: String { "FileStore 4 KiB" }
    override class var fileSize: Int { 4096 }
}

/// The file store with 16 KiB files: the log's half spans two 4 KiB blocks, so entries that do
/// not fit in the rest of the first block move to the second (the path recovery must follow
/// when it looks for the next entry).
final class LargeFileStoreCrashSubject: FileStoreCrashSubject {
    override class var name: String { "FileStore 16 KiB" }
    override class var fileSize: Int { 16384 }
}

/// Reading and writing whole small files through the seam, for the negative controls.
enum CrashControlFiles {
    static let directory: FilePath = "/ctl"

    /// The file's contents, or nil when it does not exist.
    static func read(_ fs: CrashableFileSystem, _ path: FilePath) throws(FileSystemError) -> [UInt8]? {
        var fs = fs
        let file: FileHandle
        do {
            file = try fs.open(path, .readOnly)
        } catch {
            if error.kind == .notFound { return nil }
            throw error
        }
        defer { fs.close(file) }
        var bytes = [UInt8](repeating: 0, count: Int(try fs.size(file)))
        var failure: FileSystemError?
        let count = bytes.withUnsafeMutableBytes { raw in
            do throws(FileSystemError) { return try fs.readFully(file, into: raw, at: 0) } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        return Array(bytes[..<count])
    }

    static func write(_ fs: CrashableFileSystem, _ file: FileHandle, _ bytes: [UInt8], at offset: Int) throws(FileSystemError) {
        var fs = fs
        var failure: FileSystemError?
        bytes.withUnsafeBytes { raw in
            do throws(FileSystemError) { try fs.writeAll(file, raw, at: Int64(offset)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Creates the directory and a file holding `bytes` the crash-safe way (write a temporary
    /// file, fsync it, rename it into place, fsync the directory; an empty file needs no
    /// temporary), so each control's only flaw is the one in its commit path. A crash before
    /// the rename is durable leaves no file, which opens as a new store.
    static func createDurably(_ fs: CrashableFileSystem, _ path: FilePath, _ bytes: [UInt8]) throws(FileSystemError) {
        do {
            try fs.createDirectory(directory)
            try fs.synchronizeDirectory("/")
        } catch {
            if error.kind != .exists { throw error }
        }
        let temporary = bytes.isEmpty ? path : FilePath(path.string + ".new")
        let file = try fs.open(temporary, FileOpenMode(writable: true, create: true))
        try fs.resize(file, to: 0)
        try write(fs, file, bytes, at: 0)
        try fs.synchronize(file)
        fs.close(file)
        if temporary != path { try fs.rename(temporary, to: path) }
        try fs.synchronizeDirectory(directory)
    }
}

/// The whole state and its sequence number as one blob (sequence u64, then a schema-2
/// snapshot payload), for the controls that rewrite a whole file. No checksum: the blob is
/// trusted if it decodes, as `Data.write` users trust their JSON.
enum CrashControlBlob {
    struct Unreadable: Error, CustomStringConvertible {
        var why: String
        var description: String { "unreadable state file: \(why)" }
    }

    static func encode(sequence: UInt64, _ state: StoreState) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 2 * Record.blockSize)
        let count = buffer.withUnsafeMutableBytes { raw in
            var writer = ByteWriter(raw)
            writer.write(sequence)
            SnapshotCodec.encode(state, into: &writer)
            return writer.count
        }
        return Array(buffer[..<count])
    }

    static func decode(_ bytes: [UInt8]) throws -> (state: StoreState, sequence: UInt64) {
        guard bytes.count >= 8 else { throw Unreadable(why: "\(bytes.count) bytes") }
        return try bytes.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            let sequence = reader.read(UInt64.self)!
            let rest = UnsafeRawBufferPointer(rebasing: raw[8...])
            guard case .state(let state, _) = SnapshotCodec.decode(rest) else { throw Unreadable(why: "snapshot") }
            return (state, sequence)
        }
    }
}

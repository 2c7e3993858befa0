import HAL
import SystemPackage

/// An in-memory `FileSystem` that can lose power, keeping exactly what POSIX and ext4 promise
/// to keep (docs/design/decisions.md#crash-tests, C1), so a store can be crash-tested after every operation.
///
/// Two trees: the live one every call sees, and the durable one a `crash()` falls back to.
/// - **File data and size** (pwrite, ftruncate) become durable when that file is
///   `fdatasync`ed or `fsync`ed (`synchronizeData`, `synchronize`), in 4 KiB pages.
/// - **Names** (create, mkdir, rename, unlink) become durable when the directory holding them
///   is synced (`synchronizeDirectory`). Syncing a new file does *not* make its name durable.
/// - **A failed sync loses the dirty pages**, as Linux does (PostgreSQL's "fsyncgate", 2018):
///   after a writeback error the pages stay readable until the crash but are marked clean, so
///   a later successful sync does not write them and the data is gone after a crash
///   (a failed fsync must not be retried as though it worked: docs/design/decisions.md#crash-tests). Only pages
///   written again after the failure are synced.
///
/// Until a sync, changes are *pending*: `pendingOperations` lists them in order, and
/// `crash(keepingPending:tearingLastWriteAt:tail:)` can keep any in-order subset of them and
/// tear the last unsynced write, which yields every state C1 allows.
///
/// Faults (see `CrashableFileSystem+Faults.swift`): the next call of a kind, or every call,
/// fails with `.io`, `.noSpace`, `.readOnly`…; `capacity` gives short writes and ENOSPC;
/// `cutPower(afterOperations:)` fails everything after operation k without side effects, for
/// harnesses that crash after every operation. `flock` is modelled per open file.
///
/// A class: the protocol's `mutating` requirements are met by reference, so the store under
/// test and the harness share one file system.
public final class CrashableFileSystem: FileSystem {
    /// The page size of dirty tracking (and of what a failed sync loses).
    public static let pageSize = 4096

    struct OpenFile {
        var inode: Int
        var writable: Bool
        var path: FilePath
        /// The path's last component, made once at open: the per-name counters are bumped on
        /// every write and sync, and making the `String` there allocated (the store's benchmark
        /// counts it).
        var name: String

        init(inode: Int, writable: Bool, path: FilePath) {
            self.inode = inode
            self.writable = writable
            self.path = path
            name = path.lastComponent?.string ?? ""
        }
    }

    var live = FileTree()
    var durable = FileTree()
    /// Pages written (or resized) since their file's last sync, per inode.
    var dirtyPages: [Int: Set<Int>] = [:]
    var pending: [PendingChange] = []
    var handles: [Int32: OpenFile] = [:]
    var locks: [Int: Int32] = [:]
    var nextInode = 1
    var nextHandle: Int32 = 3

    // Faults and counters (CrashableFileSystem+Faults.swift).
    var rules: [FaultRule] = []
    var powerCutAt: Int?
    public internal(set) var isPoweredOff = false
    /// Whether the file system is mounted read-only: every change fails with `.readOnly`.
    public var isReadOnly = false
    /// Total bytes all files may hold; writes past it are short, then fail with `.noSpace`.
    public var capacity: Int?
    public internal(set) var operationCount = 0
    /// Bytes accepted by `write` since creation: what the store costs the medium.
    public internal(set) var bytesWritten = 0
    /// The same by the file's name (the last component of the path it was opened at), with
    /// the `fdatasync`/`fsync` calls on it: who costs the medium what.
    public internal(set) var bytesWrittenByName: [String: Int] = [:]
    public internal(set) var syncsByName: [String: Int] = [:]
    var operationCounts: [Operation: Int] = [:]
    /// Called at the start of every operation with its kind and number (from 1).
    public var onOperation: ((Operation, Int) -> Void)?
    /// The number of crashes so far.
    public internal(set) var crashCount = 0

    public init(capacity: Int? = nil) { self.capacity = capacity }

    /// Inodes held in memory, live or durable (for tests that the simulation does not grow).
    public var inodeCount: Int { Set(live.nodes.keys).union(durable.nodes.keys).count }

    // MARK: Files

    public func open(_ path: FilePath, _ mode: FileOpenMode) throws(FileSystemError) -> FileHandle {
        tick(.open)
        let location = try live.locate(path)
        if let inode = location.inode {
            guard live.kind(inode) == .file else { throw FileSystemError(.isDirectory) }
            if mode.create && mode.exclusive { throw FileSystemError(.exists) }
            if mode.writable && isReadOnly { throw FileSystemError(.readOnly) }
            try injected(.open)
            return makeHandle(OpenFile(inode: inode, writable: mode.writable, path: path))
        }
        guard mode.create, let name = location.name else { throw FileSystemError(.notFound) }
        if isReadOnly { throw FileSystemError(.readOnly) }
        try injected(.open)
        let inode = makeNode(.file)
        live.nodes[location.parent]?.entries[name] = inode
        pending.append(PendingChange(.link(directory: location.parent, name: name, inode: inode), path: path))
        return makeHandle(OpenFile(inode: inode, writable: mode.writable, path: path))
    }

    public func close(_ file: FileHandle) {
        tick(.close)
        guard let open = handles.removeValue(forKey: file.rawValue) else { return }
        if locks[open.inode] == file.rawValue { locks[open.inode] = nil }
        reclaim()
    }

    public func read(_ file: FileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
        throws(FileSystemError) -> Int
    {
        tick(.read)
        let open = try openFile(file)
        guard offset >= 0 else { throw FileSystemError(.other, errno: .invalidArgument) }
        try injected(.read)
        let data = live.nodes[open.inode]?.data ?? []
        guard offset < data.count else { return 0 }
        let start = Int(offset)
        let count = min(buffer.count, data.count - start)
        data.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<start + count]))
        }
        return count
    }

    public func write(_ file: FileHandle, _ bytes: UnsafeRawBufferPointer, at offset: Int64)
        throws(FileSystemError) -> Int
    {
        tick(.write)
        let open = try openFile(file)
        guard open.writable else { throw FileSystemError(.other, errno: .badFileDescriptor) }
        guard offset >= 0 else { throw FileSystemError(.other, errno: .invalidArgument) }
        if isReadOnly { throw FileSystemError(.readOnly) }
        try injected(.write)
        guard !bytes.isEmpty else { return 0 }
        let start = Int(offset)
        let size = live.nodes[open.inode]?.data.count ?? 0
        var count = bytes.count
        if let capacity {
            let room = capacity - usedBytes + size - start  // bytes this file may reach past `start`
            count = min(count, max(room, 0))
            if count == 0 { throw FileSystemError(.noSpace) }
        }
        let written = Array(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
        bytesWritten += count
        bytesWrittenByName[open.name, default: 0] += count
        live.write(written, to: open.inode, at: start)
        markDirty(open.inode, from: min(start, size), to: start + count)
        pending.append(PendingChange(.write(inode: open.inode, offset: start, bytes: written), path: open.path))
        return count
    }

    public func size(_ file: FileHandle) throws(FileSystemError) -> Int64 {
        tick(.size)
        let open = try openFile(file)
        try injected(.size)
        return Int64(live.nodes[open.inode]?.data.count ?? 0)
    }

    public func resize(_ file: FileHandle, to size: Int64) throws(FileSystemError) {
        tick(.resize)
        let open = try openFile(file)
        guard open.writable, size >= 0 else { throw FileSystemError(.other, errno: .invalidArgument) }
        if isReadOnly { throw FileSystemError(.readOnly) }
        try injected(.resize)
        let old = live.nodes[open.inode]?.data.count ?? 0
        let new = Int(size)
        if let capacity, new > old, usedBytes + new - old > capacity { throw FileSystemError(.noSpace) }
        live.resize(open.inode, to: new)
        markDirty(open.inode, from: min(old, new), to: max(old, new))
        pending.append(PendingChange(.resize(inode: open.inode, size: new), path: open.path))
    }

    public func lock(_ file: FileHandle) throws(FileSystemError) {
        tick(.lock)
        let open = try openFile(file)
        try injected(.lock)
        if let holder = locks[open.inode], holder != file.rawValue { throw FileSystemError(.locked) }
        locks[open.inode] = file.rawValue
    }

    // MARK: Durability

    public func synchronizeData(_ file: FileHandle) throws(FileSystemError) {
        tick(.synchronizeData)
        let open = try openFile(file)
        syncsByName[open.name, default: 0] += 1
        try synchronizeFile(open.inode, as: .synchronizeData)
    }

    public func synchronize(_ file: FileHandle) throws(FileSystemError) {
        tick(.synchronize)
        let open = try openFile(file)
        syncsByName[open.name, default: 0] += 1
        try synchronizeFile(open.inode, as: .synchronize)
    }

    /// fsync/fdatasync: the file's size and dirty pages reach the durable tree — or, when the
    /// sync fails, the dirty pages are lost for good.
    private func synchronizeFile(_ inode: Int, as operation: Operation) throws(FileSystemError) {
        var failure = isReadOnly && !(dirtyPages[inode]?.isEmpty ?? true) ? FileSystemError(.readOnly) : nil
        if failure == nil { failure = injectedFailure(operation) }
        if let failure {
            if !isPoweredOff {
                dirtyPages[inode] = nil
                pending.removeAll { $0.change.dataInode == inode }
            }
            throw failure
        }
        let data = live.nodes[inode]?.data ?? []
        durable.resize(inode, to: data.count)
        for page in dirtyPages[inode] ?? [] {
            let start = page * Self.pageSize
            guard start < data.count else { continue }
            durable.write(data[start..<min(start + Self.pageSize, data.count)], to: inode, at: start)
        }
        dirtyPages[inode] = nil
        pending.removeAll { $0.change.dataInode == inode }
    }

    // MARK: Helpers

    func openFile(_ file: FileHandle) throws(FileSystemError) -> OpenFile {
        guard let open = handles[file.rawValue] else { throw FileSystemError(.other, errno: .badFileDescriptor) }
        return open
    }

    private func makeHandle(_ open: OpenFile) -> FileHandle {
        let handle = nextHandle
        nextHandle += 1
        handles[handle] = open
        return FileHandle(rawValue: handle)
    }

    func makeNode(_ kind: FileTree.Kind) -> Int {
        let inode = nextInode
        nextInode += 1
        live.nodes[inode] = FileTree.Node(kind: kind)
        durable.nodes[inode] = FileTree.Node(kind: kind)
        return inode
    }

    private func markDirty(_ inode: Int, from start: Int, to end: Int) {
        guard end > start else { return }
        let pages = (start / Self.pageSize)...((end - 1) / Self.pageSize)
        dirtyPages[inode, default: []].formUnion(pages)
    }

    /// Bytes held by all live files (open but unlinked ones included).
    public var usedBytes: Int {
        live.nodes.values.reduce(0) { $0 + ($1.kind == .file ? $1.data.count : 0) }
    }

    /// Open handles now.
    public var openFileCount: Int { handles.count }
}

import HAL
import SystemPackage

/// A change made live but not yet durable.
struct PendingChange: Sendable {
    enum Change: Sendable {
        case write(inode: Int, offset: Int, bytes: [UInt8])
        case resize(inode: Int, size: Int)
        case link(directory: Int, name: String, inode: Int)
        case unlink(directory: Int, name: String, inode: Int)
        /// Both sides must be synced; each side is durable once its directory is.
        case rename(
            fromDirectory: Int, fromName: String, toDirectory: Int, toName: String, inode: Int,
            sourceDurable: Bool, targetDurable: Bool)
        /// A name change whose directory was synced.
        case done

        /// The inode the change is about: it must outlive the change (a crash may apply it).
        var inode: Int? {
            switch self {
            case .write(let inode, _, _), .resize(let inode, _), .link(_, _, let inode), .unlink(_, _, let inode):
                inode
            case .rename(_, _, _, _, let inode, _, _): inode
            case .done: nil
            }
        }

        /// The inode whose data a write or resize changes.
        var dataInode: Int? {
            switch self {
            case .write(let inode, _, _), .resize(let inode, _): inode
            default: nil
            }
        }

        var isDurable: Bool {
            switch self {
            case .done: true
            case .rename(_, _, _, _, _, let s, let t): s && t
            default: false
            }
        }

        mutating func markDurable(directory: Int) {
            switch self {
            case .link(let d, _, _), .unlink(let d, _, _):
                if d == directory { self = .done }
            case .rename(let fd, let fn, let td, let tn, let inode, let s, let t):
                self = .rename(
                    fromDirectory: fd, fromName: fn, toDirectory: td, toName: tn, inode: inode,
                    sourceDurable: s || fd == directory, targetDurable: t || td == directory)
            default: break
            }
        }

        func apply(to tree: inout FileTree) {
            switch self {
            case .write(let inode, let offset, let bytes): tree.write(bytes, to: inode, at: offset)
            case .resize(let inode, let size): tree.resize(inode, to: size)
            case .link(let directory, let name, let inode): tree.nodes[directory]?.entries[name] = inode
            case .unlink(let directory, let name, let inode):
                if tree.nodes[directory]?.entries[name] == inode { tree.nodes[directory]?.entries[name] = nil }
            case .rename(let fd, let fn, let td, let tn, let inode, let s, let t):
                if !s, tree.nodes[fd]?.entries[fn] == inode { tree.nodes[fd]?.entries[fn] = nil }
                if !t { tree.nodes[td]?.entries[tn] = inode }
            case .done: break
            }
        }
    }

    var change: Change
    var path: FilePath
    var destination: FilePath?

    init(_ change: Change, path: FilePath, destination: FilePath? = nil) {
        self.change = change
        self.path = path
        self.destination = destination
    }
}

/// A change that a crash may or may not keep, as `CrashableFileSystem.pendingOperations`
/// lists them, oldest first.
public struct PendingOperation: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case write(offset: Int64, count: Int)
        case resize(size: Int64)
        case create
        case remove
        case rename(to: FilePath)
    }

    /// The position in `pendingOperations`.
    public var index: Int
    public var kind: Kind
    /// The path the change was made through (for data, the path the file was opened with).
    public var path: FilePath

    public var description: String {
        switch kind {
        case .write(let offset, let count): "#\(index) write \(count) B at \(offset) to \(path)"
        case .resize(let size): "#\(index) resize \(path) to \(size) B"
        case .create: "#\(index) create \(path)"
        case .remove: "#\(index) remove \(path)"
        case .rename(let to): "#\(index) rename \(path) to \(to)"
        }
    }
}

extension CrashableFileSystem {
    /// What the rest of a torn write holds.
    public enum TornWriteTail: Sendable, Equatable {
        /// The old contents (or nothing, past the old end).
        case old
        /// Zeros.
        case zeros
        /// Random bytes from `seed`.
        case garbage(seed: UInt64)
    }

    /// Every reachable file and directory, by absolute path.
    public struct Image: Equatable, Sendable {
        public var files: [String: [UInt8]]
        public var directories: Set<String>
    }

    /// The changes not yet durable, oldest first.
    public var pendingOperations: [PendingOperation] {
        var result: [PendingOperation] = []
        for item in pending {
            let kind: PendingOperation.Kind
            switch item.change {
            case .write(_, let offset, let bytes): kind = .write(offset: Int64(offset), count: bytes.count)
            case .resize(_, let size): kind = .resize(size: Int64(size))
            case .link: kind = .create
            case .unlink: kind = .remove
            case .rename: kind = .rename(to: item.destination ?? item.path)
            case .done: continue
            }
            result.append(PendingOperation(index: result.count, kind: kind, path: item.path))
        }
        return result
    }

    /// The files and directories as calls see them now.
    public func image() -> Image { live.image() }

    /// The files and directories a `crash()` now would leave.
    public func durableImage() -> Image { durable.image() }

    /// Power is lost and comes back: the file system holds the durable tree, plus the pending
    /// changes `keep` accepts (applied in order), plus, with `tearingLastWriteAt: n`, the first
    /// `n` bytes of the most recent unsynced write (the rest per `tail`); that write is never
    /// kept whole. Open handles become invalid, locks are released, power is back; injected
    /// faults and the read-only flag stay. Returns the resulting image.
    @discardableResult
    public func crash(
        keepingPending keep: (PendingOperation) -> Bool = { _ in false },
        tearingLastWriteAt tornLength: Int? = nil,
        tail: TornWriteTail = .old
    ) -> Image {
        let operations = pendingOperations
        var tree = durable
        let lastWrite = tornLength == nil ? nil : pending.lastIndex { $0.change.isWrite }
        var listed = 0
        for (index, item) in pending.enumerated() {
            if case .done = item.change { continue }
            defer { listed += 1 }
            if index == lastWrite, let tornLength, case .write(let inode, let offset, let bytes) = item.change {
                let n = min(max(tornLength, 0), bytes.count)
                var torn = Array(bytes[..<n])
                switch tail {
                case .old: break
                case .zeros: torn.append(contentsOf: repeatElement(0, count: bytes.count - n))
                case .garbage(let seed):
                    var random = SplitMix64(seed: seed)
                    for _ in n..<bytes.count { torn.append(UInt8(truncatingIfNeeded: random.next())) }
                }
                tree.write(torn, to: inode, at: offset)
                continue
            }
            if keep(operations[listed]) { item.change.apply(to: &tree) }
        }
        tree.collectGarbage()
        live = tree
        durable = tree
        dirtyPages = [:]
        pending = []
        handles = [:]
        locks = [:]
        isPoweredOff = false
        powerCutAt = nil
        crashCount += 1
        return tree.image()
    }

    /// A copy of this file system in its current state (files, pending changes, faults,
    /// counters; not `onOperation`), so a harness can crash the copy in several ways and keep
    /// running the original.
    public func copy() -> CrashableFileSystem {
        let other = CrashableFileSystem(capacity: capacity)
        other.live = live
        other.durable = durable
        other.dirtyPages = dirtyPages
        other.pending = pending
        other.handles = handles
        other.locks = locks
        other.nextInode = nextInode
        other.nextHandle = nextHandle
        other.rules = rules
        other.powerCutAt = powerCutAt
        other.isPoweredOff = isPoweredOff
        other.isReadOnly = isReadOnly
        other.operationCount = operationCount
        other.operationCounts = operationCounts
        other.crashCount = crashCount
        return other
    }
}

extension PendingChange.Change {
    var isWrite: Bool {
        if case .write = self { return true }
        return false
    }
}

import HAL
import SystemPackage

/// Why a file store could not be opened. Damage that still leaves a readable generation is not
/// an error: the store opens, serves what it read and reports `.damaged` (see `report`).
public enum StoreOpenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another process holds the store (flock on `store.a`).
    case locked(FilePath)
    /// Opening for reading only, and there is no store there.
    case notFound(FilePath)
    /// Both files hold data but neither holds a readable generation. Nothing was changed.
    case unreadable(FilePath, [StoreDamage])
    /// The file system refused an operation open needs.
    case io(FileSystemError, FilePath, operation: String)

    public var description: String {
        switch self {
        case .locked(let dir): "store \(dir) is in use by another process (stop it first, e.g. systemctl stop thunderstorm)"
        case .notFound(let dir): "no store in \(dir)"
        case .unreadable(let dir, let damage):
            "store \(dir) holds no readable generation (\(damage.map(\.description).joined(separator: "; ")))"
        case .io(let error, let path, let operation): "cannot \(operation) \(path): \(error)"
        }
    }
}

/// What open found, for `store check` and the log.
public struct RecoveryReport: Equatable, Sendable {
    public struct File: Equatable, Sendable {
        public var name: String
        public var size: Int
        public var generation: UInt32?
        public var schema: UInt16?
        /// The sequence of the snapshot and of the last record replayed after it.
        public var snapshotSequence: UInt64
        public var lastSequence: UInt64
        public var records: Int
        /// Bytes in use: where the next entry goes.
        public var tail: Int
    }

    public var files: [File] = []
    /// The file whose generation was chosen.
    public var chosen: String?
    /// The store was created by this open.
    public var created = false
    /// The schema the store was migrated from by this open.
    public var migratedFrom: UInt16?
    public var damage: [StoreDamage] = []

    /// Whether acknowledged data may have been lost.
    public var losesData: Bool { damage.contains { $0.losesData } }
}

import HAL

/// What observers hear. Changes arrive only once they are durable, in sequence order.
public enum StoreEvent: Equatable, Sendable {
    /// `change` became durable as commit number `sequence`.
    case committed(sequence: UInt64, change: StoreChange, old: Settings)
    /// The store's health changed (the status screen shows it).
    case health(StoreHealth)
}

/// Whether the store can keep what it is given.
public enum StoreHealth: Equatable, Sendable, CustomStringConvertible {
    case healthy
    /// Writing failed: changes are kept in memory (`pendingChanges` of them not yet durable)
    /// and written again with backoff.
    case degraded(FileSystemError, pendingChanges: Int)
    /// Nothing will be written: data from a newer build, or opened read-only.
    case readOnly(String)
    /// Open found damage it could not repair; the readable part is served and new commits go
    /// to the undamaged file. `check` says what and where.
    case damaged(String)

    public var isHealthy: Bool { self == .healthy }

    /// One line for the log and the status screen.
    public var description: String {
        switch self {
        case .healthy: "store ok"
        case .degraded(let error, let n):
            "store not saving (\(error)); \(n) change\(n == 1 ? "" : "s") kept in memory, retrying"
        case .readOnly(let why): "store read-only: \(why)"
        case .damaged(let what): "store damaged: \(what)"
        }
    }
}

/// The result of a commit the store accepted.
public enum CommitOutcome: Equatable, Sendable {
    /// The change changed nothing; no I/O was done.
    case unchanged
    /// The change is durable as commit `sequence`; observers have been told.
    case durable(sequence: UInt64)
    /// The change is in memory but not yet durable (the store is degraded); observers hear of
    /// it when a retry makes it durable.
    case pending
}

import HAL
import SystemPackage

/// The store on flash (docs/design/decisions.md#the-store-format): two pre-sized files, `store.a` and `store.b`, written
/// in place, so a commit never creates, renames, grows or truncates a file.
///
/// - A commit is one entry (a CRC-32C record and its copy) appended to the active file with one
///   `pwrite` and one `fdatasync`, and is acknowledged only after both succeed. A change that
///   changes nothing does no I/O.
/// - When the active file's log reaches half the file, the commit is written instead as a
///   snapshot of the whole state, with the next generation, at the start of the other file.
/// - Open reads both files; the newest readable generation wins, a torn tail is ignored, and a
///   checksummed record after an unreadable one is reported as media damage.
/// - After any write or sync failure the active file is never written again (its unsynced
///   pages may be gone, and a later sync would not say so): the state is kept in memory, the
///   health turns `.degraded`, and `retryIfDue` writes a snapshot into the other file with
///   backoff.
/// - `store.a` is `flock`ed for the store's life, so a second process gets `.locked`.
public final class FileStore<Files: FileSystem, Clock: DeviceClock>: Store {
    public typealias Configuration = FileStoreConfiguration

    public internal(set) var state: StoreState
    public internal(set) var sequence: UInt64
    public internal(set) var health: StoreHealth = .healthy
    /// What open found.
    public let report: RecoveryReport
    /// When `retryIfDue` will next try to write what is pending; nil when nothing is.
    public internal(set) var nextRetry: Instant?

    var files: Files
    let clock: Clock
    let configuration: Configuration
    var handles: [FileHandle?]
    /// The file holding the newest durable generation, and where its log ends.
    var active: Int
    var tail: Int
    var generation: UInt32
    /// The generation the next compaction writes: above every generation either file holds,
    /// and never reused, not even after a failed attempt.
    var nextGeneration: UInt32
    /// The next write must be a snapshot into the other file: the active one failed, is
    /// damaged, or holds an old schema.
    var mustCompact = false
    /// Changes applied in memory but not yet durable, with the sequence each will have.
    var pending: [(sequence: UInt64, change: StoreChange, old: Settings)] = []
    var failures = 0
    var lastFailure: FileSystemError?
    /// Damage found at open that may have lost data; shown until a restart.
    var damage: String?
    /// One entry (at most two 4 KiB records), encoded here: allocated once, at open.
    var buffer: [UInt8]
    var observers = StoreObservers()

    init(files: Files, clock: Clock, configuration: Configuration, opened: StoreOpener<Files>.Opened) {
        self.files = files
        self.clock = clock
        self.configuration = configuration
        self.handles = opened.handles
        self.state = opened.state
        self.sequence = opened.sequence
        self.report = opened.report
        self.active = opened.active
        self.tail = opened.tail
        self.generation = opened.generation
        self.nextGeneration = max(opened.generation, opened.highestGeneration) &+ 1
        self.buffer = [UInt8](repeating: 0, count: 2 * Record.blockSize)
        self.damage = opened.report.losesData ? opened.report.damage.filter(\.losesData).map(\.description).joined(separator: "; ") : nil
        if let why = opened.readOnlyReason {
            health = .readOnly(why)
        } else if let damage {
            health = .damaged(damage)
        }
        // Never append to a file that showed damage, even damage a copy repaired: the next
        // commit writes a fresh generation into the other file.
        mustCompact = !opened.report.damage.isEmpty
    }

    public func observe(_ observer: @escaping (StoreEvent) -> Void) { observers.add(observer) }

    /// Releases the lock and the files. Further commits throw `.closed`.
    public func close() {
        for case let handle? in handles { files.close(handle) }
        handles = [nil, nil]
    }

    deinit { close() }

    var spare: Int { 1 - active }
    var isOpen: Bool { handles[active] != nil }

    func setHealth(_ new: StoreHealth) {
        guard new != health else { return }
        health = new
        observers.send(.health(new))
    }

    /// The health when nothing is pending.
    var restingHealth: StoreHealth {
        if case .readOnly = health { return health }
        return damage.map { .damaged($0) } ?? .healthy
    }
}

/// Where a file store lives and how it behaves.
public struct FileStoreConfiguration: Sendable {
    public var directory: FilePath
    /// The size of each file; the log uses the first half before it is compacted.
    public var fileSize: Int
    /// Open without writing anything, ever (`store show`, `store check`): commits throw
    /// `.readOnly(StoreError.openedForReading)`; `health` still says what open found.
    public var readOnly: Bool
    public var firstRetry: Duration
    public var longestRetry: Duration

    public init(
        directory: FilePath, fileSize: Int = 64 * 1024, readOnly: Bool = false,
        firstRetry: Duration = .seconds(1), longestRetry: Duration = .seconds(300)
    ) {
        self.directory = directory
        self.fileSize = fileSize
        self.readOnly = readOnly
        self.firstRetry = firstRetry
        self.longestRetry = longestRetry
    }

    public static var fileNames: [String] { ["store.a", "store.b"] }

    /// Where records can be: a log entry never ends past half the file, and a snapshot entry
    /// (at most two 4 KiB records) starts at 0. Open reads only this much of each file.
    static func recordRegion(_ fileSize: Int) -> Int { max(fileSize / 2, 2 * Record.blockSize) }

}

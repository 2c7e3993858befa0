import HAL
import Store
import SystemPackage

/// Opening the store at start, and again later when the first open failed on I/O
/// (docs/design/decisions.md#the-store-format): a card full or read-only at boot must not cost every change made until the next
/// restart. The device then runs on an in-memory store seeded with what the files still
/// read, keeps each change it accepts, and the writer opens the files with backoff; once they
/// open, the kept changes are committed in order, as if the card had been slow.
public struct StoreOpening<Files: FileSystem, Clock: DeviceClock> {
    public let files: Files
    public let clock: Clock
    public let configuration: FileStoreConfiguration

    public init(files: Files, clock: Clock, configuration: FileStoreConfiguration) {
        self.files = files
        self.clock = clock
        self.configuration = configuration
    }

    /// What the device starts on.
    public enum Start {
        case opened(FileStore<Files, Clock>)
        /// The files could not be opened for writing; `reopen` is nil when trying again cannot
        /// help (both copies unreadable, opened read-only on purpose).
        case inMemory(InMemoryStore, reason: String, reopen: Reopen?)
        /// Another process holds the store: two daemons would fight over the panel.
        case locked(StoreOpenError)
    }

    /// The files opened again later; `unsaved` are the changes accepted meanwhile.
    public struct Reopen {
        let opening: StoreOpening
        var failure: FileSystemError
        var failures = 1
        var nextAttempt: Instant
        var unsaved: [StoreChange] = []
    }

    public func start() -> Start {
        switch open() {
        case .success(let store):
            return .opened(store)
        case .failure(.locked(let path)):
            return .locked(.locked(path))
        case .failure(let error):
            let memory = InMemoryStore(readableState() ?? .initial)
            guard case .io(let failure, _, _) = error, !configuration.readOnly else {
                return .inMemory(memory, reason: error.description, reopen: nil)
            }
            return .inMemory(
                memory, reason: error.description,
                reopen: Reopen(opening: self, failure: failure, nextAttempt: clock.now() + configuration.firstRetry))
        }
    }

    func open() -> Result<FileStore<Files, Clock>, StoreOpenError> {
        do throws(StoreOpenError) {
            return .success(try FileStore(files: files, clock: clock, configuration: configuration))
        } catch {
            return .failure(error)
        }
    }

    /// What the files hold, read without writing (a card mounted read-only still reads): the
    /// changes kept in memory then build on the user's settings, not on the defaults.
    func readableState() -> StoreState? {
        var reading = configuration
        reading.readOnly = true
        guard case .success(let store) = StoreOpening(files: files, clock: clock, configuration: reading).open() else { return nil }
        defer { store.close() }
        return store.state
    }
}

extension StoreOpening.Reopen {
    /// The backoff after `failures` failed attempts: the store's own (1 s doubling to 5 min).
    mutating func failed(_ error: FileSystemError, now: Instant) {
        failure = error
        failures += 1
        let configuration = opening.configuration
        let exponent = min(failures - 1, 20)
        nextAttempt = now + min(configuration.firstRetry * (1 << exponent), configuration.longestRetry)
    }
}

import ArgumentParser
import HAL
import HALLinux
import Store
import SystemPackage

/// `thunderstorm store --dir DIR …`: read and change the settings and saved locations in a
/// store directory, check it for damage, and measure it (docs/reference/store-format.md).
///
/// Exit codes (sysexits, docs/reference/exit-codes.md): 0 done; 64 bad arguments; 65 a change the store
/// refused, damage found by `check`, or a store written by a newer build; 66 no store (read-only
/// commands); 74 I/O error or a change not saved; 75 the store is in use by another process.
/// Every failure is one line on stderr.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Show, change, check and measure the settings and locations store.",
        discussion: """
            The store is two pre-sized files, store.a and store.b, in DIR (the device keeps it on the SD card). Only one process may have it open: stop the daemon first (systemctl stop thunderstorm).

            show and check only read; every other subcommand creates the store if DIR has none.

            Exit status: 0 done; 64 bad arguments; 65 refused change, damage or newer store; 66 no store; 74 I/O error; 75 in use.
            """,
        subcommands: [
            StoreShowCommand.self, StoreSetCommand.self, StoreAddLocationCommand.self,
            StoreRemoveLocationCommand.self, StoreRenameLocationCommand.self, StoreMoveLocationCommand.self,
            StoreCheckCommand.self, StoreRepairCommand.self, StoreBenchCommand.self,
        ]
    )

    @OptionGroup var options: StoreOptions
}

/// The options every `store` subcommand takes, given before or after the subcommand's name.
/// Values are strings checked in `resolve()`, so that a bad one is one line and exit 64 rather
/// than the parser's usage block.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("dir"), help: ArgumentHelp("The store directory, e.g. /var/lib/thunderstorm.", valueName: "dir"))
    var directory: String?

    @Option(
        name: .customLong("file-size"),
        help: ArgumentHelp("The size of each store file in bytes (default 65536).", valueName: "bytes", visibility: .hidden))
    var fileSize: String?

    func resolve(_ command: String) throws(ExitCode) -> StoreDirectory {
        guard let directory, !directory.isEmpty else {
            throw usage("store \(command): --dir is missing; name the store directory, e.g. --dir /var/lib/thunderstorm")
        }
        var size = 64 * 1024
        if let fileSize {
            // Half the file must hold a snapshot of 50 locations (about 6 KiB with its copy),
            // and whole blocks keep each file's log block-aligned.
            guard let n = Int(fileSize), n >= 16 * 1024, n <= 64 * 1024 * 1024, n % 4096 == 0 else {
                throw usage("store \(command): --file-size \(fileSize) must be a multiple of 4096 from 16384 to 67108864")
            }
            size = n
        }
        return StoreDirectory(path: directory, fileSize: size)
    }
}

/// Prints one usage line and returns exit 64 to throw.
func usage(_ line: String) -> ExitCode {
    printError(line)
    return ExitCode(64)
}

/// One store directory and the way every subcommand opens it and reports failures.
struct StoreDirectory {
    typealias Opened<Files: FileSystem> = FileStore<Files, LinuxClock<LiveSystemCalls>>

    var path: String
    var fileSize: Int

    /// Prints `store DIR: line` on stderr and returns the exit code to throw.
    func fail(_ line: String, _ code: Int32) -> ExitCode {
        printError("store \(path): \(line)")
        return ExitCode(code)
    }

    /// Opens the store; every `StoreOpenError` becomes one line and its exit code.
    func open<Files: FileSystem>(_ files: Files, readOnly: Bool) throws(ExitCode) -> Opened<Files> {
        let configuration = FileStoreConfiguration(directory: FilePath(path), fileSize: fileSize, readOnly: readOnly)
        do {
            return try FileStore(files: files, clock: LinuxClock(), configuration: configuration)
        } catch {
            switch error {
            case .locked:
                throw fail("in use by another process; stop it first (systemctl stop thunderstorm), then try again", 75)
            case .notFound:
                throw fail("no store here; check the path, or create one with a change such as `set clock 24h`", 66)
            case .unreadable:
                throw ExitCode(65, printing: "\(error); restore a backup, or move store.a and store.b away to start afresh")
            case .io(let cause, _, _):
                let hint =
                    cause.kind == .permissionDenied
                    ? "run as the store's owner (or root)" : "check the path, free space and dmesg"
                throw ExitCode(74, printing: "\(error); \(hint)")
            }
        }
    }

    /// Opens the store for a change: refuses a read-only store (65) and says on stderr, once,
    /// that a damaged store is being changed.
    func openForChange<Files: FileSystem>(_ files: Files) throws(ExitCode) -> Opened<Files> {
        let store = try open(files, readOnly: false)
        switch store.health {
        case .readOnly:
            throw fail("\(store.health); nothing was changed", 65)
        case .damaged:
            // The change still goes in (into the undamaged file); the user must hear of the loss.
            printError("store \(path): \(store.health); `thunderstorm store --dir \(path) check` lists it, `repair` rewrites the store")
        case .healthy, .degraded:
            break
        }
        return store
    }

    /// Commits one change: a refused change is one line (64 for a bad value, 65 for one that
    /// does not fit the store's contents), a change that could not be saved is 74.
    func commit<Files: FileSystem>(_ store: Opened<Files>, _ change: () throws(StoreError) -> StoreChange)
        throws(ExitCode) -> CommitOutcome
    {
        let outcome: CommitOutcome
        do {
            outcome = try store.commit(try change())
        } catch {
            throw fail("refused: \(error); nothing was changed", Self.exitCode(for: error))
        }
        if case .pending = outcome {
            throw fail("not saved: \(store.health); check free space and dmesg, then run `repair`", 74)
        }
        return outcome
    }

    static func exitCode(for error: StoreError) -> Int32 {
        switch error {
        case .latitudeOutOfRange, .longitudeOutOfRange, .nameEmpty, .nameTooLong, .nameHasControlCharacters: 64
        case .unknownLocation, .indexOutOfRange, .tooManyLocations, .locationIDsExhausted, .readOnly: 65
        case .closed: 74
        }
    }
}

extension ExitCode {
    /// Prints `line` on stderr; the exit code to throw.
    init(_ code: Int32, printing line: String) {
        printError(line)
        self.init(code)
    }
}

/// What a change printed: the new sequence, or `unchanged` when it changed nothing (no I/O).
func printOutcome(_ outcome: CommitOutcome) {
    switch outcome {
    case .durable(let sequence): print(sequence)
    case .unchanged: print("unchanged")
    case .pending: break  // `commit` exits 74 first
    }
}

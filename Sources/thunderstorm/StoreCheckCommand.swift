import ArgumentParser
import HALLinux
import Store

/// `thunderstorm store --dir DIR check`: what open found in each file, read-only.
struct StoreCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Report what each store file holds and any damage; changes nothing.",
        discussion: """
            Prints one line for the store (sequence, the file it is served from, how long open took) and one per file:
              store.a: generation 3, schema 2, snapshot 812, last 840, 28 records, 2536 of 65536 bytes used
            then "ok". Damage is listed on stderr, one line each, with the file and the offset of the entry: a record repaired from its copy (nothing lost, but the medium is failing), records lost after an unreadable one, a truncated file. `repair` rewrites the store from what is readable.

            Exit status: 0 no damage; 64 bad arguments; 65 damage (or no readable generation); 66 no store; 74 I/O error; 75 in use.
            """
    )

    @OptionGroup var options: StoreOptions

    func run() throws {
        let directory = try options.resolve("check")
        let clock = ContinuousClock()
        let started = clock.now
        let store = try directory.open(LinuxFileSystem(), readOnly: true)
        let took = clock.now - started
        defer { store.close() }
        let report = store.report
        print("store \(directory.path): sequence \(store.sequence), served from \(report.chosen ?? "-"), opened read-only in \(Self.milliseconds(took)) ms")
        for file in report.files { print(Self.line(file, expectedSize: directory.fileSize)) }
        if case .readOnly(let why) = store.health {
            print("note: \(why)")  // a newer build's store: readable, not damaged
        }
        guard report.damage.isEmpty else {
            for damage in report.damage { printError("store \(directory.path): \(damage)") }
            let lost = report.losesData ? "data may be lost" : "nothing lost yet"
            print("\(report.damage.count) problem\(report.damage.count == 1 ? "" : "s") (\(lost)); run `thunderstorm store --dir \(directory.path) repair` to rewrite the store")
            throw ExitCode(65)
        }
        print("ok")
    }

    /// `store.a: generation 3, schema 2, snapshot 812, last 840, 28 records, 2536 of 65536 bytes used`.
    static func line(_ file: RecoveryReport.File, expectedSize: Int) -> String {
        guard let generation = file.generation else {
            return file.size == 0 || file.size == expectedSize
                ? "\(file.name): no generation yet (blank spare), \(file.size) bytes"
                : "\(file.name): no readable generation, \(file.size) bytes"
        }
        return "\(file.name): generation \(generation), schema \(file.schema.map(String.init) ?? "?"), "
            + "snapshot \(file.snapshotSequence), last \(file.lastSequence), \(file.records) record\(file.records == 1 ? "" : "s"), "
            + "\(file.tail) of \(file.size) bytes used"
    }

    static func milliseconds(_ duration: Duration) -> String {
        decimalText(Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3, places: 3)
    }
}

/// `thunderstorm store --dir DIR repair`: writes the readable state as a fresh generation into
/// the other file, so the damaged one is no longer the newest.
struct StoreRepairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Rewrite the store as a fresh snapshot of what is readable.",
        discussion: """
            Writes the state open recovered as a new generation into the other file (one pwrite, one fdatasync); the file that held the damage becomes the spare and is overwritten at the next compaction. What was lost to damage stays lost: run check first to see what that is.

            Exit status: 0 done; 64 bad arguments; 65 unreadable or newer store; 66 no store; 74 not written; 75 in use.
            """
    )

    @OptionGroup var options: StoreOptions

    func run() throws {
        let directory = try options.resolve("repair")
        // Read-only first, so a mistyped --dir is "no store" (66) rather than a new empty store.
        try directory.open(LinuxFileSystem(), readOnly: true).close()
        let store = try directory.open(LinuxFileSystem(), readOnly: false)
        defer { store.close() }
        let report = store.report
        let written: Bool
        do {
            written = try store.rewrite()
        } catch {
            throw directory.fail("cannot repair: \(error); nothing was changed", StoreDirectory.exitCode(for: error))
        }
        guard written else {
            throw directory.fail("repair not written: \(store.health); check free space and dmesg, then try again", 74)
        }
        let n = report.damage.count
        let found =
            n == 0 ? "no damage was found"
            : "\(n) problem\(n == 1 ? "" : "s") left behind (\(report.losesData ? "what they lost stays lost" : "nothing was lost"))"
        print("store \(directory.path): rewrote sequence \(store.sequence) as a fresh snapshot; it was served from \(report.chosen ?? "-"); \(found)")
    }
}

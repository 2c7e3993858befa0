import ArgumentParser
import Glibc
import HAL
import HALLinux
import Store
import SystemPackage

/// `thunderstorm store --dir DIR bench --commits N`: N durable commits, each acknowledged on
/// stdout the moment it is durable. scripts/store-kill9.sh kills it at random and checks that
/// every acknowledged commit survived (docs/design/decisions.md#crash-tests, C6).
struct StoreBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Commit N setting changes, acknowledging each, and report the cost.",
        discussion: """
            Flips the temperature unit N times, so every commit writes. After each commit is durable (pwrite and fdatasync returned) it prints "ack SEQUENCE" with write(2), so the line is out before the next commit starts. Then one JSON line, e.g.
              {"commits":1000,"seconds":1.92,"commitsPerSecond":520.8,"bytesWritten":162816,"bytesPerCommit":162.8,"writes":1000,"fdatasyncs":1000,"fdatasyncsPerCommit":1,"fsyncs":4}
            bytesWritten counts what the store asked pwrite to write (compaction snapshots included), not what the device wrote.

            Exit status: 0 done; 64 bad arguments; 65 store read-only; 74 a commit was not saved; 75 in use.
            """
    )

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("How many commits.", valueName: "n"))
    var commits: String?

    func run() throws {
        let directory = try options.resolve("bench")
        guard let text = commits, let count = Int(text), count > 0 else {
            throw usage("store bench: --commits must be a whole number from 1, not '\(commits ?? "")'")
        }
        let counters = FileSystemCounters()
        let store = try directory.openForChange(CountingFileSystem(LinuxFileSystem(), counters: counters))
        defer { store.close() }
        let opened = counters.snapshot  // creating the store is not part of the measurement
        let clock = ContinuousClock()
        let started = clock.now
        var settings = store.settings
        for _ in 0..<count {
            settings.temperature = settings.temperature == .celsius ? .fahrenheit : .celsius
            guard case .durable(let sequence) = try directory.commit(store, { .settings(settings) }) else {
                throw directory.fail("bench: a commit changed nothing; this is a bug, please report it", 70)
            }
            writeLine("ack \(sequence)")
        }
        let seconds = Self.seconds(clock.now - started)
        let used = counters.snapshot - opened
        let n = Double(count)
        writeLine(
            #"{"commits":\#(count),"seconds":\#(Self.fixed(seconds, 3)),"commitsPerSecond":\#(Self.fixed(n / seconds, 1)),"#
                + #""bytesWritten":\#(used.bytesWritten),"bytesPerCommit":\#(Self.fixed(Double(used.bytesWritten) / n, 1)),"#
                + #""writes":\#(used.writes),"fdatasyncs":\#(used.dataSyncs),"#
                + #""fdatasyncsPerCommit":\#(Self.fixed(Double(used.dataSyncs) / n, 3)),"fsyncs":\#(used.syncs)}"#)
    }

    static func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

    static func fixed(_ value: Double, _ places: Int) -> String { decimalText(value, places: places, trimmingZeros: true) }

    /// One line straight to the descriptor: a kill -9 right after it cannot lose it in a buffer.
    private func writeLine(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let n = Glibc.write(STDOUT_FILENO, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }  // stdout closed: the commits are still made
                done += n
            }
        }
    }
}

/// What a `CountingFileSystem` saw. A class because the store keeps its own copy of the file
/// system value, and the command reads the counts from outside it.
final class FileSystemCounters {
    struct Snapshot {
        var writes = 0
        var bytesWritten = 0
        var dataSyncs = 0
        var syncs = 0

        static func - (a: Snapshot, b: Snapshot) -> Snapshot {
            Snapshot(
                writes: a.writes - b.writes, bytesWritten: a.bytesWritten - b.bytesWritten,
                dataSyncs: a.dataSyncs - b.dataSyncs, syncs: a.syncs - b.syncs)
        }
    }

    var snapshot = Snapshot()
}

/// Forwards every call to `base` and counts pwrites, bytes written, fdatasyncs and fsyncs
/// (directory syncs included), so `bench` reports what the store asked of the kernel.
struct CountingFileSystem<Base: FileSystem>: FileSystem {
    var base: Base
    let counters: FileSystemCounters

    init(_ base: Base, counters: FileSystemCounters) {
        self.base = base
        self.counters = counters
    }

    mutating func open(_ path: FilePath, _ mode: FileOpenMode) throws(FileSystemError) -> FileHandle {
        try base.open(path, mode)
    }

    mutating func close(_ file: FileHandle) { base.close(file) }

    mutating func read(_ file: FileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
        throws(FileSystemError) -> Int
    {
        try base.read(file, into: buffer, at: offset)
    }

    mutating func write(_ file: FileHandle, _ bytes: UnsafeRawBufferPointer, at offset: Int64)
        throws(FileSystemError) -> Int
    {
        let n = try base.write(file, bytes, at: offset)
        counters.snapshot.writes += 1
        counters.snapshot.bytesWritten += n
        return n
    }

    mutating func synchronizeData(_ file: FileHandle) throws(FileSystemError) {
        counters.snapshot.dataSyncs += 1
        try base.synchronizeData(file)
    }

    mutating func synchronize(_ file: FileHandle) throws(FileSystemError) {
        counters.snapshot.syncs += 1
        try base.synchronize(file)
    }

    mutating func synchronizeDirectory(_ path: FilePath) throws(FileSystemError) {
        counters.snapshot.syncs += 1
        try base.synchronizeDirectory(path)
    }

    mutating func rename(_ source: FilePath, to destination: FilePath) throws(FileSystemError) {
        try base.rename(source, to: destination)
    }

    mutating func unlink(_ path: FilePath) throws(FileSystemError) { try base.unlink(path) }

    mutating func size(_ file: FileHandle) throws(FileSystemError) -> Int64 { try base.size(file) }

    mutating func resize(_ file: FileHandle, to size: Int64) throws(FileSystemError) { try base.resize(file, to: size) }

    mutating func lock(_ file: FileHandle) throws(FileSystemError) { try base.lock(file) }

    mutating func createDirectory(_ path: FilePath) throws(FileSystemError) { try base.createDirectory(path) }
}

// libFuzzer entry point for the store's recovery: arbitrary bytes as `store.a` and `store.b`,
// opened through the public `FileStore` on the simulated file system, as the device opens them.
//
// Input layout: bytes 0–1 (little-endian, modulo the rest's length + 1) say where `store.a`
// ends and `store.b` begins; files are 4 KiB in the configuration, so wrong sizes are covered.
// The invariants (a broken one traps with its message, which libFuzzer saves as a crash):
// - Open never traps or hangs, whatever the bytes; it either opens or throws `.unreadable`.
// - Opening is deterministic and read-only opening writes nothing.
// - A store that opens writable and healthy-or-damaged takes a commit; the commit is durable,
//   and reopening (after a simulated power cut) gives exactly the state and sequence the store
//   had: whatever garbage it started from, what it acknowledges survives.

import HAL
import HALSim
import Store
import SystemPackage

let fileSize = 4096

@inline(__always)
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String = "") {
    if !condition() { fatalError("store invariant broken: \(message())") }
}

func seeded(_ a: [UInt8], _ b: [UInt8]) -> CrashableFileSystem {
    let fs = CrashableFileSystem()
    fs.seedFile("/s/store.a", contents: a)
    fs.seedFile("/s/store.b", contents: b)
    return fs
}

func open(_ fs: CrashableFileSystem, readOnly: Bool) throws(StoreOpenError) -> FileStore<CrashableFileSystem, VirtualClock> {
    try FileStore(
        files: fs, clock: VirtualClock(), configuration: .init(directory: "/s", fileSize: fileSize, readOnly: readOnly))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 2 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let rest = bytes[2...]
    let split = (Int(bytes[0]) | Int(bytes[1]) << 8) % (rest.count + 1)
    let a = Array(rest.prefix(split))
    let b = Array(rest.dropFirst(split))

    // Read-only: deterministic, and nothing written.
    let fs = seeded(a, b)
    var first: (StoreState, UInt64, RecoveryReport)?
    do {
        let store = try open(fs, readOnly: true)
        first = (store.state, store.sequence, store.report)
        store.close()
        let again = try open(fs, readOnly: true)
        invariant(again.state == first!.0 && again.sequence == first!.1 && again.report == first!.2, "not deterministic")
    } catch {
        guard case .unreadable = error else {
            if case .notFound = error { return 0 }  // no checksummed record anywhere: no store yet
            fatalError("read-only open failed with \(error)")
        }
    }
    invariant(fs.count(of: .write) == 0 && fs.count(of: .resize) == 0, "a read-only open wrote")

    // Writable: what is acknowledged survives a power cut.
    let writable = seeded(a, b)
    guard let store = try? open(writable, readOnly: false) else { return 0 }
    if case .readOnly = store.health { return 0 }
    if let first, !store.report.created, store.report.migratedFrom == nil {
        invariant(store.state == first.0 && store.sequence == first.1, "writable open serves another state")
    }
    var settings = store.state.settings
    settings.units = settings.units == .metric ? .imperial : .metric
    guard case .durable(let sequence)? = try? store.commit(.settings(settings)) else {
        fatalError("commit after open was not durable: \(store.health)")
    }
    let expected = store.state
    writable.crash()
    do {
        let reopened = try open(writable, readOnly: true)
        invariant(reopened.sequence == sequence, "sequence \(reopened.sequence) after power cut, acked \(sequence)")
        invariant(reopened.state == expected, "state after power cut differs")
    } catch {
        fatalError("reopen after an acknowledged commit failed: \(error)")
    }
    return 0
}

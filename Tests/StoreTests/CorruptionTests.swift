import HAL
import HALSim
import SystemPackage
import Testing
@testable import Store

/// docs/design/decisions.md#crash-tests, C7: every single-bit flip and every truncation of a real store file gives
/// the right state or a reported error, never a silently different state.
@Suite struct CorruptionTests {
    /// A store with 4 KiB files after enough commits for a compaction: the active file holds a
    /// snapshot and a log, the spare an older generation.
    struct Sample {
        var a: [UInt8]
        var b: [UInt8]
        var state: StoreState
        var sequence: UInt64
    }

    static let fileSize = 4096

    static let sample: Sample = {
        let fs = CrashableFileSystem()
        let store = try! SimStore(files: fs, clock: VirtualClock(), configuration: .init(directory: "/store", fileSize: fileSize))
        for (name, lat) in [("Zürich", 47.37), ("Île d’Yeu", 46.71), ("Tromsø", 69.65)] {
            try! store.addLocation(name: name, latitude: lat, longitude: 8.5)
        }
        var i = 0
        while fs.count(of: .synchronizeData) < 30 {
            try! store.update { $0.temperature = i % 2 == 0 ? .fahrenheit : .celsius; $0.time = i % 3 == 0 ? .twelveHour : .twentyFourHour }
            i += 1
        }
        try! store.moveLocation(LocationID(3), to: 0)
        let sample = Sample(
            a: fs.contents(of: "/store/store.a")!, b: fs.contents(of: "/store/store.b")!, state: store.state,
            sequence: store.sequence)
        store.close()
        return sample
    }()

    enum Outcome: Equatable {
        case right
        /// Right, from the other copy of a damaged record (and reported by `check`).
        case repaired
        case reported
        case silentlyDifferent(sequence: UInt64)
    }

    /// What open would serve from these bytes (the pure part of open: no file system, so the
    /// sweep of every bit runs in seconds).
    static func open(a: [UInt8], b: [UInt8]) -> Outcome {
        let recovery = Recovery(contents: [a, b], fileSize: fileSize)
        guard let chosen = recovery.chosen else {
            return recovery.isBlank ? .silentlyDifferent(sequence: 0) : .reported
        }
        if recovery.report.losesData { return .reported }
        let scan = recovery.scans[chosen]
        if scan.state == sample.state && scan.sequence == sample.sequence {
            return recovery.report.damage.isEmpty ? .right : .repaired
        }
        return .silentlyDifferent(sequence: scan.sequence)
    }

    /// The same through `FileStore` on the simulated file system, for the samples.
    @Test func openThroughTheFileSystemAgrees() throws {
        let s = Self.sample
        for (a, b) in [(s.a, s.b), (Array(s.a[..<100]), s.b), (s.a, [UInt8](repeating: 0, count: 0))] {
            let fs = CrashableFileSystem()
            fs.seedFile("/store/store.a", contents: a)
            fs.seedFile("/store/store.b", contents: b)
            let store = try SimStore(
                files: fs, clock: VirtualClock(),
                configuration: .init(directory: "/store", fileSize: Self.fileSize, readOnly: true))
            let expected = Self.open(a: a, b: b)
            let outcome: Outcome =
                store.report.losesData
                ? .reported : store.state == s.state ? .right : .silentlyDifferent(sequence: store.sequence)
            #expect(outcome == expected)
        }
    }

    @Test func theSampleIsARealStoreWithTwoGenerations() {
        let s = Self.sample
        #expect(Self.open(a: s.a, b: s.b) == .right)
        #expect(s.a.count == Self.fileSize && s.b.count == Self.fileSize)
    }

    @Test(arguments: [true, false])
    func everySingleBitFlip(inA: Bool) {
        let s = Self.sample
        var tally: [String: Int] = [:]
        var file = inA ? s.a : s.b
        for bit in 0..<file.count * 8 {
            file[bit / 8] ^= 1 << (bit % 8)
            let outcome = inA ? Self.open(a: file, b: s.b) : Self.open(a: s.a, b: file)
            file[bit / 8] ^= 1 << (bit % 8)
            tally["\(outcome)", default: 0] += 1
            if case .silentlyDifferent = outcome {
                Issue.record("bit \(bit) (byte \(bit / 8)) of store.\(inA ? "a" : "b"): \(outcome)")
            }
        }
        print("C7 single-bit flips in store.\(inA ? "a" : "b") (\(file.count * 8)): \(tally.sorted { $0.key < $1.key })")
    }

    @Test(arguments: [true, false])
    func everyTruncation(inA: Bool) {
        let s = Self.sample
        var tally: [String: Int] = [:]
        let file = inA ? s.a : s.b
        for length in 0..<file.count {
            let cut = Array(file[..<length])
            let outcome = inA ? Self.open(a: cut, b: s.b) : Self.open(a: s.a, b: cut)
            tally["\(outcome)", default: 0] += 1
            if case .silentlyDifferent = outcome {
                Issue.record("store.\(inA ? "a" : "b") cut to \(length) bytes: \(outcome)")
            }
        }
        print("C7 truncations of store.\(inA ? "a" : "b") (\(file.count)): \(tally.sorted { $0.key < $1.key })")
    }
}

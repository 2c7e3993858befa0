import HAL
import HALSim
import SystemPackage
import Testing
@testable import Store

/// docs/design/decisions.md#crash-tests, C5: I/O errors keep the state in memory, report `.degraded`,
/// retry with backoff into the other file, and never acknowledge what is not durable.
@Suite struct FileStoreFaultTests {
    final class Recorder {
        var events: [StoreEvent] = []
        var committed: [UInt64] {
            events.compactMap { if case .committed(let s, _, _) = $0 { s } else { nil } }
        }
        var healths: [StoreHealth] {
            events.compactMap { if case .health(let h) = $0 { h } else { nil } }
        }
    }

    func observed(_ store: SimStore) -> Recorder {
        let recorder = Recorder()
        store.observe { recorder.events.append($0) }
        return recorder
    }

    @Test(arguments: [FileSystemError.Kind.io, .noSpace, .readOnly])
    func aFailedSyncIsKeptInMemoryAndRetriedIntoTheOtherFile(kind: FileSystemError.Kind) throws {
        let fs = CrashableFileSystem()
        let clock = VirtualClock()
        let store = try openStore(fs, clock: clock)
        let seen = observed(store)
        try store.update { $0.units = .imperial }
        let activeBefore = store.active
        fs.failNext(.synchronizeData, with: kind)
        #expect(try store.update { $0.temperature = .fahrenheit } == .pending)
        #expect(store.settings.temperature == .fahrenheit)  // served from memory
        #expect(store.sequence == 1)
        #expect(seen.healths == [.degraded(FileSystemError(kind), pendingChanges: 1)])
        // More changes while degraded wait in memory; no I/O before the backoff runs out.
        let operations = fs.operationCount
        #expect(try store.update { $0.time = .twelveHour } == .pending)
        store.retryIfDue()
        #expect(fs.operationCount == operations)
        #expect(store.nextRetry == clock.now() + .seconds(1))
        clock.advance(by: .seconds(1))
        store.retryIfDue()
        let written = fs.pendingOperations  // the crash below may keep or drop nothing: all synced
        #expect(written.isEmpty)
        // The retry wrote a snapshot into the other file, never the one whose sync failed.
        #expect(store.active != activeBefore)
        #expect(store.health == .healthy && store.sequence == 3)
        #expect(seen.committed == [1, 2, 3])
        #expect(seen.healths.last == .healthy)
        fs.crash()
        let reopened = try openStore(fs)
        #expect(reopened.state == store.state && reopened.sequence == 3)
    }

    @Test func backoffDoublesUpToTheLongestDelay() throws {
        let fs = CrashableFileSystem()
        let clock = VirtualClock()
        let store = try SimStore(
            files: fs, clock: clock,
            configuration: .init(directory: "/store", fileSize: 16384, firstRetry: .seconds(1), longestRetry: .seconds(8)))
        fs.failWrites(with: .io)
        #expect(try store.update { $0.units = .imperial } == .pending)
        var delays: [Duration] = []
        for _ in 0..<6 {
            let due = store.nextRetry!
            delays.append(due - clock.now())
            clock.advance(to: due)
            store.retryIfDue()
        }
        #expect(delays == [1, 2, 4, 8, 8, 8].map { Duration.seconds($0) })
        fs.clearFaults()
        clock.advance(to: store.nextRetry!)
        store.retryIfDue()
        #expect(store.health == .healthy && store.sequence == 1 && store.nextRetry == nil)
    }

    @Test func aFailedSyncLosesTheDirtyPagesAndTheStoreDoesNotTrustThem() throws {
        // fsyncgate: the failed sync drops the record's page; a store that appended the next
        // record to the same file and synced would then acknowledge a log with a hole.
        let fs = CrashableFileSystem()
        let store = try openStore(fs)
        for i in 0..<5 { try store.update { $0.time = i % 2 == 0 ? .twelveHour : .twentyFourHour } }
        fs.failNext(.synchronizeData, with: .io)
        #expect(try store.update { $0.units = .imperial } == .pending)
        store.retry()
        #expect(try store.update { $0.temperature = .fahrenheit } == .durable(sequence: 7))
        fs.crash()
        let reopened = try openStore(fs)
        #expect(reopened.sequence == 7 && reopened.state == store.state)
        #expect(reopened.report.damage.isEmpty)
    }

    @Test func aReadOnlyMountKeepsServingAndRecoversWhenWritable() throws {
        let fs = CrashableFileSystem()
        let store = try openStore(fs)
        fs.isReadOnly = true
        #expect(try store.update { $0.units = .imperial } == .pending)
        #expect(store.health == .degraded(FileSystemError(.readOnly), pendingChanges: 1))
        fs.isReadOnly = false
        store.retry()
        #expect(store.health == .healthy && store.sequence == 1)
    }

    @Test func badInputIsRefusedWithATypedErrorAndChangesNothing() throws {
        let fs = CrashableFileSystem()
        let store = try openStore(fs)
        let id = try store.addLocation(name: "Bern", latitude: 46.948, longitude: 7.4474)
        let before = (store.state, store.sequence, fs.operationCount)
        #expect(throws: StoreError.latitudeOutOfRange(91)) { try store.addLocation(name: "x", latitude: 91, longitude: 0) }
        #expect(throws: StoreError.longitudeOutOfRange(-180.5)) { try store.addLocation(name: "x", latitude: 0, longitude: -180.5) }
        #expect(throws: StoreError.nameEmpty) { try store.renameLocation(id, to: "") }
        #expect(throws: StoreError.nameTooLong(bytes: 41, limit: 40)) { try store.renameLocation(id, to: String(repeating: "a", count: 41)) }
        #expect(throws: StoreError.nameHasControlCharacters) { try store.renameLocation(id, to: "a\nb") }
        #expect(throws: StoreError.unknownLocation(LocationID(7))) { try store.moveLocation(LocationID(7), to: 0) }
        #expect(throws: StoreError.indexOutOfRange(3, count: 1)) { try store.moveLocation(id, to: 3) }
        #expect(store.state == before.0 && store.sequence == before.1 && fs.operationCount == before.2)
        for i in 1..<StoreState.maximumLocations { try store.addLocation(name: "p\(i)", latitude: 0, longitude: Double(i)) }
        #expect(throws: StoreError.tooManyLocations(limit: 50)) { try store.addLocation(name: "one more", latitude: 0, longitude: 0) }
        store.close()
        let reopened = try openStore(fs)
        #expect(reopened.state == store.state)  // a full snapshot of 50 locations fits
        #expect(reopened.sequence == store.sequence)
        #expect(reopened.report.damage.isEmpty)
        #expect(reopened.state.locations.count == store.state.locations.count)
        #expect(reopened.state.nextLocationID == store.state.nextLocationID)
    }
}

/// Found by the StoreFuzz target: a newer generation whose snapshot is unreadable but whose log
/// records are intact must be reported, and must never be replayed after a compaction.
@Suite struct NewerGenerationTests {
    @Test func recordsOfAnUnreadableNewerGenerationAreReportedAndNeverReplayed() throws {
        let fs = CrashableFileSystem()
        do {
            let store = try openStore(fs)
            try store.update { $0.units = .imperial }
            store.close()
        }
        // store.b: a generation-2 snapshot with both copies damaged, then two valid records.
        var b = [UInt8](repeating: 0, count: 16384)
        var end = b.withUnsafeMutableBytes {
            Record.encodeEntry(into: $0, kind: .snapshot, generation: 2, sequence: 1) {
                SnapshotCodec.encode(.initial, into: &$0)
            }
        }
        b[10] ^= 1
        b[end / 2 + 10] ^= 1
        for sequence in UInt64(2)...3 {
            end += b.withUnsafeMutableBytes {
                Record.encodeEntry(into: UnsafeMutableRawBufferPointer(rebasing: $0[end...]), kind: .change, generation: 2, sequence: sequence) {
                    ChangeCodec.encode(.settings(Settings(time: sequence == 2 ? .twelveHour : .twentyFourHour)), old: .defaults, into: &$0)
                }
            }
        }
        fs.seedFile("/store/store.b", contents: b)
        let store = try openStore(fs)
        #expect(store.report.damage.contains { $0.kind == .unreadableGeneration(2) })
        #expect(store.sequence == 1 && store.settings.units == .imperial)
        #expect(try store.update { $0.temperature = .fahrenheit } == .durable(sequence: 2))
        #expect(store.generation == 3)
        store.close()
        fs.crash()
        let reopened = try openStore(fs)
        #expect(reopened.sequence == 2 && reopened.state == store.state)
    }
}

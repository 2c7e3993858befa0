import HAL
import HALSim
import SystemPackage
import Testing
@testable import Store

typealias SimStore = FileStore<CrashableFileSystem, VirtualClock>

func openStore(_ fs: CrashableFileSystem, clock: VirtualClock = VirtualClock(), fileSize: Int = 16 * 1024) throws -> SimStore {
    try SimStore(files: fs, clock: clock, configuration: .init(directory: "/store", fileSize: fileSize))
}

@Suite struct FileStoreTests {
    @Test func commitsSurviveReopenAndCompaction() throws {
        let fs = CrashableFileSystem()
        var model = StoreState.initial
        do {
            let store = try openStore(fs)
            #expect(store.report.created)
            for i in 0..<600 {
                let change: StoreChange = .settings(
                    Settings(time: i % 2 == 0 ? .twelveHour : .twentyFourHour, units: i % 3 == 0 ? .imperial : .metric))
                if try model.validate(change) { model.apply(change) }
                _ = try store.commit(change)
            }
            let id = try store.addLocation(name: "Zürich", latitude: 47.3769, longitude: 8.5417)
            try store.renameLocation(id, to: "Zurich HB")
            model = store.state
            #expect(store.health == .healthy)
            store.close()
        }
        let reopened = try openStore(fs)
        #expect(reopened.state == model)
        #expect(reopened.report.damage.isEmpty)
        #expect((reopened.report.files.compactMap(\.generation).max() ?? 0) > 1)
    }

    @Test func anUnchangedSettingDoesNoIO() throws {
        let fs = CrashableFileSystem()
        let store = try openStore(fs)
        let before = fs.operationCount
        #expect(try store.update { $0.units = .metric } == .unchanged)
        #expect(fs.operationCount == before)
        #expect(try store.update { $0.units = .imperial } == .durable(sequence: 1))
        #expect(fs.count(of: .write) > 0)
        #expect(fs.operationCount - before == 2)
    }

    @Test func aSecondOpenIsLocked() throws {
        let fs = CrashableFileSystem()
        let first = try openStore(fs)
        #expect(throws: StoreOpenError.locked("/store")) { try openStore(fs) }
        first.close()
        _ = try openStore(fs)
    }
}

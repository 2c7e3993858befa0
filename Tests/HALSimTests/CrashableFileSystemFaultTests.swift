import HAL
import HALSim
import SystemPackage
import Testing

/// Injected faults, counters and power cuts.
@Suite struct CrashableFileSystemFaultTests {
    func write(_ fs: CrashableFileSystem, _ file: FileHandle, _ bytes: [UInt8], at offset: Int64 = 0) throws {
        var fs = fs
        try bytes.withUnsafeBytes { try fs.writeAll(file, $0, at: offset) }
    }

    @Test func testFS_FailedDataSync_LosesTheWriteForGood() throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/store.a", contents: [0, 0, 0, 0])
        let file = try fs.open("/store.a", .readWrite)
        try write(fs, file, [1, 1, 1, 1])
        fs.failNext(.synchronizeData, with: .io)
        #expect(caught(FileSystemError.self) { try fs.synchronizeData(file) } == FileSystemError(.io))
        #expect(fs.contents(of: "/store.a") == [1, 1, 1, 1], "the page cache still shows the data")
        try fs.synchronizeData(file)  // succeeds, but the lost pages are not written
        fs.crash()
        #expect(fs.contents(of: "/store.a") == [0, 0, 0, 0])
    }

    @Test func testFS_FailedDataSync_PageWrittenAgainIsSyncedWhole() throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/f", contents: [UInt8](repeating: 0, count: 8192))
        let file = try fs.open("/f", .readWrite)
        try write(fs, file, [1], at: 0)  // page 0
        try write(fs, file, [2], at: 4096)  // page 1
        fs.failNext(.synchronizeData, with: .io)
        _ = caught(FileSystemError.self) { try fs.synchronizeData(file) }
        try write(fs, file, [3], at: 1)  // page 0 dirty again
        try fs.synchronizeData(file)
        fs.crash()
        let after = fs.contents(of: "/f") ?? []
        #expect(after[0...1] == [1, 3], "page 0 went out whole, with the earlier byte")
        #expect(after[4096] == 0, "page 1 stayed lost")
    }

    @Test func testFS_NoSpace_AndShortWrites() throws {
        let fs = CrashableFileSystem(capacity: 100)
        let file = try fs.open("/f", FileOpenMode(writable: true, create: true))
        let n = try [UInt8](repeating: 1, count: 150).withUnsafeBytes { try fs.write(file, $0, at: 0) }
        #expect(n == 100, "a short write, as pwrite on a nearly full disk")
        #expect(caught(FileSystemError.self) { try write(fs, file, [1], at: 100) } == FileSystemError(.noSpace))
        try write(fs, file, [2], at: 50)  // overwriting needs no space
        #expect(caught(FileSystemError.self) { try fs.resize(file, to: 101) } == FileSystemError(.noSpace))

        let injected = CrashableFileSystem()
        let other = try injected.open("/g", FileOpenMode(writable: true, create: true))
        injected.failWrites(with: .noSpace)
        for _ in 0..<3 {
            #expect(caught(FileSystemError.self) { try write(injected, other, [1]) } == FileSystemError(.noSpace))
        }
        injected.clearFaults()
        try write(injected, other, [1])
        #expect(injected.contents(of: "/g") == [1])
    }

    @Test func testFS_ReadOnlyMount_RefusesChanges() throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/f", contents: [1])
        let file = try fs.open("/f", .readWrite)
        fs.isReadOnly = true
        func kind(_ body: () throws -> Void) -> FileSystemError.Kind? { caught(FileSystemError.self, body)?.kind }
        #expect(kind { try write(fs, file, [2]) } == .readOnly)
        #expect(kind { _ = try fs.open("/f", .readWrite) } == .readOnly)
        #expect(kind { _ = try fs.open("/g", FileOpenMode(writable: false, create: true)) } == .readOnly)
        #expect(kind { try fs.rename("/f", to: "/h") } == .readOnly)
        #expect(kind { try fs.unlink("/f") } == .readOnly)
        let reader = try fs.open("/f", .readOnly)
        #expect(try fs.size(reader) == 1, "reading still works")
        fs.failNext(.write, with: .readOnly)
        fs.isReadOnly = false
        #expect(kind { try write(fs, file, [2]) } == .readOnly, "EROFS injected for one call")
        try write(fs, file, [2])
    }

    @Test func testFS_FailNext_EachKindOnce() throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/f", contents: [1])
        for operation in [CrashableFileSystem.Operation.open, .rename, .createDirectory, .synchronizeDirectory] {
            fs.failNext(operation, with: .io)
        }
        func kind(_ body: () throws -> Void) -> FileSystemError.Kind? { caught(FileSystemError.self, body)?.kind }
        #expect(kind { _ = try fs.open("/f", .readOnly) } == .io)
        #expect(kind { _ = try fs.open("/f", .readOnly) } == nil)
        #expect(kind { try fs.rename("/f", to: "/g") } == .io)
        #expect(fs.exists("/f"), "a failed rename changes nothing")
        #expect(kind { try fs.createDirectory("/d") } == .io)
        #expect(kind { try fs.synchronizeDirectory("/") } == .io)
        #expect(kind { try fs.synchronizeDirectory("/") } == nil)
    }

    @Test func testFS_Counters_CountEveryCall() throws {
        let fs = CrashableFileSystem()
        var seen: [CrashableFileSystem.Operation] = []
        fs.onOperation = { operation, _ in seen.append(operation) }
        let file = try fs.open("/f", FileOpenMode(writable: true, create: true))
        try write(fs, file, [1, 2])
        try fs.synchronizeData(file)
        try fs.synchronizeDirectory("/")
        fs.close(file)
        #expect(seen == [.open, .write, .synchronizeData, .synchronizeDirectory, .close])
        #expect(fs.operationCount == 5)
        #expect(fs.count(of: .write) == 1)
    }

    @Test func testFS_CutPower_AfterEveryOperation_LeavesAConsistentState() throws {
        // The workload: tmp + fsync + rename + fsync(dir). Whatever operation the power is
        // cut after, the file holds the old or the new contents, never anything else.
        let old: [UInt8] = [1, 1, 1]
        let new: [UInt8] = [2, 2, 2, 2]
        func workload(_ fs: CrashableFileSystem) throws {
            let tmp = try fs.open("/s.tmp", FileOpenMode(writable: true, create: true))
            try write(fs, tmp, new)
            try fs.synchronize(tmp)
            fs.close(tmp)
            try fs.rename("/s.tmp", to: "/s")
            try fs.synchronizeDirectory("/")
        }
        var outcomes: [[UInt8]] = []
        for k in 0...6 {
            let fs = CrashableFileSystem()
            fs.seedFile("/s", contents: old)
            fs.cutPower(afterOperations: k)
            do { try workload(fs) } catch { #expect(error as? FileSystemError == FileSystemError(.io)) }
            #expect(fs.isPoweredOff == (k < 6))
            fs.crash()
            outcomes.append(fs.contents(of: "/s") ?? [])
        }
        #expect(outcomes == [old, old, old, old, old, old, new])
    }

    @Test func testFS_FailAfter_FailsEverythingLater() throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/f", contents: [])
        fs.failAfter(operations: 2, with: .io)
        let file = try fs.open("/f", .readWrite)
        try write(fs, file, [1])
        #expect(caught(FileSystemError.self) { try fs.synchronizeData(file) } == FileSystemError(.io))
        #expect(caught(FileSystemError.self) { _ = try fs.size(file) } == FileSystemError(.io))
        fs.clearFaults()
        #expect(try fs.size(file) == 1)
    }
}

import HAL
import HALSim
import SystemPackage
import Testing

/// Durability: what survives `crash()`.
@Suite struct CrashableFileSystemTests {
    let old = [UInt8](repeating: 0x11, count: 1000)
    let new = [UInt8](repeating: 0x22, count: 1000)

    func write(_ fs: CrashableFileSystem, _ file: FileHandle, _ bytes: [UInt8], at offset: Int64 = 0) throws {
        var fs = fs
        try bytes.withUnsafeBytes { try fs.writeAll(file, $0, at: offset) }
    }

    func read(_ fs: CrashableFileSystem, _ file: FileHandle, count: Int, at offset: Int64 = 0) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0xEE, count: count)
        let n = try buffer.withUnsafeMutableBytes { try fs.read(file, into: $0, at: offset) }
        return Array(buffer[..<n])
    }

    /// Flat memory: the weather cache is rewritten hourly by temporary file and
    /// rename; each replaced copy must be freed once nothing can bring it back, or a year's
    /// soak measures the simulated disk instead of the device.
    @Test func testFS_ReplacedFiles_Freed_CrashStillSafe() throws {
        var fs = CrashableFileSystem()
        try fs.createDirectory("/state")
        try fs.synchronizeDirectory("/")
        try fs.replace("weather.cache", in: "/state", with: old)
        let settled = fs.inodeCount
        for round in 0..<500 {
            try fs.replace("weather.cache", in: "/state", with: round % 2 == 0 ? new : old)
        }
        #expect(fs.inodeCount == settled, "replaced copies are kept: \(fs.inodeCount) inodes, \(settled) at the start")
        // An unlinked file that is still open keeps its data until it is closed.
        let file = try fs.open("/state/weather.cache", .readOnly)
        try fs.unlink("/state/weather.cache")
        try fs.synchronizeDirectory("/state")
        #expect(try read(fs, file, count: 1000) == old)
        fs.close(file)
        #expect(fs.inodeCount == settled - 1)
        // A synced file whose name is not durable yet survives a crash that applies the link.
        let created = try fs.open("/state/new", FileOpenMode(writable: true, create: true))
        try write(fs, created, new)
        try fs.synchronize(created)
        fs.close(created)
        try fs.synchronizeDirectory("/state")
        fs.crash()
        #expect(fs.contents(of: "/state/new") == new)
    }

    @Test func testFS_UnsyncedWrite_LostInCrash_SyncedKept() throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/store.a", contents: old)
        let file = try fs.open("/store.a", .readWrite)
        try write(fs, file, new)
        #expect(fs.contents(of: "/store.a") == new, "reads see the write at once")
        fs.crash()
        #expect(fs.contents(of: "/store.a") == old)

        let again = try fs.open("/store.a", .readWrite)
        try write(fs, again, new)
        try fs.synchronizeData(again)
        fs.crash()
        #expect(fs.contents(of: "/store.a") == new)
    }

    @Test func testFS_CreatedFile_NameLostWithoutDirectorySync() throws {
        let fs = CrashableFileSystem()
        fs.seedDirectory("/data")
        let file = try fs.open("/data/new", FileOpenMode(writable: true, create: true))
        try write(fs, file, new)
        try fs.synchronize(file)  // fsync of the file: data durable, name not
        #expect(fs.durableContents(of: "/data/new") == nil)
        fs.crash()
        #expect(!fs.exists("/data/new"))

        let again = try fs.open("/data/new", FileOpenMode(writable: true, create: true))
        try write(fs, again, new)
        try fs.synchronize(again)
        try fs.synchronizeDirectory("/data")
        fs.crash()
        #expect(fs.contents(of: "/data/new") == new)
    }

    @Test func testFS_DirectorySyncWithoutFileSync_KeepsAnEmptyFile() throws {
        let fs = CrashableFileSystem()
        let file = try fs.open("/f", FileOpenMode(writable: true, create: true))
        try write(fs, file, new)
        try fs.synchronizeDirectory("/")
        fs.crash()
        #expect(fs.contents(of: "/f") == [], "the name survived, the data did not")
    }

    @Test func testFS_Rename_DurableOnlyAfterDirectorySync() throws {
        for syncDirectory in [false, true] {
            let fs = CrashableFileSystem()
            fs.seedFile("/settings.json", contents: old)
            let tmp = try fs.open("/settings.json.tmp", FileOpenMode(writable: true, create: true, exclusive: true))
            try write(fs, tmp, new)
            try fs.synchronize(tmp)
            fs.close(tmp)
            try fs.rename("/settings.json.tmp", to: "/settings.json")
            #expect(fs.contents(of: "/settings.json") == new)
            if syncDirectory { try fs.synchronizeDirectory("/") }
            fs.crash()
            #expect(fs.contents(of: "/settings.json") == (syncDirectory ? new : old))
            #expect(!fs.exists("/settings.json.tmp"))
        }
    }

    @Test func testFS_Unlink_DurableOnlyAfterDirectorySync() throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/a", contents: old)
        try fs.unlink("/a")
        #expect(!fs.exists("/a"))
        fs.crash()
        #expect(fs.contents(of: "/a") == old)
        try fs.unlink("/a")
        try fs.synchronizeDirectory("/")
        fs.crash()
        #expect(!fs.exists("/a"))
    }

    @Test(arguments: [0, 1, 500, 512, 999, 1000])
    func testFS_TornWrite_KeepsFirstNBytes(n: Int) throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/log", contents: old)
        let file = try fs.open("/log", .readWrite)
        try write(fs, file, new)
        fs.crash(tearingLastWriteAt: n)
        #expect(fs.contents(of: "/log") == Array(new[..<n]) + Array(old[n...]))
    }

    @Test func testFS_TornWrite_TailZerosOrGarbage() throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/log", contents: old)
        let file = try fs.open("/log", .readWrite)
        try write(fs, file, [1, 2, 3, 4], at: 10)
        let copy = fs.copy()
        fs.crash(tearingLastWriteAt: 1, tail: .zeros)
        #expect(fs.contents(of: "/log")?[9...14] == [0x11, 1, 0, 0, 0, 0x11])
        copy.crash(tearingLastWriteAt: 2, tail: .garbage(seed: 9))
        let torn = copy.contents(of: "/log") ?? []
        #expect(torn[10...11] == [1, 2])
        #expect(torn[12...13] != [3, 4] || torn[12...13] != [0x11, 0x11])
        #expect(torn.count == 1000)
    }

    @Test func testFS_TornWrite_OnlyTheLastUnsyncedWrite() throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/log", contents: [0, 0, 0, 0])
        let file = try fs.open("/log", .readWrite)
        try write(fs, file, [1, 1], at: 0)
        try fs.synchronizeData(file)
        try write(fs, file, [2, 2], at: 2)
        fs.crash(tearingLastWriteAt: 1)
        #expect(fs.contents(of: "/log") == [1, 1, 2, 0])
    }

    @Test func testFS_CrashSubset_KeepsChosenPendingChangesInOrder() throws {
        let fs = CrashableFileSystem()
        let file = try fs.open("/new", FileOpenMode(writable: true, create: true))
        try write(fs, file, [1, 2, 3])
        try write(fs, file, [9], at: 1)
        #expect(fs.pendingOperations.map(\.description) == [
            "#0 create /new", "#1 write 3 B at 0 to /new", "#2 write 1 B at 1 to /new",
        ])
        let copies = (0..<3).map { _ in fs.copy() }
        copies[0].crash { $0.kind == .create }
        #expect(copies[0].contents(of: "/new") == [])
        copies[1].crash { _ in true }
        #expect(copies[1].contents(of: "/new") == [1, 9, 3])
        copies[2].crash { $0.index != 1 }
        #expect(copies[2].contents(of: "/new") == [0, 9], "the later write alone, zero-filled before it")
        #expect(fs.contents(of: "/new") == [1, 9, 3], "the original is untouched")
    }

    @Test func testFS_CrashSubset_RenameWithoutItsData() throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/s", contents: old)
        let tmp = try fs.open("/s.tmp", FileOpenMode(writable: true, create: true))
        try write(fs, tmp, new)  // no fsync: the classic bug
        try fs.rename("/s.tmp", to: "/s")
        #expect(fs.pendingOperations.map(\.kind) == [.create, .write(offset: 0, count: 1000), .rename(to: "/s")])
        let renamedOnly = fs.copy()
        renamedOnly.crash { $0.kind != .write(offset: 0, count: 1000) }
        #expect(renamedOnly.contents(of: "/s") == [], "the new name points at an empty file")
        fs.crash { _ in true }
        #expect(fs.contents(of: "/s") == new)
    }

    @Test func testFS_Crash_InvalidatesHandlesAndReleasesLocks() throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/lock", contents: [])
        let a = try fs.open("/lock", .readWrite)
        try fs.lock(a)
        fs.crash()
        #expect(fs.openFileCount == 0)
        #expect(caught(FileSystemError.self) { _ = try fs.size(a) } == FileSystemError(.other, errno: .badFileDescriptor))
        let b = try fs.open("/lock", .readWrite)
        try fs.lock(b)
        #expect(fs.crashCount == 1)
    }

    @Test func testFS_Resize_DurableAfterDataSync() throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/store.a", contents: old)
        let file = try fs.open("/store.a", .readWrite)
        try fs.resize(file, to: 65536)
        #expect(try fs.size(file) == 65536)
        fs.crash()
        #expect(fs.contents(of: "/store.a")?.count == 1000)
        let again = try fs.open("/store.a", .readWrite)
        try fs.resize(again, to: 10)
        try fs.resize(again, to: 20)
        try fs.synchronizeData(again)
        fs.crash()
        #expect(fs.contents(of: "/store.a") == Array(old[..<10]) + [UInt8](repeating: 0, count: 10))
    }

    @Test func testFS_ReadPastEnd_ZeroAndWritePastEnd_ZeroFills() throws {
        let fs = CrashableFileSystem()
        let file = try fs.open("/f", FileOpenMode(writable: true, create: true))
        #expect(try read(fs, file, count: 8) == [])
        try write(fs, file, [7], at: 5)
        #expect(try fs.size(file) == 6)
        #expect(try read(fs, file, count: 8) == [0, 0, 0, 0, 0, 7])
        #expect(try read(fs, file, count: 8, at: 6) == [])
        #expect(try read(fs, file, count: 8, at: 600) == [])
    }

    @Test func testFS_OpenErrors_UseTheSharedKinds() throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/dir/file", contents: [1])
        func kind(_ body: () throws -> Void) -> FileSystemError.Kind? { caught(FileSystemError.self, body)?.kind }
        #expect(kind { _ = try fs.open("/missing", .readOnly) } == .notFound)
        #expect(kind { _ = try fs.open("/nodir/x", FileOpenMode(writable: true, create: true)) } == .notFound)
        #expect(kind { _ = try fs.open("/dir/file", FileOpenMode(writable: true, create: true, exclusive: true)) } == .exists)
        #expect(kind { _ = try fs.open("/dir", .readOnly) } == .isDirectory)
        #expect(kind { _ = try fs.open("/dir/file/x", .readOnly) } == .notDirectory)
        #expect(kind { try fs.createDirectory("/dir") } == .exists)
        #expect(kind { try fs.unlink("/dir") } == .isDirectory)
        #expect(kind { try fs.unlink("/dir/none") } == .notFound)
        #expect(kind { try fs.rename("/dir/file", to: "/dir") } == .isDirectory)
        #expect(kind { try fs.synchronizeDirectory("/dir/file") } == .notDirectory)
        let ro = try fs.open("/dir/file", .readOnly)
        #expect(caught(FileSystemError.self) { try write(fs, ro, [1]) } == FileSystemError(.other, errno: .badFileDescriptor))
    }

    @Test func testFS_Lock_SecondHandleConflictsUntilClose() throws {
        let fs = CrashableFileSystem()
        fs.seedFile("/store.lock", contents: [])
        let a = try fs.open("/store.lock", .readWrite)
        let b = try fs.open("/store.lock", .readWrite)
        try fs.lock(a)
        try fs.lock(a)  // the holder may lock again
        #expect(caught(FileSystemError.self) { try fs.lock(b) } == FileSystemError(.locked))
        fs.close(a)
        try fs.lock(b)
    }

    @Test func testFS_DirectoriesAndNestedRename() throws {
        let fs = CrashableFileSystem()
        try fs.createDirectory("/var")
        try fs.createDirectory("/var/lib")
        let file = try fs.open("/var/lib/x", FileOpenMode(writable: true, create: true))
        try write(fs, file, [5])
        try fs.synchronize(file)
        try fs.synchronizeDirectory("/var/lib")
        fs.crash()
        #expect(!fs.exists("/var"), "mkdir needs its parent synced too")
        try fs.createDirectory("/var")
        try fs.createDirectory("/var/lib")
        let again = try fs.open("/var/lib/x", FileOpenMode(writable: true, create: true))
        try write(fs, again, [5])
        try fs.synchronize(again)
        for dir: FilePath in ["/", "/var", "/var/lib"] { try fs.synchronizeDirectory(dir) }
        #expect(fs.durableImage() == fs.image())
        fs.crash()
        #expect(fs.image().files == ["/var/lib/x": [5]])
        #expect(fs.image().directories == ["/", "/var", "/var/lib"])
        #expect(fs.listDirectory("/var") == ["lib"])
    }
}

import Glibc
import HAL
@testable import HALLinux
import SystemPackage
import Testing

@Suite struct FileSystemSeamTests {
    @Test func eachRequirementIsExactlyItsSystemCall() throws {
        let calls = ScriptedSystemCalls()
        let fs = LinuxFileSystem(calls: calls)
        let f = try fs.open("/var/lib/t/a", FileOpenMode(writable: true, create: true, exclusive: true))
        let bytes: [UInt8] = [1, 2, 3]
        _ = try bytes.withUnsafeBytes { try fs.write(f, $0, at: 4096) }
        try fs.synchronizeData(f)
        try fs.synchronize(f)
        try fs.lock(f)
        try fs.resize(f, to: 8192)
        calls.fileSize = 8192
        #expect(try fs.size(f) == 8192)
        try fs.rename("/var/lib/t/a", to: "/var/lib/t/b")
        try fs.unlink("/var/lib/t/b")
        try fs.createDirectory("/var/lib/t2")
        try fs.synchronizeDirectory("/var/lib/t")
        fs.close(f)
        #expect(calls.calls == [
            .open("/var/lib/t/a", O_RDWR | O_CLOEXEC | O_CREAT | O_EXCL),
            .pwrite(7, [1, 2, 3], 4096),
            .fdatasync(7), .fsync(7), .flock(7, LOCK_EX | LOCK_NB), .ftruncate(7, 8192), .fstat(7),
            .rename("/var/lib/t/a", "/var/lib/t/b"), .unlink("/var/lib/t/b"), .mkdir("/var/lib/t2", 0o755),
            .open("/var/lib/t", O_RDONLY | O_DIRECTORY | O_CLOEXEC), .fsync(7), .close(7),
            .close(7),
        ])
    }

    @Test(arguments: [
        (ENOENT, FileSystemError.Kind.notFound), (EEXIST, .exists), (EACCES, .permissionDenied),
        (EPERM, .permissionDenied), (EROFS, .readOnly), (ENOSPC, .noSpace), (EDQUOT, .noSpace),
        (EIO, .io), (EWOULDBLOCK, .locked), (EISDIR, .isDirectory), (ENOTDIR, .notDirectory),
        (EINVAL, .other),
    ])
    func errnoMapsToKind(errno: Int32, kind: FileSystemError.Kind) {
        let calls = ScriptedSystemCalls()
        let fs = LinuxFileSystem(calls: calls)
        calls.fail("fdatasync", with: errno)
        #expect(throws: FileSystemError(kind, errno: Errno(rawValue: errno))) {
            try fs.synchronizeData(FileHandle(rawValue: 3))
        }
    }

    @Test func pwriteRetriesEINTRAndWriteAllContinuesShortWrites() throws {
        let calls = ScriptedSystemCalls()
        var fs = LinuxFileSystem(calls: calls)
        calls.fail("pwrite", with: EINTR, EINTR, EINTR)
        calls.shortWrite = 2
        let bytes: [UInt8] = [1, 2, 3, 4, 5]
        try bytes.withUnsafeBytes { try fs.writeAll(FileHandle(rawValue: 3), $0, at: 100) }
        #expect(calls.names("pwrite") == [
            .pwrite(3, [1, 2, 3, 4, 5], 100), .pwrite(3, [1, 2, 3, 4, 5], 100), .pwrite(3, [1, 2, 3, 4, 5], 100),
            .pwrite(3, [1, 2, 3, 4, 5], 100), .pwrite(3, [3, 4, 5], 102), .pwrite(3, [5], 104),
        ])
    }

    @Test func directorySyncClosesEvenWhenFsyncFails() {
        let calls = ScriptedSystemCalls()
        let fs = LinuxFileSystem(calls: calls)
        calls.fail("fsync", with: EIO)
        #expect(throws: FileSystemError(.io, errno: .ioError)) { try fs.synchronizeDirectory("/data") }
        #expect(calls.names("close") == [.close(7)])
    }
}

/// The same calls against the real kernel, in a temporary directory.
@Suite struct LinuxFileSystemTests {
    @Test func roundTripOnRealFiles() throws {
        var fs = LinuxFileSystem()
        let dir = try TemporaryDirectory()
        let path = FilePath(dir.path + "/store-a")
        let f = try fs.open(path, FileOpenMode(writable: true, create: true, exclusive: true))
        #expect(throws: FileSystemError(.exists, errno: .fileExists)) {
            _ = try fs.open(path, FileOpenMode(writable: true, create: true, exclusive: true))
        }
        try fs.resize(f, to: 4096)
        #expect(try fs.size(f) == 4096)
        let record: [UInt8] = Array("seq=1 units=metric".utf8)
        try record.withUnsafeBytes { try fs.writeAll(f, $0, at: 512) }
        try fs.synchronizeData(f)
        var back = [UInt8](repeating: 0, count: record.count)
        #expect(try back.withUnsafeMutableBytes { try fs.readFully(f, into: $0, at: 512) } == record.count)
        #expect(back == record)
        var tail = [UInt8](repeating: 0, count: 16)
        #expect(try tail.withUnsafeMutableBytes { try fs.read(f, into: $0, at: 4096) } == 0)
        try fs.rename(path, to: FilePath(dir.path + "/store-b"))
        try fs.synchronizeDirectory(FilePath(dir.path))
        fs.close(f)
        #expect(throws: FileSystemError(.notFound, errno: .noSuchFileOrDirectory)) { _ = try fs.open(path, .readOnly) }
        try fs.unlink(FilePath(dir.path + "/store-b"))
    }

    @Test func secondLockOnTheSameFileIsRefused() throws {
        let fs = LinuxFileSystem()
        let dir = try TemporaryDirectory()
        let path = FilePath(dir.path + "/lock")
        let a = try fs.open(path, FileOpenMode(writable: true, create: true))
        let b = try fs.open(path, .readWrite)
        defer { fs.close(a); fs.close(b) }
        try fs.lock(a)
        #expect(throws: FileSystemError(.locked, errno: .wouldBlock)) { try fs.lock(b) }
    }
}

/// A directory under /tmp removed (with its files) when the value goes away.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/thunderstorm-test-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Errno(rawValue: errno)
        }
        path = String(cString: made)
    }

    deinit {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(dir)
        }
        rmdir(path)
    }
}

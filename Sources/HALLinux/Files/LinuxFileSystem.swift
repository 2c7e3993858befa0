import Glibc
import HAL
import SystemPackage

/// The file-system seam on POSIX: each requirement is exactly the one system call it names, so
/// what the store pays per commit (`pwrite` + `fdatasync`) is what the kernel sees.
public struct LinuxFileSystem<Calls: SystemCalls>: FileSystem {
    let calls: Calls

    public init(calls: Calls) { self.calls = calls }

    public func open(_ path: FilePath, _ mode: FileOpenMode) throws(FileSystemError) -> FileHandle {
        var flags = (mode.writable ? O_RDWR : O_RDONLY) | O_CLOEXEC
        if mode.create { flags |= O_CREAT }
        if mode.create && mode.exclusive { flags |= O_EXCL }
        let fd = try check(withCString(path) { p in systemCall { calls.open(p, flags, 0o644) } })
        return FileHandle(rawValue: fd)
    }

    public func close(_ file: FileHandle) {
        _ = calls.close(file.rawValue)
    }

    public func read(_ file: FileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
        throws(FileSystemError) -> Int
    {
        try check(systemCall { calls.pread(file.rawValue, buffer.baseAddress, buffer.count, off_t(offset)) })
    }

    public func write(_ file: FileHandle, _ bytes: UnsafeRawBufferPointer, at offset: Int64)
        throws(FileSystemError) -> Int
    {
        try check(systemCall { calls.pwrite(file.rawValue, bytes.baseAddress, bytes.count, off_t(offset)) })
    }

    public func synchronizeData(_ file: FileHandle) throws(FileSystemError) {
        _ = try check(systemCall { calls.fdatasync(file.rawValue) })
    }

    public func synchronize(_ file: FileHandle) throws(FileSystemError) {
        _ = try check(systemCall { calls.fsync(file.rawValue) })
    }

    public func synchronizeDirectory(_ path: FilePath) throws(FileSystemError) {
        let fd = try check(withCString(path) { p in
            systemCall { calls.open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }
        })
        defer { _ = calls.close(fd) }
        _ = try check(systemCall { calls.fsync(fd) })
    }

    public func rename(_ source: FilePath, to destination: FilePath) throws(FileSystemError) {
        _ = try check(withCString(source) { s in
            withCString(destination) { d in systemCall { calls.rename(s, d) } }
        })
    }

    public func unlink(_ path: FilePath) throws(FileSystemError) {
        _ = try check(withCString(path) { p in systemCall { calls.unlink(p) } })
    }

    public func size(_ file: FileHandle) throws(FileSystemError) -> Int64 {
        var status = stat()
        _ = try check(systemCall { calls.fstat(file.rawValue, &status) })
        return Int64(status.st_size)
    }

    public func resize(_ file: FileHandle, to size: Int64) throws(FileSystemError) {
        _ = try check(systemCall { calls.ftruncate(file.rawValue, off_t(size)) })
    }

    public func lock(_ file: FileHandle) throws(FileSystemError) {
        _ = try check(systemCall { calls.flock(file.rawValue, LOCK_EX | LOCK_NB) })
    }

    public func createDirectory(_ path: FilePath) throws(FileSystemError) {
        _ = try check(withCString(path) { p in systemCall { calls.mkdir(p, 0o755) } })
    }

    private func check<R>(_ result: Result<R, Errno>) throws(FileSystemError) -> R {
        switch result {
        case .success(let value): return value
        case .failure(let e): throw FileSystemError(errno: e)
        }
    }
}

extension LinuxFileSystem where Calls == LiveSystemCalls {
    public init() { self.init(calls: LiveSystemCalls()) }
}

extension FileSystemError {
    /// errno to kind, for every call of the seam.
    public init(errno e: Errno) {
        switch e {
        case .noSuchFileOrDirectory: self.init(.notFound, errno: e)
        case .fileExists, .directoryNotEmpty: self.init(.exists, errno: e)
        case .permissionDenied, .notPermitted: self.init(.permissionDenied, errno: e)
        case .readOnlyFileSystem: self.init(.readOnly, errno: e)
        case .noSpace, .diskQuotaExceeded: self.init(.noSpace, errno: e)
        case .ioError: self.init(.io, errno: e)
        case .wouldBlock: self.init(.locked, errno: e)  // flock(LOCK_NB) on a held lock
        case .isDirectory: self.init(.isDirectory, errno: e)
        case .notDirectory: self.init(.notDirectory, errno: e)
        default: self.init(.other, errno: e)
        }
    }
}

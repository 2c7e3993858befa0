import SystemPackage

/// An open file: a descriptor on Linux, a slot in the simulated file system.
public struct FileHandle: Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
}

/// How to open a file.
public struct FileOpenMode: Equatable, Sendable {
    public var writable: Bool
    /// Create the file if it does not exist (mode 0644).
    public var create: Bool
    /// With `create`: fail with `.exists` if it does.
    public var exclusive: Bool

    public init(writable: Bool, create: Bool = false, exclusive: Bool = false) {
        self.writable = writable
        self.create = create
        self.exclusive = exclusive
    }

    public static let readOnly = FileOpenMode(writable: false)
    public static let readWrite = FileOpenMode(writable: true)
}

/// The file-system seam the store writes through: the handful of POSIX calls a crash-safe store
/// needs, and nothing more, so that a simulated file system can crash between any two of them.
///
/// This is a seam, not a one-method contract: each requirement is exactly one system call whose
/// durability promise the store relies on, and the simulation must model each one (what an
/// `fdatasync` makes durable differs from what a directory `fsync` does).
public protocol FileSystem {
    /// `open(2)`.
    mutating func open(_ path: FilePath, _ mode: FileOpenMode) throws(FileSystemError) -> FileHandle
    /// `close(2)`. Errors are not reported: durability comes from the sync calls, never close.
    mutating func close(_ file: FileHandle)
    /// `pread(2)`: returns the bytes read, 0 at end of file.
    mutating func read(_ file: FileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
        throws(FileSystemError) -> Int
    /// `pwrite(2)`: returns the bytes written, which may be fewer than asked (a full disk).
    mutating func write(_ file: FileHandle, _ bytes: UnsafeRawBufferPointer, at offset: Int64)
        throws(FileSystemError) -> Int
    /// `fdatasync(2)`: the file's data (and the size, if it changed) are durable when it returns.
    /// After a failure, the written data may be lost even if a later sync succeeds.
    mutating func synchronizeData(_ file: FileHandle) throws(FileSystemError)
    /// `fsync(2)`: data and all metadata are durable.
    mutating func synchronize(_ file: FileHandle) throws(FileSystemError)
    /// `fsync(2)` of a directory: the names created, renamed or removed in it are durable.
    mutating func synchronizeDirectory(_ path: FilePath) throws(FileSystemError)
    /// `rename(2)`: atomic replacement, durable only after the directory is synced.
    mutating func rename(_ source: FilePath, to destination: FilePath) throws(FileSystemError)
    /// `unlink(2)`.
    mutating func unlink(_ path: FilePath) throws(FileSystemError)
    /// `fstat(2)`'s `st_size`.
    mutating func size(_ file: FileHandle) throws(FileSystemError) -> Int64
    /// `ftruncate(2)`: grows (with zeros) or shrinks the file.
    mutating func resize(_ file: FileHandle, to size: Int64) throws(FileSystemError)
    /// `flock(LOCK_EX | LOCK_NB)`: an advisory lock held until the file is closed. Throws
    /// `.locked` at once if another open file description holds it.
    mutating func lock(_ file: FileHandle) throws(FileSystemError)
    /// `mkdir(2)` with mode 0755. Throws `.exists` if the path exists.
    mutating func createDirectory(_ path: FilePath) throws(FileSystemError)
}

extension FileSystem {
    /// Writes all of `bytes` at `offset`, continuing after short writes.
    public mutating func writeAll(_ file: FileHandle, _ bytes: UnsafeRawBufferPointer, at offset: Int64)
        throws(FileSystemError)
    {
        var done = 0
        while done < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[done...])
            let n = try write(file, rest, at: offset + Int64(done))
            if n == 0 { throw FileSystemError(.noSpace) }
            done += n
        }
    }

    /// Reads until `buffer` is full or the file ends; returns the bytes read.
    public mutating func readFully(_ file: FileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
        throws(FileSystemError) -> Int
    {
        var done = 0
        while done < buffer.count {
            let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[done...])
            let n = try read(file, into: rest, at: offset + Int64(done))
            if n == 0 { break }
            done += n
        }
        return done
    }
}

/// A file-system failure with a kind shared by the Linux and simulated backends.
public struct FileSystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case notFound
        case exists
        case permissionDenied
        /// EROFS: the file system is mounted read-only (an SD card the kernel gave up on).
        case readOnly
        /// ENOSPC or EDQUOT.
        case noSpace
        /// EIO: the medium failed. Data written since the last successful sync may be lost.
        case io
        /// Another process holds the lock.
        case locked
        case isDirectory
        case notDirectory
        case other
    }

    public var kind: Kind
    public var errno: Errno?

    public init(_ kind: Kind, errno: Errno? = nil) {
        self.kind = kind
        self.errno = errno
    }

    public var description: String {
        let what: String
        switch kind {
        case .notFound: what = "no such file or directory"
        case .exists: what = "already exists"
        case .permissionDenied: what = "permission denied"
        case .readOnly: what = "read-only file system"
        case .noSpace: what = "no space left on device"
        case .io: what = "I/O error (the storage medium failed)"
        case .locked: what = "locked by another process"
        case .isDirectory: what = "is a directory"
        case .notDirectory: what = "not a directory"
        case .other: what = "file-system error"
        }
        guard let errno else { return what }
        return "\(what) (errno \(errno.rawValue))"
    }
}

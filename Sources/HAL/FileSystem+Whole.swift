import SystemPackage

/// What `FileSystem.contents(of:limit:)` found.
public enum FileContents: Sendable, Equatable {
    case bytes([UInt8])
    /// Larger than the limit the caller gave; not read.
    case tooLarge(size: Int64)
}

/// Whole small files: read at once, replaced atomically. For files read or written now and then
/// (a board file, a zone, the weather cache), never on the store's commit path.
extension FileSystem {
    /// The whole file at `path` (open, `fstat`, `pread` to the end, close). A file larger than
    /// `limit` bytes is not read; one that shrank since `fstat` reads short.
    public mutating func contents(of path: FilePath, limit: Int64) throws(FileSystemError) -> FileContents {
        let file = try open(path, .readOnly)
        defer { close(file) }
        let size = try self.size(file)
        guard size >= 0, size <= limit else { return .tooLarge(size: size) }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let read = bytes.withUnsafeMutableBytes { raw in
            Result { () throws(FileSystemError) -> Int in try readFully(file, into: raw, at: 0) }
        }
        bytes.removeLast(bytes.count - (try read.get()))
        return .bytes(bytes)
    }

    /// Replaces `directory/name` with `bytes` so that a power cut leaves the old file or the new
    /// one, never half of either: `name.new` written and `fdatasync`ed, renamed over `name`,
    /// the directory synced. On a failure the old file stays and the temporary one is removed.
    public mutating func replace(_ name: String, in directory: FilePath, with bytes: [UInt8]) throws(FileSystemError) {
        let final = directory.appending(name)
        let temporary = directory.appending(name + ".new")
        do throws(FileSystemError) { try unlink(temporary) } catch where error.kind == .notFound {}
        let file = try open(temporary, FileOpenMode(writable: true, create: true, exclusive: true))
        let written = bytes.withUnsafeBytes { raw in
            Result { () throws(FileSystemError) in
                try writeAll(file, raw, at: 0)
                try synchronizeData(file)
            }
        }
        close(file)
        do throws(FileSystemError) { try written.get() } catch {
            try? unlink(temporary)
            throw error
        }
        try rename(temporary, to: final)
        try synchronizeDirectory(directory)
    }
}

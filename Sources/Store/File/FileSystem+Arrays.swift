import HAL

/// `Array.withUnsafeBytes` rethrows untyped errors; these keep `FileSystemError` typed and
/// allocate nothing.
extension FileSystem {
    mutating func writeAll(_ file: FileHandle, _ bytes: [UInt8], count: Int, at offset: Int) throws(FileSystemError) {
        var failure: FileSystemError?
        bytes.withUnsafeBytes { raw in
            do throws(FileSystemError) {
                try writeAll(file, UnsafeRawBufferPointer(rebasing: raw[..<count]), at: Int64(offset))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Reads the file from its start into `bytes`; returns the bytes read.
    mutating func readFully(_ file: FileHandle, into bytes: inout [UInt8]) throws(FileSystemError) -> Int {
        var result: Result<Int, FileSystemError> = .success(0)
        bytes.withUnsafeMutableBytes { raw in
            do throws(FileSystemError) {
                result = .success(try readFully(file, into: raw, at: 0))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }
}

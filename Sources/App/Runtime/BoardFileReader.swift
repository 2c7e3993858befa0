import HAL
import HALLinux
import SystemPackage

/// Reads a whole (small) board file through the HAL's file-system seam.
public enum BoardFileReader {
    public enum Failure: Error, Equatable {
        /// What the failing call said: "No such file or directory", "Is a directory", …
        case unreadable(String)
        /// Board files are a few KiB; a megabyte is a wrong path, not a board.
        case tooLarge(limit: Int)
    }

    public static let limit = 1 << 20

    /// Reads `path` whole, refusing a file over `limit` bytes (a board file by default; the
    /// simulator reads scripts and NMEA captures through it too).
    public static func read(_ path: String, limit: Int = BoardFileReader.limit) -> Result<[UInt8], Failure> {
        var files = LinuxFileSystem()
        do throws(FileSystemError) {
            switch try files.contents(of: FilePath(path), limit: Int64(limit)) {
            case .bytes(let bytes): return .success(bytes)
            case .tooLarge: return .failure(.tooLarge(limit: limit))
            }
        } catch {
            return .failure(.unreadable(describe(error)))
        }
    }

    /// The kernel's words for the errno ("Is a directory"), as `cat` would say them.
    private static func describe(_ error: FileSystemError) -> String {
        error.errno.map { "\($0)" } ?? error.description
    }
}

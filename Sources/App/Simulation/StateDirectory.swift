import HAL
import HALSim
import SystemPackage
import Weather

/// `simulate --state-dir DIR`: the simulated medium starts with what DIR holds and gives it
/// back at the end, so settings survive restarts; after a power cut it gives back only what
/// was durable (`CrashableFileSystem.durableImage()`), as an SD card would.
public enum StateDirectory {
    /// The files the device keeps.
    public static let fileNames = ["store.a", "store.b", WeatherCache.fileName, BarographFile.fileName]

    /// Copies the device's files from `host` into `disk` at `directory`, durably.
    public static func load(from host: FilePath, into disk: CrashableFileSystem, at directory: FilePath) throws(FileSystemError) {
        var files = HostFiles()
        var disk = disk
        if (try? disk.createDirectory(directory)) != nil {
            // A new directory's name is durable only once its parent is synced.
            var parent = directory
            parent.removeLastComponent()
            try disk.synchronizeDirectory(parent.isEmpty ? "/" : parent)
        }
        for name in fileNames {
            let contents: FileContents
            do throws(FileSystemError) {
                contents = try files.contents(of: host.appending(name), limit: 16 << 20)
            } catch where error.kind == .notFound {
                continue
            }
            guard case .bytes(let bytes) = contents else { throw FileSystemError(.other) }
            try disk.replace(name, in: directory, with: bytes)
        }
    }

    /// Writes the device's files from `image` back to `host`, each replaced atomically; a file
    /// the image no longer has is removed.
    public static func save(_ image: CrashableFileSystem.Image, from directory: FilePath, to host: FilePath) throws(FileSystemError) {
        var files = HostFiles()
        try? files.createDirectory(host)
        for name in fileNames {
            guard let bytes = image.files[directory.appending(name).string] else {
                try? files.unlink(host.appending(name))
                continue
            }
            try files.replace(name, in: host, with: bytes)
        }
    }
}

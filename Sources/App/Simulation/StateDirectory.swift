import HAL
import HALSim
import SystemPackage
import Weather

/// `simulate --state-dir DIR`: the simulated medium starts with what DIR holds and gives it
/// back at the end, so settings survive restarts; after a power cut it gives back only what
/// was durable (`CrashableFileSystem.durableImage()`), as an SD card would.
public enum StateDirectory {
    /// The files the device keeps.
    public static let fileNames = ["store.a", "store.b", WeatherCache.fileName]

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
            let path = host.appending(name)
            let opened: Result<FileHandle, FileSystemError> = Result { () throws(FileSystemError) in try files.open(path, .readOnly) }
            let handle: FileHandle
            switch opened {
            case .success(let h): handle = h
            case .failure(let error) where error.kind == .notFound: continue
            case .failure(let error): throw error
            }
            defer { files.close(handle) }
            let size = Int(try files.size(handle))
            var bytes = [UInt8](repeating: 0, count: size)
            let read = try bytes.withUnsafeMutableBytes { raw in
                Result { () throws(FileSystemError) in try files.readFully(handle, into: raw, at: 0) }
            }.get()
            let target = try disk.open(directory.appending(name), FileOpenMode(writable: true, create: true))
            try bytes.withUnsafeBytes { raw in
                Result { () throws(FileSystemError) in
                    try disk.writeAll(target, UnsafeRawBufferPointer(rebasing: raw[..<read]), at: 0)
                }
            }.get()
            try disk.synchronize(target)
            disk.close(target)
        }
        try disk.synchronizeDirectory(directory)
    }

    /// Writes the device's files from `image` back to `host` (each through a temporary name
    /// and a rename); a file the image no longer has is removed.
    public static func save(_ image: CrashableFileSystem.Image, from directory: FilePath, to host: FilePath) throws(FileSystemError) {
        var files = HostFiles()
        try? files.createDirectory(host)
        for name in fileNames {
            let target = host.appending(name)
            guard let bytes = image.files[directory.appending(name).string] else {
                try? files.unlink(target)
                continue
            }
            let temporary = host.appending(name + ".tmp")
            let handle = try files.open(temporary, FileOpenMode(writable: true, create: true))
            defer { files.close(handle) }
            try files.resize(handle, to: 0)
            try bytes.withUnsafeBytes { raw in
                Result { () throws(FileSystemError) in try files.writeAll(handle, raw, at: 0) }
            }.get()
            try files.synchronize(handle)
            try files.rename(temporary, to: target)
        }
        try files.synchronizeDirectory(host)
    }
}

import HAL
import SystemPackage

extension FileStore {
    /// Opens the store in `configuration.directory`, creating it (and the directory) if there
    /// is none, and recovers the newest readable generation.
    public convenience init(files: Files, clock: Clock, configuration: Configuration) throws(StoreOpenError) {
        var opener = StoreOpener(files: files, configuration: configuration)
        let opened = try opener.open()
        self.init(files: opener.files, clock: clock, configuration: configuration, opened: opened)
        if opened.mustMigrate, !configuration.readOnly {
            mustCompact = true
            retry()
        }
    }

    /// Fixes the spare's size (truncated by damage, or created empty) before it is written.
    func prepareSpare() throws(FileSystemError) {
        guard let handle = handles[spare] else { throw FileSystemError(.other, errno: .badFileDescriptor) }
        let size = Int(try files.size(handle))
        guard size != configuration.fileSize else { return }
        if size > configuration.fileSize { try files.resize(handle, to: Int64(configuration.fileSize)) }
        try StoreOpener<Files>.fillWithZeros(&files, handle, from: size, to: configuration.fileSize)
        try files.synchronize(handle)
        try files.synchronizeDirectory(configuration.directory)
    }
}

/// Open and recovery, apart from the store so the store's properties are all set at once.
struct StoreOpener<Files: FileSystem> {
    struct Opened {
        var handles: [FileHandle?]
        var state: StoreState
        var sequence: UInt64
        var active: Int
        var tail: Int
        var generation: UInt32
        var highestGeneration: UInt32 = 0
        var report: RecoveryReport
        var readOnlyReason: String?
        var mustMigrate = false
    }

    var files: Files
    let configuration: FileStoreConfiguration

    var directory: FilePath { configuration.directory }

    mutating func open() throws(StoreOpenError) -> Opened {
        try makeDirectory()
        var handles: [FileHandle?] = [nil, nil]
        do {
            for index in 0..<2 {
                handles[index] = try openFile(index)
                if index == 0 { try lock(handles[0]!) }
            }
            return try recover(handles.map { $0! })
        } catch {
            for case let handle? in handles { files.close(handle) }
            throw error
        }
    }

    private mutating func makeDirectory() throws(StoreOpenError) {
        guard !configuration.readOnly else { return }
        do {
            try files.createDirectory(directory)
            // The directory's own name is durable only once its parent is synced.
            var parent = directory
            if parent.removeLastComponent(), !parent.isEmpty {
                try files.synchronizeDirectory(parent)
            }
        } catch {
            if error.kind != .exists { throw .io(error, directory, operation: "create the store directory") }
        }
    }

    private mutating func openFile(_ index: Int) throws(StoreOpenError) -> FileHandle {
        let path = directory.appending(FileStoreConfiguration.fileNames[index])
        let mode = configuration.readOnly ? FileOpenMode.readOnly : FileOpenMode(writable: true, create: true)
        do {
            return try files.open(path, mode)
        } catch {
            if error.kind == .notFound, configuration.readOnly { throw .notFound(directory) }
            throw .io(error, path, operation: "open")
        }
    }

    private mutating func lock(_ handle: FileHandle) throws(StoreOpenError) {
        do {
            try files.lock(handle)
        } catch {
            if error.kind == .locked { throw .locked(directory) }
            throw .io(error, directory.appending("store.a"), operation: "lock")
        }
    }

    /// The file's record region and its size.
    mutating func read(_ handle: FileHandle, _ index: Int) throws(StoreOpenError) -> (bytes: [UInt8], size: Int) {
        let path = directory.appending(FileStoreConfiguration.fileNames[index])
        do throws(FileSystemError) {
            let size = Int(try files.size(handle))
            let region = min(size, FileStoreConfiguration.recordRegion(configuration.fileSize))
            var bytes = [UInt8](repeating: 0, count: region)
            let count = try files.readFully(handle, into: &bytes)
            bytes.removeLast(region - count)
            return (bytes, size)
        } catch {
            throw .io(error, path, operation: "read")
        }
    }
}

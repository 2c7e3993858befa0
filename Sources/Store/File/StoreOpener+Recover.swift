import HAL
import SystemPackage

extension StoreOpener {
    /// Picks the newest readable generation of the two files, or creates the store when both
    /// are blank. Writes nothing unless creating the store or fixing a missing spare.
    mutating func recover(_ handles: [FileHandle]) throws(StoreOpenError) -> Opened {
        let files = [try read(handles[0], 0), try read(handles[1], 1)]
        let recovery = Recovery(contents: files.map(\.bytes), sizes: files.map(\.size), fileSize: configuration.fileSize)
        guard let chosen = recovery.chosen else {
            return try create(handles, recovery: recovery)
        }
        let scan = recovery.scans[chosen]
        let report = recovery.report
        var opened = Opened(
            handles: handles, state: scan.state ?? .initial, sequence: scan.sequence, active: chosen, tail: scan.tail,
            generation: scan.generation!, highestGeneration: recovery.highestGeneration, report: report)
        if let newer = scan.newerSchema {
            opened.readOnlyReason =
                "written by a newer thunderstorm (schema \(newer); this build reads \(Schema.oldestReadable)…\(Schema.current)); update thunderstorm"
        } else if !configuration.readOnly {
            opened.mustMigrate = scan.schema! < Schema.current
            if opened.mustMigrate { opened.report.migratedFrom = scan.schema }
        }
        return opened
    }

    /// Neither file holds a checksummed record: a new store, or one whose creation was cut
    /// short before anything was acknowledged, is (re)created. Files holding records but no
    /// readable generation are left alone and reported.
    private mutating func create(_ handles: [FileHandle], recovery: Recovery) throws(StoreOpenError) -> Opened {
        guard recovery.isBlank else { throw .unreadable(directory, recovery.report.damage) }
        guard !configuration.readOnly else { throw .notFound(directory) }
        var buffer = [UInt8](repeating: 0, count: 2 * Record.blockSize)
        let size = buffer.withUnsafeMutableBytes { buffer in
            Record.encodeEntry(into: buffer, kind: .snapshot, generation: 1, sequence: 0) {
                SnapshotCodec.encode(.initial, into: &$0)
            }
        }
        let path = directory.appending(FileStoreConfiguration.fileNames[0])
        do throws(FileSystemError) {
            // First both files at full size, zero-filled, durable, and their names durable; only
            // then the first generation. A crash before the snapshot is durable leaves files with
            // no checksummed record, which the next open creates again; a readable snapshot
            // therefore always means both files are whole.
            for index in 0..<2 {
                if recovery.sizes[index] > configuration.fileSize {
                    try files.resize(handles[index], to: Int64(configuration.fileSize))
                }
                try Self.fillWithZeros(&files, handles[index], from: 0, to: configuration.fileSize)
                try files.synchronize(handles[index])  // the size changed: fsync, not fdatasync
            }
            try files.synchronizeDirectory(directory)
            try files.writeAll(handles[0], buffer, count: size, at: 0)
            try files.synchronizeData(handles[0])
        } catch {
            throw .io(error, path, operation: "create the store in")
        }
        var report = recovery.report
        report.created = true
        report.chosen = FileStoreConfiguration.fileNames[0]
        return Opened(
            handles: handles, state: .initial, sequence: 0, active: 0, tail: size, generation: 1,
            highestGeneration: recovery.highestGeneration, report: report)
    }

    /// Writes zeros over `start..<end`, so the blocks are allocated now and later writes in
    /// place never need a new block (no ENOSPC, no metadata journal commit).
    static func fillWithZeros(_ files: inout Files, _ handle: FileHandle, from start: Int, to end: Int)
        throws(FileSystemError)
    {
        guard start < end else { return }
        let zeros = [UInt8](repeating: 0, count: min(end - start, 64 * 1024))
        var offset = start
        while offset < end {
            let count = min(zeros.count, end - offset)
            try files.writeAll(handle, zeros, count: count, at: offset)
            offset += count
        }
    }
}

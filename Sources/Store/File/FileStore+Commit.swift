import HAL

extension FileStore {
    public func commit(_ change: StoreChange) throws(StoreError) -> CommitOutcome {
        guard isOpen else { throw .closed }
        if case .readOnly(let why) = health { throw .readOnly(why) }
        if configuration.readOnly { throw .readOnly(StoreError.openedForReading) }
        guard try state.validate(change) else { return .unchanged }
        let old = state.settings
        let number = sequence + UInt64(pending.count) + 1
        if failures > 0 || !pending.isEmpty {
            // Degraded: keep it in memory; the next retry writes it with the rest.
            state.apply(change)
            pending.append((number, change, old))
            setHealth(.degraded(lastFailure ?? FileSystemError(.io), pendingChanges: pending.count))
            return .pending
        }
        let size = buffer.withUnsafeMutableBytes { buffer in
            Record.encodeEntry(into: buffer, kind: .change, generation: generation, sequence: number) {
                ChangeCodec.encode(change, old: old, into: &$0)
            }
        }
        state.apply(change)
        let offset = appendOffset(size)
        do throws(FileSystemError) {
            if let offset, !mustCompact {
                try write(size, to: active, at: offset)
                tail = offset + size
            } else {
                try compact(sequence: number)
            }
        } catch {
            pending.append((number, change, old))
            fail(error)
            return .pending
        }
        sequence = number
        observers.send(.committed(sequence: number, change: change, old: old))
        return .durable(sequence: number)
    }

    /// Writes what is pending if the backoff has run out. The loop calls this at `nextRetry`.
    public func retryIfDue() {
        guard let due = nextRetry, clock.now() >= due, isOpen else { return }
        retry()
    }

    /// Tries at once to write what is pending (a snapshot into the other file).
    public func retry() {
        guard isOpen, mustCompact || !pending.isEmpty else { return }
        let target = sequence + UInt64(pending.count)
        do throws(FileSystemError) {
            try compact(sequence: target)
        } catch {
            fail(error)
            return
        }
        let done = pending
        pending = []
        failures = 0
        nextRetry = nil
        sequence = target
        for item in done { observers.send(.committed(sequence: item.sequence, change: item.change, old: item.old)) }
        setHealth(restingHealth)
    }

    /// Where an entry of `size` bytes goes in the active file, or nil if it belongs in a new
    /// snapshot: entries never cross a block, and the log stops at half the file.
    func appendOffset(_ size: Int) -> Int? {
        let (near, far) = FileScan.candidates(after: tail)
        let offset = near % Record.blockSize + size <= Record.blockSize ? near : (far ?? near)
        return offset + size <= configuration.fileSize / 2 ? offset : nil
    }

    /// Writes the whole state as a snapshot of the next generation at the start of the spare
    /// file, makes it durable, and makes that file the active one.
    func compact(sequence number: UInt64) throws(FileSystemError) {
        try prepareSpare()
        let next = nextGeneration
        nextGeneration &+= 1
        let state = self.state
        let size = buffer.withUnsafeMutableBytes { buffer in
            Record.encodeEntry(into: buffer, kind: .snapshot, generation: next, sequence: number) {
                SnapshotCodec.encode(state, into: &$0)
            }
        }
        try write(size, to: spare, at: 0)
        active = spare
        generation = next
        tail = size
        mustCompact = false
    }

    /// One `pwrite` of the encoded entry and one `fdatasync`.
    func write(_ size: Int, to file: Int, at offset: Int) throws(FileSystemError) {
        guard let handle = handles[file] else { throw FileSystemError(.other, errno: .badFileDescriptor) }
        try files.writeAll(handle, buffer, count: size, at: offset)
        try files.synchronizeData(handle)
    }

    func fail(_ error: FileSystemError) {
        lastFailure = error
        mustCompact = true
        failures += 1
        let exponent = min(failures - 1, 20)
        let delay = min(configuration.firstRetry * (1 << exponent), configuration.longestRetry)
        nextRetry = clock.now() + delay
        setHealth(.degraded(error, pendingChanges: pending.count))
    }
}

extension FileStore {
    /// Writes the whole state now as a new generation into the other file, whatever the
    /// backoff says: `store repair` after damage (the damaged file becomes the spare and is
    /// overwritten at the next compaction), or a manual retry. Returns whether it is durable.
    @discardableResult
    public func rewrite() throws(StoreError) -> Bool {
        guard isOpen else { throw .closed }
        if case .readOnly(let why) = health { throw .readOnly(why) }
        if configuration.readOnly { throw .readOnly(StoreError.openedForReading) }
        mustCompact = true
        retry()
        return !mustCompact
    }
}

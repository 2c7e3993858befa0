import HAL

/// Operation counters and fault injection.
extension CrashableFileSystem {
    /// The calls of the `FileSystem` seam, for counting and fault injection.
    public enum Operation: String, CaseIterable, Sendable, Hashable {
        case open, close, read, write, synchronizeData, synchronize, synchronizeDirectory
        case rename, unlink, size, resize, lock, createDirectory

        /// Every call that can fail (all but `close`).
        public static let failable: Set<Operation> = Set(allCases).subtracting([.close])
        /// The calls that change the file system or make changes durable.
        public static let changing: Set<Operation> = [
            .write, .resize, .synchronizeData, .synchronize, .synchronizeDirectory, .rename, .unlink,
            .createDirectory,
        ]
    }

    struct FaultRule {
        var operations: Set<Operation>
        var kind: FileSystemError.Kind
        /// Operations numbered below this are not affected.
        var activeFrom: Int
        var remaining: Int?
    }

    /// How many times `operation` was called (failed calls included).
    public func count(of operation: Operation) -> Int { operationCounts[operation, default: 0] }

    /// The next `count` calls of `operation` fail with `kind`.
    public func failNext(_ operation: Operation, with kind: FileSystemError.Kind, count: Int = 1) {
        fail([operation], with: kind, count: count)
    }

    /// Calls of `operations` fail with `kind`: the next `count` of them (every one until
    /// `clearFaults()` when `nil`), starting after `afterOperations` more operations of any
    /// kind. Failures have their usual side effects: a failed sync loses the dirty pages.
    public func fail(
        _ operations: Set<Operation>, with kind: FileSystemError.Kind, count: Int? = nil, afterOperations: Int = 0
    ) {
        rules.append(
            FaultRule(operations: operations, kind: kind, activeFrom: operationCount + afterOperations + 1, remaining: count))
    }

    /// Every write (`pwrite`) fails with `kind` until `clearFaults()`: `.noSpace` for a full
    /// card, `.io` for a dying one.
    public func failWrites(with kind: FileSystemError.Kind) { fail([.write], with: kind) }

    /// ESP-IDF's `failAfter(N)`: after `operations` more operations, every call fails with
    /// `kind` until `clearFaults()`.
    public func failAfter(operations: Int, with kind: FileSystemError.Kind = .io) {
        fail(Operation.failable, with: kind, afterOperations: operations)
    }

    /// Power is cut after `operations` more operations: every later call fails with `.io` and
    /// changes nothing (not even losing pages), so the durable state stays as it was after
    /// operation k. `crash()` then restores power. This is littlefs's and SQLite's crash
    /// point: run the workload once per k.
    public func cutPower(afterOperations operations: Int) {
        powerCutAt = operationCount + operations
        if operations <= 0 { isPoweredOff = true }
    }

    /// Removes every injected fault (not the read-only mount, not a power cut).
    public func clearFaults() { rules.removeAll() }

    func tick(_ operation: Operation) {
        operationCount += 1
        operationCounts[operation, default: 0] += 1
        if let cut = powerCutAt, operationCount > cut { isPoweredOff = true }
        onOperation?(operation, operationCount)
    }

    /// The error an injected fault gives this call, if any (and counts the fault down).
    func injectedFailure(_ operation: Operation) -> FileSystemError? {
        if isPoweredOff { return FileSystemError(.io) }
        for index in rules.indices {
            let rule = rules[index]
            guard rule.operations.contains(operation), operationCount >= rule.activeFrom else { continue }
            if let remaining = rule.remaining {
                if remaining <= 1 { rules.remove(at: index) } else { rules[index].remaining = remaining - 1 }
            }
            return FileSystemError(rule.kind)
        }
        return nil
    }

    func injected(_ operation: Operation) throws(FileSystemError) {
        if let failure = injectedFailure(operation) { throw failure }
    }
}

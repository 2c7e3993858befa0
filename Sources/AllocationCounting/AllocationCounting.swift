import CMallocCounter
#if canImport(Glibc)
import Glibc
#endif

// Counting Swift heap allocations in tests: the claim "no allocation in steady state"
// (docs/design/architecture.md#the-loop) is checked in `swift test` as well as in Benchmarks/. A library target, like
// ArgumentParserTestHelpers, so every test target uses the one copy.

/// The runtime's instrumentation hook for `swift_allocObject`: every class instance, array or
/// string buffer, closure context and boxed existential goes through it. (Raw `malloc` calls,
/// e.g. `UnsafeMutablePointer.allocate`, do not, and are not counted.)
typealias SwiftAllocObjectFunction = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

nonisolated(unsafe) private var allocationsSeen = 0
nonisolated(unsafe) private var realAllocObject: SwiftAllocObjectFunction?

private let countingAllocObject: SwiftAllocObjectFunction = { metadata, size, alignment in
    allocationsSeen += 1
    return realAllocObject!(metadata, size, alignment)
}

public enum AllocationCount: Equatable, Sendable {
    case counted(Int)
    /// The runtime has no hook, or the child process failed; the reason says which.
    case unavailable(String)
}

/// Counts the Swift heap allocations `body` makes. The runtime's hook is process-wide and turning
/// it on changes how every thread retains, so the counting run happens in a forked child, which
/// has a single thread; the tests running in parallel here never see the hook. The child also
/// removes the test library's will-throw handler (see below). `body` runs once
/// in the parent first, so any lazy metadata is instantiated before the fork.
public func countAllocations(_ body: () -> Void) -> AllocationCount {
    body()
    guard let process = dlopen(nil, RTLD_NOW),
        let hookAddress = dlsym(process, "_swift_allocObject"),
        let flagAddress = dlsym(process, "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")
    else { return .unavailable("no _swift_allocObject hook in this runtime") }
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return .unavailable("pipe failed") }
    let pid = fork()
    if pid == 0 {
        let hook = hookAddress.assumingMemoryBound(to: SwiftAllocObjectFunction.self)
        realAllocObject = hook.pointee
        hook.pointee = countingAllocObject
        flagAddress.assumingMemoryBound(to: Bool.self).pointee = true
        // Swift Testing installs a will-throw handler that boxes every thrown error (an
        // allocation) to record where it was thrown; the firmware has none. Typed throws
        // allocate nothing without it.
        for name in ["_swift_willThrow", "_swift_willThrowTypedImpl"] {
            dlsym(process, name)?.assumingMemoryBound(to: UnsafeRawPointer?.self).pointee = nil
        }
        allocationsSeen = 0
        body()
        var result = Int64(allocationsSeen)
        _ = withUnsafeBytes(of: &result) { write(fds[1], $0.baseAddress, 8) }
        _exit(0)
    }
    close(fds[1])
    defer { close(fds[0]) }
    guard pid > 0 else { return .unavailable("fork failed") }
    // A child that deadlocks (a lock another test thread held at fork time) must not hang the
    // run: wait at most 30 s, then kill it and say so.
    var ready = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
    guard poll(&ready, 1, 30_000) == 1 else {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return .unavailable("the counting child did not answer within 30 s")
    }
    var result: Int64 = -1
    let n = withUnsafeMutableBytes(of: &result) { read(fds[0], $0.baseAddress, 8) }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    guard n == 8 else { return .unavailable("the counting child died (wait status \(status))") }
    return .counted(Int(result))
}

/// Keeps `value` alive and observable, so the optimiser cannot drop the work that made it.
@inline(never) public func keepAlive<T>(_ value: T) { _ = value }

/// Counts the heap allocations (`malloc`, `calloc`, `realloc`, aligned allocations) that `body`
/// makes on this thread; every Swift allocation reaches one of them. `body` runs once first,
/// uncounted, so that lazy metadata and first-use buffers are in place, then once counted.
///
/// Unlike `countAllocations` it runs in this process, with the runtime untouched: copying a
/// value that holds strings and enums with payloads is safe (the runtime's instrumentation
/// hooks mis-handle some of those retains in a forked child).
public func countMallocs(_ body: () -> Void) -> Int {
    body()
    th_malloc_count_begin()
    body()
    return th_malloc_count_end()
}

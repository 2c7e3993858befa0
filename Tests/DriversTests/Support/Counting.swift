#if canImport(Glibc)
import Glibc
#endif
import HAL
import HALSim

// Counting Swift heap allocations, as GPSTests does (`DecoderCorpusTests.swift`): the
// runtime's `_swift_allocObject` hook, switched on in a forked single-threaded child so that
// the tests running in parallel never see it.

typealias SwiftAllocObject = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

nonisolated(unsafe) private var allocations = 0
nonisolated(unsafe) private var realAllocObject: SwiftAllocObject?

private let countingAllocObject: SwiftAllocObject = { metadata, size, alignment in
    allocations += 1
    return realAllocObject!(metadata, size, alignment)
}

enum Allocations: Equatable {
    case counted(Int)
    case unavailable(String)
}

/// The Swift heap allocations `body` makes (it runs once in this process first, so lazy
/// metadata exists before the fork).
func countAllocations(_ body: () -> Void) -> Allocations {
    body()
    guard let process = dlopen(nil, RTLD_NOW),
        let hook = dlsym(process, "_swift_allocObject"),
        let flag = dlsym(process, "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")
    else { return .unavailable("no _swift_allocObject hook in this runtime") }
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return .unavailable("pipe failed") }
    let pid = fork()
    if pid == 0 {
        let pointer = hook.assumingMemoryBound(to: SwiftAllocObject.self)
        realAllocObject = pointer.pointee
        pointer.pointee = countingAllocObject
        flag.assumingMemoryBound(to: Bool.self).pointee = true
        // Swift Testing's will-throw handler boxes every thrown error; the firmware has none.
        for name in ["_swift_willThrow", "_swift_willThrowTypedImpl"] {
            dlsym(process, name)?.assumingMemoryBound(to: UnsafeRawPointer?.self).pointee = nil
        }
        allocations = 0
        body()
        var result = Int64(allocations)
        _ = withUnsafeBytes(of: &result) { write(fds[1], $0.baseAddress, 8) }
        _exit(0)
    }
    close(fds[1])
    defer { close(fds[0]) }
    guard pid > 0 else { return .unavailable("fork failed") }
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

@inline(never) func keepAlive<T>(_ value: T) { _ = value }

/// A bus that only counts: no log, no allocation (for the allocation test).
struct CountingBus: I2CBus {
    var transactions = 0
    var payloadBytes = 0
    mutating func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        transactions += 1
        payloadBytes += write.count
    }
}

/// A device that takes every write: the bus then counts what a driver sends.
final class SinkDevice: I2CDeviceModel {
    var writes = 0
    func write(_ bytes: UnsafeRawBufferPointer) throws(I2CError) { writes += 1 }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {}
    func powerOnReset() {}
}

extension I2CTransactionLog {
    /// Write transactions and their payload bytes.
    var writeTotals: (transactions: Int, payloadBytes: Int) {
        var totals = (transactions: 0, payloadBytes: 0)
        for entry in self {
            if case .write(_, let bytes, _) = entry {
                totals.transactions += 1
                totals.payloadBytes += bytes.count
            }
        }
        return totals
    }
}

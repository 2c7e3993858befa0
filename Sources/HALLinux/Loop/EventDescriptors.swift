import Glibc
import HAL
import SystemPackage

/// A timerfd on `CLOCK_MONOTONIC`, armed at absolute deadlines: the loop arms it at the
/// `TimerQueue`'s next deadline and polls it with everything else, so there is one wake-up per
/// due timer and none in between (no busy loop, no periodic polling).
public final class TimerDescriptor<Calls: SystemCalls> {
    public let fileDescriptor: CInt
    private let calls: Calls

    public init(calls: Calls) throws(Errno) {
        self.calls = calls
        fileDescriptor = try systemCall { calls.timerfdCreate() }.get()
    }

    deinit { _ = calls.close(fileDescriptor) }

    /// Arms the timer at `deadline` (already past: it fires at once); `nil` disarms it.
    public func arm(at deadline: Instant?, every period: Duration? = nil) throws(Errno) {
        // A zero deadline disarms a timerfd, so "as soon as possible" is 1 ns after boot.
        let ns = deadline.map { max($0.nanoseconds, 1) } ?? 0
        _ = try systemCall { calls.timerfdSetTime(fileDescriptor, ns, period?.nanoseconds ?? 0) }.get()
    }

    /// How many times the timer expired since the last call; 0 if it has not (EAGAIN).
    public func acknowledge() throws(Errno) -> UInt64 {
        var count: UInt64 = 0
        switch systemCall({ calls.read(fileDescriptor, &count, MemoryLayout<UInt64>.size) }) {
        case .success: return count
        case .failure(.resourceTemporarilyUnavailable): return 0
        case .failure(let e): throw e
        }
    }
}

/// An eventfd: how the network edge, running off the loop, wakes the loop when a result is ready.
/// `signal()` is safe from any thread.
public final class WakeDescriptor<Calls: SystemCalls>: @unchecked Sendable {
    public let fileDescriptor: CInt
    private let calls: Calls

    public init(calls: Calls) throws(Errno) {
        self.calls = calls
        fileDescriptor = try systemCall { calls.eventfd(0) }.get()
    }

    deinit { _ = calls.close(fileDescriptor) }

    /// Adds one to the counter and wakes the loop. EAGAIN (the counter is at its maximum)
    /// means a wake-up is already pending, which is all we need.
    public func signal() {
        var one: UInt64 = 1
        _ = systemCall { calls.write(fileDescriptor, &one, MemoryLayout<UInt64>.size) }
    }

    /// Reads and clears the counter: how many signals arrived since the last call.
    public func drain() -> UInt64 {
        var count: UInt64 = 0
        if case .success = systemCall({ calls.read(fileDescriptor, &count, MemoryLayout<UInt64>.size) }) {
            return count
        }
        return 0
    }
}

/// A signalfd for SIGTERM, SIGINT and SIGHUP: systemd's stop and reload arrive as readable
/// bytes in the loop instead of as handlers that interrupt it. The signals are blocked for the
/// calling thread first; create it on the loop thread before starting any other thread.
public final class SignalDescriptor<Calls: SystemCalls> {
    public let fileDescriptor: CInt
    private let calls: Calls

    public init(signals: [CInt] = [SIGTERM, SIGINT, SIGHUP], calls: Calls) throws(Errno) {
        self.calls = calls
        fileDescriptor = try signals.withUnsafeBufferPointer { (list) throws(Errno) in
            try systemCall { calls.signalfd(list.baseAddress!, CInt(list.count)) }.get()
        }
    }

    deinit { _ = calls.close(fileDescriptor) }

    /// The next pending signal number, or nil when none is pending.
    public func next() throws(Errno) -> CInt? {
        var signal: CInt = 0
        switch systemCall({ calls.signalfdRead(fileDescriptor, &signal) }) {
        case .success: return signal
        case .failure(.resourceTemporarilyUnavailable): return nil
        case .failure(let e): throw e
        }
    }
}

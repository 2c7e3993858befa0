import Glibc
import HAL

/// The real clocks: `CLOCK_MONOTONIC` (the clock of timerfd and of the kernel's GPIO edge timestamps)
/// and `CLOCK_REALTIME`. clock_gettime goes through the vDSO: no system call, no allocation.
public struct LinuxClock<Calls: SystemCalls>: DeviceClock {
    let calls: Calls

    public init(calls: Calls) { self.calls = calls }

    public func now() -> Instant {
        let t = read(CLOCK_MONOTONIC)
        return Instant(nanoseconds: Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec))
    }

    public func wallTime() -> WallTime {
        let t = read(CLOCK_REALTIME)
        return WallTime(seconds: Int64(t.tv_sec), nanoseconds: Int32(t.tv_nsec))
    }

    private func read(_ clock: clockid_t) -> timespec {
        var t = timespec()
        // clock_gettime fails only for an invalid clock id or pointer, both programming errors.
        let rc = calls.clockGetTime(clock, &t)
        precondition(rc == 0, "clock_gettime(\(clock)) failed")
        return t
    }
}

extension LinuxClock where Calls == LiveSystemCalls {
    public init() { self.init(calls: LiveSystemCalls()) }
}

import Glibc
import HAL
import SystemPackage

/// A descriptor that becomes readable when the wall clock (`CLOCK_REALTIME`) is set: an NTP
/// step, `date -s`, a hand-set RTC. The loop polls it so that a set wakes it at once; without
/// it nothing would, and the displayed clock would stay wrong until its next minute deadline.
///
/// It is a timerfd on `CLOCK_REALTIME` armed with `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET`
/// at the largest `time_t`, so it never expires. timerfd_create(2): "If the real-time clock
/// undergoes a discontinuous change, … then the timer is marked cancelable … a current or future
/// read(2) from the file descriptor will fail with the error ECANCELED" (the kernel makes it
/// readable then). Slewing (adjtime, NTP's frequency discipline) is continuous and sets nothing.
public final class WallClockSetDescriptor<Calls: SystemCalls> {
    public let fileDescriptor: CInt
    private let calls: Calls

    public init(calls: Calls) throws(Errno) {
        self.calls = calls
        fileDescriptor = try systemCall { calls.realtimeTimerfdCreate() }.get()
        // Fully initialised: if arming fails, deinit closes the descriptor.
        _ = try arm()
    }

    deinit { _ = calls.close(fileDescriptor) }

    /// Whether the wall clock was set since the last call; re-arms the watch when it was.
    ///
    /// A read that fails with ECANCELED is a set; EAGAIN is none (a spurious wake-up). The
    /// cancelled timer is re-armed: timerfd_create(2) documents cancel-on-set for a timer armed
    /// with the flag, not for one already cancelled (Linux 6.18 keeps watching either way). A set landing between the read and the re-arm makes the re-arm fail with
    /// ECANCELED (timerfd_create(2) NOTES: "The timer is successfully rearmed" all the same); it
    /// is this set's news too, because the caller reads the clock after this returns.
    public func acknowledge() throws(Errno) -> Bool {
        var count: UInt64 = 0
        switch systemCall({ calls.read(fileDescriptor, &count, MemoryLayout<UInt64>.size) }) {
        case .failure(.canceled):
            _ = try arm()
            return true
        case .failure(.resourceTemporarilyUnavailable): return false
        case .failure(let e): throw e
        // An expiry: not before 2262 (the deadline is KTIME_MAX); not re-armed, so it cannot
        // fire again at once, and the cancel-on-set watch stays in place.
        case .success: return false
        }
    }

    /// Arms the watch; true when arming reported a set that no read had collected.
    private func arm() throws(Errno) -> Bool {
        switch systemCall({ calls.timerfdArmCancelOnSet(fileDescriptor) }) {
        case .success: return false
        case .failure(.canceled): return true
        case .failure(let e): throw e
        }
    }
}

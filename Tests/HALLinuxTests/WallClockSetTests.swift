import Glibc
import HAL
@testable import HALLinux
import SystemPackage
import Testing

@Suite struct WallClockSetSeamTests {
    @Test func armsARealtimeTimerToBeCancelledOnSet() throws {
        let calls = ScriptedSystemCalls()
        var watch: WallClockSetDescriptor? = try WallClockSetDescriptor(calls: calls)
        #expect(watch?.fileDescriptor == 7)
        #expect(calls.calls == [.realtimeTimerfdCreate, .timerfdArmCancelOnSet(7)])
        watch = nil
        #expect(calls.calls.last == .close(7))
    }

    @Test func aFailedArmClosesTheDescriptorOnce() {
        let calls = ScriptedSystemCalls()
        calls.fail("timerfdArmCancelOnSet", with: EINVAL)  // a kernel without TFD_TIMER_CANCEL_ON_SET
        #expect(throws: Errno.invalidArgument) { _ = try WallClockSetDescriptor(calls: calls) }
        #expect(calls.calls == [.realtimeTimerfdCreate, .timerfdArmCancelOnSet(7), .close(7)])
    }

    @Test func eCanceledIsASetAndReArms() throws {
        let calls = ScriptedSystemCalls()
        let watch = try WallClockSetDescriptor(calls: calls)
        calls.fail("read", with: EINTR, ECANCELED)
        #expect(try watch.acknowledge())
        #expect(calls.calls.suffix(3) == [.read(7, 8), .read(7, 8), .timerfdArmCancelOnSet(7)])
        // Another set between the read and the re-arm: the re-arm reports it and arms anyway.
        calls.fail("read", with: ECANCELED)
        calls.fail("timerfdArmCancelOnSet", with: ECANCELED)
        #expect(try watch.acknowledge())
        calls.fail("read", with: ECANCELED)
        calls.fail("timerfdArmCancelOnSet", with: ENOMEM)
        #expect(throws: Errno.noMemory) { _ = try watch.acknowledge() }
    }

    @Test func eagainAndAnExpiryAreNoSetAndDoNotReArm() throws {
        let calls = ScriptedSystemCalls()
        let watch = try WallClockSetDescriptor(calls: calls)
        calls.fail("read", with: EAGAIN)
        #expect(try watch.acknowledge() == false)
        calls.input = [1, 0, 0, 0, 0, 0, 0, 0]
        #expect(try watch.acknowledge() == false)
        #expect(calls.names("timerfdArmCancelOnSet").count == 1)
        calls.fail("read", with: EIO)
        #expect(throws: Errno.ioError) { _ = try watch.acknowledge() }
    }
}

/// Against the real kernel: sets CLOCK_REALTIME to its own value, which the kernel counts as a
/// set (clock_settime(2) runs clock_was_set) while moving the clock back by only the
/// microsecond between reading and setting it. Skipped without CAP_SYS_TIME (EPERM).
@Suite struct WallClockSetKernelTests {
    /// nil, or why clock_settime failed.
    static func setWallClockToItself() -> Errno? {
        var now = timespec()
        guard clock_gettime(CLOCK_REALTIME, &now) == 0, clock_settime(CLOCK_REALTIME, &now) == 0 else {
            return Errno(rawValue: errno)
        }
        return nil
    }

    @Test func aSetMakesItReadableOnceAndTheReArmedWatchSeesTheNext() throws {
        let watch = try WallClockSetDescriptor(calls: LiveSystemCalls())
        let poller = Poller()
        let slot = poller.add(watch.fileDescriptor)
        #expect(try poller.wait(timeout: .zero) == 0)
        #expect(try watch.acknowledge() == false)

        if let error = Self.setWallClockToItself() { try Test.cancel("clock_settime(CLOCK_REALTIME): \(error)") }
        #expect(try poller.wait(timeout: .zero) == 1)
        #expect(poller.isReadable(slot))
        #expect(try watch.acknowledge(), "read(2) failed with ECANCELED")
        #expect(try poller.wait(timeout: .zero) == 0, "re-armed, and quiet until the next set")
        #expect(try watch.acknowledge() == false)

        #expect(Self.setWallClockToItself() == nil)
        #expect(try poller.wait(timeout: .zero) == 1)
        #expect(try watch.acknowledge())
    }
}

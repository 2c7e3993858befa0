import Glibc
import HAL
@testable import HALLinux
import SystemPackage
import Testing

@Suite struct LoopSeamTests {
    @Test func clockReadsMonotonicAndRealtime() {
        let calls = ScriptedSystemCalls()
        let clock = LinuxClock(calls: calls)
        #expect(clock.now() == Instant(nanoseconds: 12_000_000_345))
        #expect(clock.wallTime() == WallTime(seconds: 12, nanoseconds: 345))
        #expect(calls.calls == [.clock(CLOCK_MONOTONIC), .clock(CLOCK_REALTIME)])
    }

    @Test func pollTimeoutRoundsUpAndNilWaitsForever() throws {
        let calls = ScriptedSystemCalls()
        let poller = Poller(capacity: 4, calls: calls)
        _ = poller.add(3)
        _ = poller.add(4)
        _ = try poller.wait(timeout: .microseconds(400))
        _ = try poller.wait(timeout: .milliseconds(15))
        _ = try poller.wait(timeout: .zero)
        _ = try poller.wait(timeout: nil)
        #expect(calls.calls == [.poll(2, 1), .poll(2, 15), .poll(2, 0), .poll(2, -1)])
    }

    @Test func interruptedPollReturnsWithoutWaitingAgain() throws {
        let calls = ScriptedSystemCalls()
        let poller = Poller(capacity: 1, calls: calls)
        calls.fail("poll", with: EINTR)
        #expect(try poller.wait(timeout: .seconds(60)) == 0)
        #expect(calls.names("poll").count == 1)
        calls.fail("poll", with: ENOMEM)
        #expect(throws: Errno.noMemory) { _ = try poller.wait(timeout: nil) }
    }

    @Test func timerArmsAbsoluteDeadlines() throws {
        let calls = ScriptedSystemCalls()
        let timer = try TimerDescriptor(calls: calls)
        try timer.arm(at: Instant(nanoseconds: 5_000_000_000), every: .seconds(60))
        try timer.arm(at: .zero)
        try timer.arm(at: nil)
        #expect(calls.calls == [
            .timerfdCreate,
            .timerfdSetTime(7, 5_000_000_000, 60_000_000_000),
            .timerfdSetTime(7, 1, 0),  // "now": 0 would disarm
            .timerfdSetTime(7, 0, 0),
        ])
        calls.fail("read", with: EAGAIN)
        #expect(try timer.acknowledge() == 0)
    }

    @Test func wakeDescriptorWritesAndDrainsEightByteCounts() throws {
        let calls = ScriptedSystemCalls()
        let wake = try WakeDescriptor(calls: calls)
        calls.fail("write", with: EINTR, EAGAIN)  // EAGAIN: the counter is full, a wake-up is pending
        wake.signal()
        calls.input = [2, 0, 0, 0, 0, 0, 0, 0]
        #expect(wake.drain() == 2)
        calls.fail("read", with: EAGAIN)
        #expect(wake.drain() == 0)
        #expect(calls.calls == [
            .eventfd, .write(7, [1, 0, 0, 0, 0, 0, 0, 0]), .write(7, [1, 0, 0, 0, 0, 0, 0, 0]),
            .read(7, 8), .read(7, 8),
        ])
    }

    @Test func signalDescriptorAsksForTermIntHup() throws {
        let calls = ScriptedSystemCalls()
        let signals = try SignalDescriptor(calls: calls)
        #expect(try signals.next() == SIGTERM)
        calls.fail("signalfdRead", with: EAGAIN)
        #expect(try signals.next() == nil)
        #expect(calls.calls.prefix(1) == [.signalfd([SIGTERM, SIGINT, SIGHUP])])
    }
}

/// The loop primitives against the real kernel. Nothing here waits on wall time: every
/// descriptor is made ready before `poll` is called.
@Suite struct LoopKernelTests {
    @Test func timerfdEventfdAndPollWakeInOneCall() throws {
        let clock = LinuxClock()
        let timer = try TimerDescriptor(calls: LiveSystemCalls())
        let wake = try WakeDescriptor(calls: LiveSystemCalls())
        let poller = Poller()
        let timerSlot = poller.add(timer.fileDescriptor)
        let wakeSlot = poller.add(wake.fileDescriptor)

        #expect(try poller.wait(timeout: .zero) == 0)
        try timer.arm(at: clock.now())  // already due
        wake.signal()
        wake.signal()
        #expect(try poller.wait(timeout: .seconds(5)) == 2)
        #expect(poller.isReadable(timerSlot) && poller.isReadable(wakeSlot))
        #expect(try timer.acknowledge() == 1)
        #expect(wake.drain() == 2)
        #expect(try poller.wait(timeout: .zero) == 0)
        #expect(try timer.acknowledge() == 0)

        try timer.arm(at: clock.now() + .seconds(3600))
        #expect(try poller.wait(timeout: .zero) == 0)
    }

    @Test func signalfdDeliversAPendingSignal() throws {
        let signals = try SignalDescriptor(signals: [SIGUSR2], calls: LiveSystemCalls())
        pthread_kill(pthread_self(), SIGUSR2)  // blocked, so it waits in the signalfd
        #expect(try signals.next() == SIGUSR2)
        #expect(try signals.next() == nil)
    }
}

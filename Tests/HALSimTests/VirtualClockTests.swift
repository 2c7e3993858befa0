import HAL
import HALSim
import Testing

@Suite struct VirtualClockTests {
    enum Timer: Equatable, Sendable { case tick, timeout, a, b, c }

    @Test func testClock_AdvanceMovesMonotonicAndWall() {
        let clock = VirtualClock()
        let wall0 = clock.wallTime()
        clock.advance(by: .milliseconds(1500))
        #expect(clock.now() == Instant(nanoseconds: 1_500_000_000))
        #expect(clock.wallTime() == WallTime(seconds: wall0.seconds + 1, nanoseconds: 500_000_000))
        clock.advance(to: .ms(2000))
        #expect(clock.now() == .ms(2000))
    }

    @Test func testClock_WallJump_LeavesMonotonicAlone() {
        let clock = VirtualClock(start: .ms(10))
        clock.setWallTime(WallTime(seconds: 1_000))  // an NTP step backwards
        #expect(clock.now() == .ms(10))
        #expect(clock.wallTime() == WallTime(seconds: 1_000))
        clock.advance(by: .seconds(2))
        #expect(clock.wallTime() == WallTime(seconds: 1_002))
        #expect(clock.now() == .ms(2010))
    }

    @Test func testClock_TimersFireInOrder_WithoutSleeping() {
        let clock = VirtualClock()
        var queue = TimerQueue<Timer>(capacity: 4)
        queue.schedule(.tick, at: .ms(1000), every: .seconds(1))
        queue.schedule(.timeout, at: .ms(2500))
        var fired: [(Timer, Instant, Instant)] = []
        let real = ContinuousClock()
        let start = real.now
        let count = clock.advance(by: .seconds(3600), timers: &queue) { id, deadline in
            fired.append((id, deadline, clock.now()))
        }
        #expect(real.now - start < .seconds(5))  // an hour of virtual time, no sleeping
        #expect(count == 3601)
        #expect(fired.count == 3601)
        #expect(fired.prefix(4).map(\.0) == [.tick, .tick, .timeout, .tick])
        #expect(fired.prefix(4).map(\.1) == [.ms(1000), .ms(2000), .ms(2500), .ms(3000)])
        #expect(fired.allSatisfy { $0.1 == $0.2 }, "now() equals the deadline during the callback")
        #expect(clock.now() == .ms(3_600_000))
        #expect(queue.nextDeadline == .ms(3_601_000), "the periodic timer stays on its grid")
    }

    @Test func testClock_EqualDeadlines_FireFirstScheduledFirst() {
        let clock = VirtualClock()
        var queue = TimerQueue<Timer>()
        queue.schedule(.c, at: .ms(5))
        queue.schedule(.a, at: .ms(5))
        queue.schedule(.b, at: .ms(5))
        var order: [Timer] = []
        clock.advance(by: .milliseconds(5), timers: &queue) { id, _ in order.append(id) }
        #expect(order == [.c, .a, .b])
    }

    @Test func testClock_TimersAfterTheEnd_DoNotFire() {
        let clock = VirtualClock()
        var queue = TimerQueue<Timer>()
        queue.schedule(.a, at: .ms(10))
        var fired = 0
        clock.advance(by: .milliseconds(9), timers: &queue) { _, _ in fired += 1 }
        #expect(fired == 0)
        #expect(clock.now() == .ms(9))
        clock.advance(by: .milliseconds(1), timers: &queue) { _, _ in fired += 1 }
        #expect(fired == 1)
        #expect(queue.isEmpty)
    }

    @Test func testClock_SlowHandler_ReportsMissedPeriods() {
        let clock = VirtualClock()
        var queue = TimerQueue<Timer>()
        queue.schedule(.tick, at: .ms(100), every: .milliseconds(100))
        var firings: [TimerFiring<Timer>] = []
        var nowInHandler: [Instant] = []
        clock.advance(to: .ms(1000), timers: &queue) { firing, _ in
            firings.append(firing)
            nowInHandler.append(clock.now())
            if firing.deadline == .ms(200) { clock.advance(by: .milliseconds(350)) }  // the loop was busy
        }
        #expect(firings.map(\.deadline) == [.ms(100), .ms(200), .ms(300), .ms(600), .ms(700), .ms(800), .ms(900), .ms(1000)])
        #expect(firings.map(\.missed) == [0, 0, 2, 0, 0, 0, 0, 0])
        #expect(nowInHandler[2] == .ms(550), "the late firing happens when the handler returns")
        #expect(clock.now() == .ms(1000))
    }

    @Test func testClock_HandlerCanRearmOneShot() {
        let clock = VirtualClock()
        var queue = TimerQueue<Timer>()
        queue.schedule(.timeout, at: .ms(10))
        var retries: [Instant] = []
        var backoff = Duration.milliseconds(10)
        clock.advance(to: .ms(200), timers: &queue) { firing, queue in
            retries.append(firing.deadline)
            backoff *= 2
            queue.schedule(.timeout, at: firing.deadline + backoff)
        }
        #expect(retries == [.ms(10), .ms(30), .ms(70), .ms(150)])
        #expect(queue.nextDeadline == .ms(310))
    }

    @Test func testTimerQueue_Capacity_RefusesExtraTimer() {
        var queue = TimerQueue<Int>(capacity: 3)
        let accepted = [
            queue.schedule(1, at: .ms(1)), queue.schedule(2, at: .ms(2)), queue.schedule(3, at: .ms(3)),
            queue.schedule(4, at: .ms(4)),
        ]
        #expect(accepted == [true, true, true, false])
        #expect(queue.pending.count == 3)
        let rescheduled = queue.schedule(2, at: .ms(5))
        #expect(rescheduled, "rescheduling an existing id fits")
        let clock = VirtualClock()
        var fired: [Int] = []
        clock.advance(by: .milliseconds(10), timers: &queue) { id, _ in fired.append(id) }
        #expect(fired == [1, 3, 2])
    }
}

import HAL
import Testing

@Suite struct TimerQueueTests {
    enum T: Equatable, Sendable { case tick, gpsSilence, weather, debounce(Int) }

    @Test func firesInDeadlineOrderWithFIFOTies() {
        var q = TimerQueue<T>()
        q.schedule(.weather, at: Instant(nanoseconds: 900))
        q.schedule(.tick, at: Instant(nanoseconds: 100))
        q.schedule(.debounce(1), at: Instant(nanoseconds: 500))
        q.schedule(.debounce(2), at: Instant(nanoseconds: 500))
        #expect(q.nextDeadline == Instant(nanoseconds: 100))
        var fired: [T] = []
        while let due = q.popDue(now: Instant(nanoseconds: 1000)) { fired.append(due.id) }
        #expect(fired == [.tick, .debounce(1), .debounce(2), .weather])
        #expect(q.isEmpty && q.nextDeadline == nil)
    }

    @Test func nothingIsDueBeforeItsDeadline() {
        var q = TimerQueue<T>()
        q.schedule(.tick, at: Instant(nanoseconds: 100))
        #expect(q.popDue(now: Instant(nanoseconds: 99)) == nil)
        #expect(q.popDue(now: Instant(nanoseconds: 100))?.id == .tick)
    }

    @Test func reschedulingReplacesAndCancelRemoves() {
        var q = TimerQueue<T>()
        q.schedule(.gpsSilence, at: Instant(nanoseconds: 3_000))
        q.schedule(.gpsSilence, at: Instant(nanoseconds: 6_000))  // bytes arrived: push it back
        #expect(q.pending.count == 1)
        #expect(q.nextDeadline == Instant(nanoseconds: 6_000))
        q.cancel(.gpsSilence)
        #expect(q.isEmpty)
    }

    @Test func periodicTimerStaysOnItsGridAndCountsMissedPeriods() {
        var q = TimerQueue<T>()
        let minute = Duration.seconds(60)
        q.schedule(.tick, at: .zero + minute, every: minute)
        let first = q.popDue(now: .zero + .seconds(60))
        #expect(first?.missed == 0)
        #expect(q.nextDeadline == .zero + .seconds(120))
        // The loop was stalled for 3.5 minutes: fire once, say two were missed, stay on the minute.
        let late = q.popDue(now: .zero + .seconds(330))
        #expect(late?.deadline == .zero + .seconds(120))
        #expect(late?.missed == 3)
        #expect(q.nextDeadline == .zero + .seconds(360))
    }

    @Test func capacityIsAHardBoundThatChangesNothing() {
        var q = TimerQueue<Int>(capacity: 2)
        let first = q.schedule(1, at: .zero)
        let second = q.schedule(2, at: .zero)
        let third = q.schedule(3, at: .zero)
        #expect(first && second && !third)
        #expect(q.pending.map(\.id) == [1, 2])
        let replaced = q.schedule(2, at: Instant(nanoseconds: 5))  // replacing needs no new slot
        #expect(replaced)
    }
}

@Suite struct TimeArithmeticTests {
    @Test func instantAndDuration() {
        let t = Instant(nanoseconds: 1_500_000_000)
        #expect(t + .milliseconds(500) == Instant(nanoseconds: 2_000_000_000))
        #expect((t + .seconds(2)) - t == .seconds(2))
        #expect(Duration.milliseconds(1.5).nanoseconds == 1_500_000)
        #expect(Duration.seconds(-1).nanoseconds == -1_000_000_000)
    }

    @Test func wallTimeCarriesNanoseconds() {
        let w = WallTime(seconds: 10, nanoseconds: 900_000_000)
        #expect(w + .milliseconds(200) == WallTime(seconds: 11, nanoseconds: 100_000_000))
        #expect(w + .milliseconds(-950) == WallTime(seconds: 9, nanoseconds: 950_000_000))
        #expect(WallTime(seconds: 1) < WallTime(seconds: 1, nanoseconds: 1))
    }
}

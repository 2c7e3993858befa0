import GPS
import HAL
import Testing

@Suite struct ClockGateTests {
    static func fix(_ second: Int, trusted: Bool = true, mode: FixMode = .threeD) -> Fix {
        var fix = Fix()
        fix.mode = mode
        fix.timeOfDay = TimeOfDay(hour: 12, minute: 0, second: second)
        fix.time = UTCTime(date: CalendarDate(year: 2026, month: 11, day: 21)!, timeOfDay: fix.timeOfDay!)
        fix.timeIsTrusted = trusted
        return fix
    }

    static func at(_ seconds: Double) -> Instant { Instant(nanoseconds: Int64(seconds * 1e9)) }

    @Test func testClockGate_FirstTrustedEpoch_DoesNotSetTheClock() {
        var gate = ClockGate()
        #expect(gate.offer(Self.fix(10), at: Self.at(100)) == nil)
    }

    @Test func testClockGate_TwoConsistentEpochs_SetTheClock() {
        var gate = ClockGate()
        _ = gate.offer(Self.fix(10), at: Self.at(100))
        let result = gate.offer(Self.fix(11), at: Self.at(101.1))
        #expect(result?.time == Self.fix(11).time)
        #expect(result?.at == Self.at(101.1))
    }

    @Test func testClockGate_UTCJumpNotMatchedByMonotonicTime_Fails() {
        var gate = ClockGate()
        _ = gate.offer(Self.fix(10), at: Self.at(100))
        // One second of monotonic time, but the receiver's time jumped by 30 s.
        #expect(gate.offer(Self.fix(40), at: Self.at(101)) == nil)
        // The jumped epoch becomes the new reference; the next consistent one passes.
        #expect(gate.offer(Self.fix(41), at: Self.at(102)) != nil)
    }

    @Test func testClockGate_UntrustedEpochInBetween_StartsOver() {
        var gate = ClockGate()
        _ = gate.offer(Self.fix(10), at: Self.at(100))
        #expect(gate.offer(Self.fix(11, trusted: false), at: Self.at(101)) == nil)
        #expect(gate.offer(Self.fix(12), at: Self.at(102)) == nil)
        #expect(gate.offer(Self.fix(13), at: Self.at(103)) != nil)
    }

    @Test func testClockGate_NoFix_NeverSetsTheClock() {
        var gate = ClockGate()
        _ = gate.offer(Self.fix(10, mode: .noFix), at: Self.at(100))
        #expect(gate.offer(Self.fix(11, mode: .noFix), at: Self.at(101)) == nil)
    }

    @Test func testClockGate_TimeGoingBackwards_Fails() {
        var gate = ClockGate()
        _ = gate.offer(Self.fix(10), at: Self.at(100))
        #expect(gate.offer(Self.fix(9), at: Self.at(101)) == nil)
    }
}

import HAL
import HALSim
import Testing

@Suite struct SimulatedButtonsTests {
    @Test func testButtons_CleanPress_FallingThenRising() throws {
        let clock = VirtualClock()
        let buttons = SimulatedButtons(clock: clock, count: 3)
        #expect(try buttons.levels() == 0b111, "pull-ups: idle high")
        buttons.press(1, at: .ms(100), holdFor: .milliseconds(250))
        clock.advance(to: .ms(99))
        #expect(try edges(buttons) == [])
        clock.advance(to: .ms(200))
        #expect(try edges(buttons) == [Edge(line: 1, direction: .falling, time: .ms(100))])
        #expect(try buttons.levels() == 0b101)
        clock.advance(to: .ms(400))
        #expect(try edges(buttons) == [Edge(line: 1, direction: .rising, time: .ms(350))])
        #expect(try buttons.levels() == 0b111)
    }

    @Test func testButtons_BouncyPress_AlternatingEdgesThenSettled() throws {
        let clock = VirtualClock()
        let buttons = SimulatedButtons(clock: clock, count: 1, seed: 42)
        let bounce = BounceProfile(bounces: 2...2, window: .milliseconds(5))
        buttons.press(0, at: .ms(10), holdFor: .milliseconds(100), bounce: bounce)
        clock.advance(to: .ms(50))
        let press = try edges(buttons)
        #expect(press.count == 5, "the first transition and two bounces of two")
        #expect(press.map(\.direction) == [.falling, .rising, .falling, .rising, .falling])
        #expect(press.first?.time == .ms(10))
        #expect(press.allSatisfy { $0.time >= .ms(10) && $0.time <= .ms(15) }, "inside the window")
        #expect(zip(press, press.dropFirst()).allSatisfy { $0.time < $1.time }, "oldest first")
        #expect(try buttons.levels() == 0, "settled pressed")
        clock.advance(to: .ms(200))
        let release = try edges(buttons)
        #expect(release.map(\.direction) == [.rising, .falling, .rising, .falling, .rising])
        #expect(release.first?.time == .ms(110))
        #expect(try buttons.levels() == 1, "settled released")
    }

    @Test func testButtons_Bounce_IsReproducibleFromTheSeed() throws {
        func record(seed: UInt64) throws -> [Edge] {
            let clock = VirtualClock()
            let buttons = SimulatedButtons(clock: clock, count: 1, seed: seed)
            for i in 0..<5 { buttons.press(0, at: .ms(Int64(i) * 100), holdFor: .milliseconds(50), bounce: .typical) }
            clock.advance(to: .ms(1000))
            return try edges(buttons, max: 256)
        }
        #expect(try record(seed: 1) == record(seed: 1))
        #expect(try record(seed: 1) != record(seed: 2))
    }

    @Test func testButtons_OnlyEdgesUpToNow_AreRead() throws {
        let clock = VirtualClock()
        let buttons = SimulatedButtons(clock: clock, count: 1, seed: 3)
        buttons.press(0, at: .ms(0), holdFor: .milliseconds(30), bounce: BounceProfile(bounces: 3...3, window: .milliseconds(5)))
        var seen: [Edge] = []
        for t in stride(from: Int64(0), through: 40, by: 1) {
            clock.advance(to: .ms(t))
            let batch = try edges(buttons)
            #expect(batch.allSatisfy { $0.time <= clock.now() })
            seen += batch
        }
        #expect(seen.count == 14)
    }

    @Test func testButtons_ActiveHigh_IdlesLowAndRises() throws {
        let clock = VirtualClock()
        let buttons = SimulatedButtons(clock: clock, lines: [.activeLow, .activeHigh])
        #expect(try buttons.levels() == 0b01)
        buttons.press(1, at: .ms(5), holdFor: .milliseconds(10))
        clock.advance(to: .ms(6))
        #expect(try edges(buttons) == [Edge(line: 1, direction: .rising, time: .ms(5))])
        #expect(try buttons.levels() == 0b11)
    }

    @Test func testButtons_LinesInterleave_OldestFirst() throws {
        let clock = VirtualClock()
        let buttons = SimulatedButtons(clock: clock, count: 2)
        buttons.press(0, at: .ms(10), holdFor: .milliseconds(20))
        buttons.press(1, at: .ms(15), holdFor: .milliseconds(20))
        clock.advance(to: .ms(100))
        let got = try edges(buttons, max: 3)
        #expect(got.map(\.time) == [.ms(10), .ms(15), .ms(30)])
        #expect(got.map(\.line) == [0, 1, 0])
        #expect(try edges(buttons) == [Edge(line: 1, direction: .rising, time: .ms(35))], "the rest stays queued")
    }

    @Test func testButtons_V1BufferOverflow_DropsNewestAndCounts() throws {
        let clock = VirtualClock()
        let buttons = SimulatedButtons(clock: clock, count: 1)
        let chatter = BounceProfile(bounces: 10...10, window: .milliseconds(5))  // 21 transitions
        buttons.press(0, at: .ms(0), holdFor: .milliseconds(50), bounce: chatter)
        clock.advance(to: .ms(20))
        #expect(buttons.droppedEdges(line: 0) == 5)
        let kept = try edges(buttons)
        #expect(kept.count == 16)
        #expect(kept.first?.time == .ms(0), "the oldest events survive")
        #expect(try buttons.levels() == 0, "the level is right even though edges were lost")
        clock.advance(to: .ms(100))
        #expect(try edges(buttons).count == 16, "room again after the read; 5 more dropped")
        #expect(buttons.droppedEdgeCount == 10)
    }

    @Test func testButtons_V2SharedBuffer_DropsOldest() throws {
        let clock = VirtualClock()
        let buttons = SimulatedButtons(clock: clock, count: 1, eventBuffer: .shared(capacity: 16))
        buttons.press(0, at: .ms(0), holdFor: .milliseconds(50), bounce: BounceProfile(bounces: 10...10, window: .milliseconds(5)))
        clock.advance(to: .ms(20))
        let kept = try edges(buttons)
        #expect(kept.count == 16)
        #expect(kept.first?.time != .ms(0), "the first edge was overwritten")
        #expect(kept.last?.direction == .falling, "the newest (settling) edge survives")
        #expect(buttons.droppedEdgeCount == 5)
    }
}

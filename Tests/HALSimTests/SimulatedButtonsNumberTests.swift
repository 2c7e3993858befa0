import HAL
import HALSim
import Testing

/// The twin numbers its uAPI v2 events as the kernel does (gpiolib-cdev.c: per line and per
/// request, from 1, when the edge is detected, so a dropped one leaves a gap) and sizes the
/// request's buffer as the kernel does (16 per line, rounded up to a power of two by kfifo).
@Suite struct SimulatedButtonsNumberTests {
    @Test(arguments: [(1, 16), (2, 32), (3, 64), (4, 64), (5, 128), (32, 512)])
    func theDefaultBufferIsTheKernels(lines: Int, capacity: Int) {
        #expect(SimulatedButtons.EventBuffer.uAPIv2(lines: lines) == .shared(capacity: capacity))
    }

    @Test func eachLineAndTheRequestAreNumberedFromOne() throws {
        let clock = VirtualClock()
        let buttons = SimulatedButtons(clock: clock, count: 2, eventBuffer: .uAPIv2(lines: 2))
        buttons.press(0, at: .ms(10), holdFor: .milliseconds(100))
        buttons.press(1, at: .ms(20), holdFor: .milliseconds(20))
        clock.advance(to: .ms(200))
        let got = try edges(buttons)
        #expect(got.map(\.line) == [0, 1, 1, 0])
        #expect(got.map(\.sequence) == [
            EdgeSequence(request: 1, line: 1), EdgeSequence(request: 2, line: 1),
            EdgeSequence(request: 3, line: 2), EdgeSequence(request: 4, line: 2),
        ])
    }

    @Test func aOneLineRequestSharesTheLinesNumber() throws {
        let clock = VirtualClock()
        let buttons = SimulatedButtons(clock: clock, count: 1, eventBuffer: .uAPIv2(lines: 1))
        buttons.press(0, at: .ms(10), holdFor: .milliseconds(100), bounce: .typical)
        clock.advance(to: .ms(200))
        let got = try edges(buttons)
        #expect(got.count >= 4)
        #expect(got.map(\.sequence) == (1...UInt32(got.count)).map { EdgeSequence(request: $0, line: $0) })
    }

    @Test func uAPIv1EdgesCarryNoNumbers() throws {
        let clock = VirtualClock()
        let buttons = SimulatedButtons(clock: clock, count: 2)
        buttons.press(0, at: .ms(10), holdFor: .milliseconds(100))
        clock.advance(to: .ms(200))
        #expect(try edges(buttons).allSatisfy { $0.sequence == nil })
    }

    /// Two lines chattering into a 32-event buffer: the buffer drops its oldest events, and the
    /// gaps in what is read are exactly those, per line and for the request.
    @Test(arguments: UInt64(1)...10)
    func theGapsAreExactlyTheDroppedEdges(seed: UInt64) throws {
        let clock = VirtualClock()
        let buttons = SimulatedButtons(clock: clock, count: 2, eventBuffer: .uAPIv2(lines: 2), seed: seed)
        let chatter = BounceProfile(bounces: 8...20, window: .milliseconds(10))
        var read: [Edge] = []
        var time = Instant.ms(0)
        for press in 0..<8 {
            buttons.press(press % 2, at: time, holdFor: .milliseconds(40), bounce: chatter)
            buttons.press(1 - press % 2, at: time + .milliseconds(5), holdFor: .milliseconds(60), bounce: chatter)
            time = time + .milliseconds(300)
            clock.advance(to: time - .milliseconds(10))  // read once per pair of presses
            read += try edges(buttons, max: 256)
        }
        #expect(buttons.droppedEdgeCount > 0, "the test must overflow the buffer")
        // A line's own gap shows at its next edge read: one clean press of each line, read at once.
        let dropped = buttons.droppedEdgeCount
        buttons.press(0, at: time, holdFor: .milliseconds(50))
        buttons.press(1, at: time + .milliseconds(100), holdFor: .milliseconds(50))
        clock.advance(to: time + .milliseconds(200))
        read += try edges(buttons, max: 256)
        #expect(buttons.droppedEdgeCount == dropped)
        var lastLine: [UInt32] = [0, 0]
        var lineGaps = [0, 0]
        var lastRequest: UInt32 = 0
        var requestGaps = 0
        for edge in read {
            let sequence = try #require(edge.sequence)
            lineGaps[edge.line] += Int(EdgeSequence.skipped(from: lastLine[edge.line], to: sequence.line))
            lastLine[edge.line] = sequence.line
            requestGaps += Int(EdgeSequence.skipped(from: lastRequest, to: sequence.request))
            lastRequest = sequence.request
        }
        #expect(lineGaps == [buttons.droppedEdges(line: 0), buttons.droppedEdges(line: 1)])
        #expect(requestGaps == buttons.droppedEdgeCount)
        #expect(Int(lastRequest) == read.count + buttons.droppedEdgeCount)
    }
}

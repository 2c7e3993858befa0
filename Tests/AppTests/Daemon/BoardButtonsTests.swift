@testable import App
import Board
import HAL
import HALSim
import Testing

/// The daemon's buttons: real lines through the kernel's GPIO character device, uAPI v2 (there
/// is no GPIO chip on this machine, so the request fails the way a Pi without the chip, or with
/// the line busy, fails) and twins, in the board file's order.
@Suite struct BoardButtonsTests {
    static func button(_ name: String, line: LineReference, simulated: Bool = false) -> ButtonConfig {
        ButtonConfig(
            name: name, chip: simulated ? nil : "pinctrl-bcm2711", line: line, activeLow: true, bias: .pullUp,
            press: .cycleUnits, longPress: .none, simulated: simulated)
    }

    @Test func aTwinsEdgesCarryTheBoardIndexAndAMissingChipIsReportedAndRetried() throws {
        let clock = VirtualClock(start: Instant(nanoseconds: 1_000_000_000))
        let twin = SimulatedButtons(clock: clock, lines: [.activeLow])
        var reports: [String] = []
        let buttons = BoardButtons(
            [Self.button("A", line: .name("GPIO17")), Self.button("B", line: .simulated, simulated: true)],
            simulated: twin, now: clock.now(), report: { reports.append($0) })

        #if Hardware
        #expect(reports.count == 1)
        #expect(reports.first?.contains("buttons A (GPIO17): cannot request the lines: no such GPIO chip") == true, "\(reports)")
        #expect(buttons.nextRetry == clock.now() + .seconds(30))
        // A retry that fails the same way says nothing new.
        clock.advance(by: .seconds(30))
        buttons.retryIfDue(now: clock.now())
        #expect(reports.count == 1)
        #expect(buttons.nextRetry == clock.now() + .seconds(30))
        #else
        #expect(reports == ["buttons A: this build has no GPIO support (build with --traits Hardware); they do nothing"])
        #expect(buttons.nextRetry == nil)
        #endif
        #expect((0..<buttons.descriptorSlots).allSatisfy { buttons.descriptor($0) == -1 })

        // The twin (board button B, index 1) is pressed; its edges come out as line 1.
        twin.press(0, holdFor: .milliseconds(100))
        clock.advance(by: .milliseconds(150))
        let edges = UnsafeMutableBufferPointer<Edge>.allocate(capacity: 8)
        defer { edges.deallocate() }
        let count = try buttons.readEdges(into: edges)
        #expect(count == 2)
        #expect(edges[0].line == 1 && edges[0].direction == .falling)
        #expect(edges[1].line == 1 && edges[1].direction == .rising)
        // Both at rest: the real line reads as released (high, active low) while it is missing.
        #expect(try buttons.levels() == 0b11)
    }
}

/// A group requested again after a read error keeps the kernel's debounce it had at
/// start (the device runs no software debounce for such a line); a line first requested late
/// stays debounced in software.
@Suite struct RequestAgainDebounceTests {
    @Test func theKernelsDebounceIsAskedForAgainExactlyWhereItWasBefore() {
        #expect(BoardButtons.kernelDebounceAgain([0, 1], [true, true, false]))
        #expect(BoardButtons.kernelDebounceAgain([2], [true, true, true]))
        #expect(!BoardButtons.kernelDebounceAgain([2], [true, true, false]), "first requested late: software debounce")
        #expect(!BoardButtons.kernelDebounceAgain([], [true]))
    }
}

/// A line requested again numbers its edges from 1 again; the board's buttons carry the numbers
/// on, so only the kernel's own drops leave gaps.
@Suite struct LineNumberingTests {
    @Test func numbersCarryOnAcrossARequestAgain() {
        var numbers = LineNumbering(lines: 2)
        #expect([1, 2, 3].map { numbers.carry($0, line: 0) } == [1, 2, 3])
        #expect(numbers.carry(1, line: 1) == 1)
        numbers.restart(0)  // the chip went away and came back: the kernel numbers from 1
        #expect([1, 2].map { numbers.carry($0, line: 0) } == [4, 5])
        numbers.restart(0)
        #expect(numbers.carry(3, line: 0) == 8, "the new request's first two were dropped: a gap of two")
        #expect(EdgeSequence.skipped(from: 5, to: 8) == 2)
        #expect(numbers.carry(2, line: 1) == 2, "the other line is untouched")
    }

    @Test func numbersWrapAsTheKernelsDo() {
        var numbers = LineNumbering(lines: 1)
        #expect(numbers.carry(UInt32.max, line: 0) == UInt32.max)
        numbers.restart(0)
        #expect(numbers.carry(1, line: 0) == 0)
        #expect(EdgeSequence.skipped(from: UInt32.max, to: 0) == 0)
    }
}

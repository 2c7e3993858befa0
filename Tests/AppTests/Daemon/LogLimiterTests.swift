@testable import App
import HAL
import Testing

@Suite struct LogLimiterTests {
    func at(_ seconds: Int64) -> Instant { Instant(nanoseconds: seconds * 1_000_000_000) }

    @Test func firstLineThroughRepeatsCountedThenSummarisedWhenTheWindowCloses() {
        var limiter = LogLimiter()
        var printed: [String] = []
        let failure = LogLimiter.Line(.warning, "display: no answer (NACK)")
        limiter.offer(failure, at: at(0)) { printed.append($0.text) }
        for second in 1...57 { limiter.offer(failure, at: at(Int64(second) * 10)) { printed.append($0.text) } }
        #expect(printed == ["display: no answer (NACK)"])
        #expect(limiter.nextDeadline == at(600))
        limiter.close(dueBy: at(599)) { printed.append($0.text) }
        #expect(printed.count == 1)
        limiter.close(dueBy: at(600)) { printed.append($0.text) }
        #expect(printed.last == "display: no answer (NACK) (repeated 57 more times in 10 min)")
        // A failure that keeps repeating costs one line per window.
        limiter.offer(failure, at: at(700)) { printed.append($0.text) }
        #expect(printed.count == 2)
        limiter.close(dueBy: at(1200)) { printed.append($0.text) }
        #expect(printed.last == "display: no answer (NACK) (repeated once more in 10 min)")
        // A window with no repeats is forgotten: the next occurrence prints again.
        limiter.close(dueBy: at(1800)) { printed.append($0.text) }
        #expect(limiter.nextDeadline == nil)
        limiter.offer(failure, at: at(1900)) { printed.append($0.text) }
        #expect(printed.last == "display: no answer (NACK)")
        #expect(printed.count == 4)
    }

    @Test func distinctLinesAreIndependentAndKeepTheirLevel() {
        var limiter = LogLimiter(window: .seconds(60))
        var printed: [LogLimiter.Line] = []
        limiter.offer(.init(.warning, "GPS silent"), at: at(0)) { printed.append($0) }
        limiter.offer(.init(.info, "GPS 3D fix"), at: at(1)) { printed.append($0) }
        limiter.offer(.init(.warning, "GPS silent"), at: at(2)) { printed.append($0) }
        limiter.offer(.init(.info, "GPS 3D fix"), at: at(3)) { printed.append($0) }
        #expect(printed.map(\.text) == ["GPS silent", "GPS 3D fix"])
        limiter.flush(at: at(30)) { printed.append($0) }
        #expect(printed.count == 4)
        #expect(printed[2...].map(\.level).sorted() == [.info, .warning].sorted())
        #expect(printed.contains(.init(.warning, "GPS silent (repeated once more in 30 s)")))
    }

    @Test func linesThatDifferOnlyInTheirNumbersAreOneFailure() {
        var limiter = LogLimiter()
        var printed: [String] = []
        limiter.offer(.init(.warning, "weather: timed out (next try in 61 s)"), at: at(0)) { printed.append($0.text) }
        limiter.offer(.init(.warning, "weather: timed out (next try in 124 s)"), at: at(61)) { printed.append($0.text) }
        limiter.offer(.init(.warning, "weather: refused (next try in 240 s)"), at: at(185)) { printed.append($0.text) }
        #expect(printed == ["weather: timed out (next try in 61 s)", "weather: refused (next try in 240 s)"])
        limiter.close(dueBy: at(600)) { printed.append($0.text) }
        #expect(printed.last == "weather: timed out (next try in 61 s) (repeated once more in 10 min)")
        #expect(LogLimiter.key("GPS: no data for 3 s; last fix 12.5 s ago") == "GPS: no data for # s; last fix #.# s ago")
    }

    @Test func capacityBoundsMemoryByClosingTheOldestWindow() {
        var limiter = LogLimiter(window: .seconds(600), capacity: 2)
        var printed: [String] = []
        limiter.offer(.init(.warning, "a"), at: at(0)) { printed.append($0.text) }
        limiter.offer(.init(.warning, "a"), at: at(1)) { printed.append($0.text) }
        limiter.offer(.init(.warning, "b"), at: at(2)) { printed.append($0.text) }
        limiter.offer(.init(.warning, "c"), at: at(3)) { printed.append($0.text) }
        #expect(printed == ["a", "b", "a (repeated once more in 3 s)", "c"])
    }
}

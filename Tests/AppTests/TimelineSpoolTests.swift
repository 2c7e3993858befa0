import App
import Testing

/// The spool a headless run keeps its log in: every entry comes back, in order, byte for byte.
@Suite struct TimelineSpoolTests {
    @Test func everyEntryComesBackInOrder() throws {
        let spool = try #require(TimelineSpool())
        let texts = ["store: ok", "", "Tromsø −3 °C\nsecond line", String(repeating: "x", count: 70_000)]
        for i in 0..<1_000 { spool.append(seconds: Double(i) * 0.5, text: texts[i % texts.count]) }
        var read: [(Double, String)] = []
        spool.forEach { read.append(($0, $1)) }
        #expect(read.count == 1_000)
        #expect(read.enumerated().allSatisfy { i, entry in entry.0 == Double(i) * 0.5 && entry.1 == texts[i % texts.count] })
        #expect(spool.failure == nil)
    }

    @Test func aBoardThatDoesNotKeepItsTimelineStillReportsEachLine() {
        let board = DeviceRig.make { _ in }
        board.keepsTimeline = false
        var lines = 0
        board.onLog = { _, _ in lines += 1 }
        board.note("a scripted fault")
        board.advance(by: .seconds(600))
        #expect(board.timeline.isEmpty)
        #expect(lines >= 1)
    }
}

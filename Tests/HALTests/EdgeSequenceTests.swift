import HAL
import Testing

/// The kernel's edge numbers are `u32` and wrap; a gap between two numbers read is the edges it
/// dropped between them (gpio-v2-line-event-read.rst).
@Suite struct EdgeSequenceTests {
    @Test(arguments: [
        (UInt32(0), UInt32(1), UInt32(0)),  // the first edge of a request is numbered 1
        (0, 5, 4),  // the first four were dropped before the first read
        (7, 8, 0), (7, 12, 4),
        (UInt32.max, 0, 0), (UInt32.max, 3, 3), (UInt32.max - 1, 1, 2),  // across the wrap
        (9, 9, 0),  // the same number again moves nothing
        (500, 1, 0),  // a numbering that started again (a new request) moves backwards: nothing
    ])
    func skipped(previous: UInt32, next: UInt32, expected: UInt32) {
        #expect(EdgeSequence.skipped(from: previous, to: next) == expected)
    }

    @Test func edgesFromSourcesWithoutNumbersCarryNone() {
        #expect(Edge(line: 0, direction: .falling, time: .zero).sequence == nil)
    }
}

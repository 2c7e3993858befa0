import Graphics
import Testing

/// Draws `body` on a mock display of `width × height` and returns it.
public func mock(_ width: Int, _ height: Int, _ body: (inout MockDisplay) -> Void) -> MockDisplay {
    var display = MockDisplay(width: width, height: height)
    body(&display)
    return display
}

/// Lines of `art` without surrounding blank lines and trailing spaces.
public func normalizedArt(_ art: String) -> [String] {
    var lines = art.split(separator: "\n", omittingEmptySubsequences: false).map {
        String($0.reversed().drop(while: { $0 == " " }).reversed())
    }
    while lines.first?.isEmpty == true { lines.removeFirst() }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines
}

/// Expects `actual` to equal `expected` (both ASCII art); on a difference, records one issue that
/// shows expected and actual side by side with the differing rows marked.
public func expectArt(_ actual: String, _ expected: String, _ what: String = "picture",
               sourceLocation: SourceLocation = #_sourceLocation) {
    let want = normalizedArt(expected), got = normalizedArt(actual)
    guard want != got else { return }
    let width = max(want.map(\.count).max() ?? 0, 8)
    var report = "\(what) differs from the expected art (\(want.count) rows expected, \(got.count) drawn):\n"
    report += "expected".padding(toLength: width, withPad: " ", startingAt: 0) + "   actual\n"
    for row in 0 ..< max(want.count, got.count) {
        let left = row < want.count ? want[row] : "", right = row < got.count ? got[row] : ""
        let mark = left == right ? "  " : " <"
        report += left.padding(toLength: width, withPad: " ", startingAt: 0) + " | " + right + mark + "\n"
    }
    Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
}

/// Expects `display` to show `expected` and to have seen no overdraw or out-of-bounds write.
public func expectDisplay(_ display: MockDisplay, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectArt(display.art, expected, "display", sourceLocation: sourceLocation)
    #expect(display.problems.isEmpty, sourceLocation: sourceLocation)
}

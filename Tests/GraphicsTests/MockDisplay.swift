import Graphics
import GraphicsTesting
import Testing

/// The test display itself: it must catch what it exists to catch.
@Suite struct MockDisplayTests {
    /// Whether `issue` is the one the mock display records for `message`.
    static func isProblem(_ issue: Issue, _ message: String) -> Bool {
        issue.comments.map(\.rawValue) == ["MockDisplay: " + message]
    }

    @Test func overdrawFailsTheTest() {
        var display = MockDisplay(width: 4, height: 4)
        withKnownIssue {
            display.setPixel(x: 1, y: 1, on: true)
            display.setPixel(x: 1, y: 1, on: false)
        } matching: { issue in
            Self.isProblem(issue, "pixel (1, 1) written twice in one drawing")
        }
        #expect(display.problems == ["pixel (1, 1) written twice in one drawing"])
    }

    @Test func writingOutsideFailsTheTest() {
        var display = MockDisplay(width: 4, height: 4)
        withKnownIssue {
            display.setPixel(x: 4, y: 0, on: true)
        } matching: { issue in
            Self.isProblem(issue, "pixel (4, 0) written outside the 4×4 display")
        }
        #expect(display.problems == ["pixel (4, 0) written outside the 4×4 display"])
    }

    @Test func checksCanBeTurnedOffAndDrawingsSeparated() {
        var display = MockDisplay(width: 4, height: 4, checksOverdraw: false, checksBounds: false)
        display.setPixel(x: 1, y: 1, on: true)
        display.setPixel(x: 1, y: 1, on: true)
        display.setPixel(x: -1, y: 9, on: true)
        #expect(display.problems.isEmpty)
        var strict = MockDisplay(width: 4, height: 4)
        strict.setPixel(x: 2, y: 2, on: true)
        strict.beginDrawing()
        strict.setPixel(x: 2, y: 2, on: false)
        #expect(strict.problems.isEmpty)
        #expect(strict.writes == "....\n....\n..o.\n....")
    }

    @Test func aDifferentPictureFailsWithBothShown() {
        withKnownIssue {
            let display = mock(3, 2) { $0.setPixel(x: 0, y: 0, on: true) }
            expectDisplay(display, "...\n..#")
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("expected") && text.contains("| #.. <") && text.contains("..#")
        }
    }

    @Test func blankLinesAndTrailingSpacesInArtAreIgnored() {
        expectArt("#.\n.#", "\n#.  \n.#\n\n")
    }
}

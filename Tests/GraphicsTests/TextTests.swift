import Graphics
import GraphicsTesting
import Testing

/// Measuring and drawing lines of text: widths, alignment inside a room, clipping and the
/// ellipsis, fallback glyphs and zero-width scalars, and the drawing modes.
@Suite struct TextTests {
    /// What `text` looks like drawn alone at `x` on a display of `width` (the small font).
    func drawn(_ text: String, at x: Int = 0, width: Int = 48, font: Font = .small) -> String {
        mock(width, font.height) { $0.drawText(text, font: font, x: x, y: 0) }.art
    }

    @Test func widthsAreSumsOfAdvances() {
        #expect(Font.small.width(of: "Hello") == 30)
        #expect(Font.medium.width(of: "Hello") == 40)
        #expect(Font.small.width(of: "") == 0)
        #expect(Font.small.width(of: "Zürich"[...].dropFirst(2)) == 24)
        #expect(Font.large.width(of: "0123456789") == 160)
        #expect(Font.large.advance(of: ".") < Font.large.advance(of: "0"))
        let signs = Font.large.advance(of: "\u{2212}") + Font.large.advance(of: ".") + Font.large.advance(of: "°")
        #expect(Font.large.width(of: "\u{2212}12.5°C") == 4 * 16 + signs)
    }

    @Test func aMissingScalarIsDrawnAndMeasuredAsTheFallback() {
        for font in [Font.small, .medium, .large] {
            #expect(font.advance(of: "\u{1F600}") == font.advance(of: "?"))
            #expect(font.glyph("\u{1F600}") == font.glyph("?"))
            #expect(!font.contains("\u{1F600}"))
        }
        #expect(drawn("a\u{1F600}b") == drawn("a?b"))
        #expect(Font.small.width(of: "a\u{1F600}b") == 18)
    }

    @Test func combiningMarksAndJoinersTakeNoRoom() {
        #expect(Font.small.advance(of: "\u{0301}") == 0)
        #expect(Font.small.width(of: "e\u{0301}") == 6)
        #expect(drawn("Caf" + "e\u{0301}") == drawn("Cafe"))
        #expect(Font.small.width(of: "a\u{200D}b\u{FE0F}") == 12)
    }

    @Test func drawTextReturnsTheWidthItDrew() {
        var display = MockDisplay(width: 64, height: 12)
        #expect(display.drawText("12:30", font: .small, x: 2, y: 0) == 30)
        #expect(display.problems.isEmpty)
        var big = MockDisplay(width: 128, height: 32)
        #expect(big.drawText("\u{2212}4°", font: .large, x: 0, y: 0) == Font.large.width(of: "\u{2212}4°"))
    }

    @Test func aSmallLineAsArt() {
        Golden.expect(drawn("Hi 23°C", width: 42), named: "text-small-hi")
    }

    @Test(arguments: TextAlignment.allCases)
    func alignmentPlacesTheLineInsideItsRoom(alignment: TextAlignment) {
        let offset = switch alignment { case .leading: 0; case .center: (40 - 12) / 2; case .trailing: 40 - 12 }
        let aligned = mock(48, 12) { $0.drawText("Hi", font: .small, x: 4, y: 0, maxWidth: 40, alignment: alignment) }
        expectDisplay(aligned, drawn("Hi", at: 4 + offset))
    }

    @Test func withoutARoomCenterAndTrailingHangOnX() {
        let centered = mock(48, 12) { $0.drawText("Hi", font: .small, x: 24, y: 0, alignment: .center) }
        expectDisplay(centered, drawn("Hi", at: 18))
        let trailing = mock(48, 12) { #expect($0.drawText("Hi", font: .small, x: 48, y: 0, alignment: .trailing) == 12) }
        expectDisplay(trailing, drawn("Hi", at: 36))
    }

    @Test func clipCutsThroughAGlyphAtTheEdgeOfTheRoom() {
        var width = 0
        let display = mock(30, 12) { width = $0.drawText("Weather", font: .small, x: 1, y: 0, maxWidth: 20, overflow: .clip) }
        #expect(width == 20)
        #expect(Font.small.fittingWidth(of: "Weather", maxWidth: 20, overflow: .clip) == 20)
        // Columns 1 ..< 21 show "Weat" cut after 2 columns of its "t"; nothing beyond.
        let full = normalizedArt(drawn("Weather", at: 1, width: 30))
        let expected = full.map { String($0.prefix(21)) + String(repeating: ".", count: 9) }
        expectDisplay(display, expected.joined(separator: "\n"))
        Golden.expect(display.art, named: "text-small-clip")
    }

    @Test func ellipsisKeepsWholeGlyphsAndTheMarkInsideTheRoom() {
        var width = 0
        let display = mock(48, 12) { width = $0.drawText("Thunderstorm", font: .small, x: 0, y: 0, maxWidth: 40) }
        #expect(width == 36)  // "Thund" + "…"
        #expect(Font.small.fittingWidth(of: "Thunderstorm", maxWidth: 40) == 36)
        expectDisplay(display, drawn("Thund\u{2026}"))
        Golden.expect(display.art, named: "text-small-ellipsis")
    }

    @Test func theEllipsisDropsTrailingSpaces() {
        let display = mock(48, 12) { #expect($0.drawText("Sankt Gallen", font: .small, x: 0, y: 0, maxWidth: 42) == 36) }
        expectDisplay(display, drawn("Sankt\u{2026}"))
    }

    @Test func textThatFitsIsNeverCut() {
        #expect(Font.small.fittingWidth(of: "Rain", maxWidth: 24) == 24)
        let display = mock(30, 12) { $0.drawText("Rain", font: .small, x: 0, y: 0, maxWidth: 24) }
        expectDisplay(display, drawn("Rain", width: 30))
    }

    @Test func aRoomTooSmallForTheMarkClipsAndAnEmptyRoomDrawsNothing() {
        let tiny = mock(12, 12) { #expect($0.drawText("Wind", font: .small, x: 0, y: 0, maxWidth: 4) == 4) }
        let cut = normalizedArt(drawn("W", width: 12)).map { String($0.prefix(4)) + "........" }
        expectDisplay(tiny, cut.joined(separator: "\n"))
        let none = mock(12, 12) { #expect($0.drawText("Wind", font: .small, x: 0, y: 0, maxWidth: 0) == 0) }
        expectDisplay(none, drawn("", width: 12))
        let negative = mock(12, 12) { #expect($0.drawText("Wind", font: .small, x: 0, y: 0, maxWidth: -5) == 0) }
        expectDisplay(negative, drawn("", width: 12))
    }

    @Test func eraseDrawsDarkTextOnALitBar() {
        let display = mock(20, 12) {
            $0.fill(on: true)
            $0.beginDrawing()
            $0.drawText("OK", font: .small, x: 4, y: 0, mode: .erase)
        }
        let lit = normalizedArt(drawn("OK", at: 4, width: 20))
        let inverted = lit.map { String($0.map { $0 == "#" ? "." : "#" }) }
        expectDisplay(display, inverted.joined(separator: "\n"))
    }

    @Test func textClipsAtEveryEdgeOfTheDisplay() {
        for (x, y) in [(-7, 0), (0, -5), (40, 0), (0, 8), (-1000, -1000), (Int.max, Int.max), (Int.min, 3)] {
            var display = MockDisplay(width: 48, height: 12)
            display.drawText("Fog 5%", font: .small, x: x, y: y)
            #expect(display.problems.isEmpty)
        }
        let left = mock(12, 12) { $0.drawText("AB", font: .small, x: -6, y: 0) }
        expectDisplay(left, drawn("B", width: 12))
        let up = mock(6, 12) { $0.drawText("_", font: .small, x: 0, y: -4) }
        let under = normalizedArt(drawn("_", width: 6))
        expectDisplay(up, (Array(under.dropFirst(4)) + Array(repeating: "......", count: 4)).joined(separator: "\n"))
    }
}

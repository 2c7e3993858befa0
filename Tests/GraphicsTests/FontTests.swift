@testable import Graphics
import GraphicsTesting
import Testing

/// The generated fonts: what they cover, their geometry, and samples of their glyphs as golden
/// art (Golden/font-*.txt).
@Suite struct FontTests {
    static let fonts: [(String, Font)] = [("small", .small), ("medium", .medium), ("large", .large)]

    /// What every screen may print in the small and medium fonts.
    static var textScalars: [Unicode.Scalar] {
        let ranges: [ClosedRange<UInt32>] = [0x20 ... 0x7E, 0xA0 ... 0xFF]
        return ranges.flatMap { $0.compactMap(Unicode.Scalar.init) } + ["°", "\u{2212}", "%", "\u{2026}"]
    }

    /// What a big temperature or clock needs.
    static let largeScalars: [Unicode.Scalar] = Array("0123456789-.:%CF ".unicodeScalars) + ["\u{2212}", "°"]

    @Test func smallAndMediumCoverAsciiLatin1AndTheWeatherSigns() {
        for font in [Font.small, .medium] {
            let missing = FontTests.textScalars.filter { !font.contains($0) }
            #expect(missing.isEmpty, "\(font.name) lacks \(missing.map { "U+" + String($0.value, radix: 16) })")
        }
    }

    @Test func largeCoversTemperaturesAndClocks() {
        let missing = FontTests.largeScalars.filter { !Font.large.contains($0) }
        #expect(missing.isEmpty, "large lacks \(missing)")
        #expect(Font.large.contains("\u{2026}"))
    }

    @Test func placeNamesBeyondLatin1AreCovered() {
        for name in ["Kraków", "Plzeň", "Łódź", "Göteborg", "São Paulo", "Reykjavík", "Ærøskøbing"] {
            #expect(name.unicodeScalars.allSatisfy { Font.small.contains($0) && Font.medium.contains($0) }, "\(name)")
        }
    }

    @Test func geometry() {
        #expect((Font.small.height, Font.small.ascent, Font.small.capHeight) == (12, 10, 8))
        #expect((Font.medium.height, Font.medium.ascent) == (16, 12))
        #expect((Font.large.height, Font.large.ascent, Font.large.capHeight) == (32, 26, 20))
        // Small and medium are monospaced; large keeps tabular digits and narrow punctuation.
        #expect(FontTests.textScalars.allSatisfy { Font.small.advance(of: $0) == 6 })
        #expect(FontTests.textScalars.allSatisfy { Font.medium.advance(of: $0) == 8 })
        #expect("0123456789CF%".unicodeScalars.allSatisfy { Font.large.advance(of: $0) == 16 })
        #expect(Font.large.advance(of: " ") == 8)
        #expect(Font.large.advance(of: ":") < 8)
        for (_, font) in FontTests.fonts {
            #expect(font.glyph("A").height == font.height)
            #expect(font.glyph("0").width == font.advance(of: "0"))
            #expect(font.ellipsisWidth == font.advance(of: "\u{2026}"))
            #expect(!font.name.isEmpty)
        }
    }

    @Test func everyGlyphHasInkButTheSpaces() {
        for font in [Font.small, .medium] {
            for scalar in FontTests.textScalars where scalar != " " && scalar != "\u{00A0}" {
                let glyph = font.glyph(scalar)
                let ink = (0 ..< glyph.height).contains { y in (0 ..< glyph.width).contains { glyph[$0, y] } }
                #expect(ink, "\(font.name): U+\(String(scalar.value, radix: 16)) is blank")
            }
        }
    }

    @Test(arguments: ["small", "medium"])
    func sampleGlyphs(font name: String) {
        let font = name == "small" ? Font.small : Font.medium
        for (sample, text) in [("digits", "0123456789"), ("signs", "°\u{2212}%ä߀…É-"), ("letters", "AgÅjy,ñ")] {
            let display = mock(font.width(of: text), font.height) { $0.drawText(text, font: font, x: 0, y: 0) }
            #expect(display.problems.isEmpty)
            Golden.expect(display.art, named: "font-\(name)-\(sample)")
        }
    }

    @Test func sampleGlyphsLarge() {
        for (sample, text) in [("digits", "01234"), ("digits2", "56789"), ("signs", "\u{2212}-.:°%CF")] {
            let display = mock(Font.large.width(of: text), 32) { $0.drawText(text, font: .large, x: 0, y: 0) }
            #expect(display.problems.isEmpty)
            Golden.expect(display.art, named: "font-large-\(sample)")
        }
    }

    @Test func largeDigitsSitOnTheBaselineBelowCapHeight() {
        let glyph = Font.large.glyph("8")
        let inked = (0 ..< glyph.height).filter { y in (0 ..< glyph.width).contains { glyph[$0, y] } }
        #expect(inked.first == Font.large.ascent - Font.large.capHeight)
        #expect(inked.last == Font.large.ascent - 1)
    }
}

/// Lookup in the generated tables, and the paths a generated font does not take: a font
/// without `…` (the ellipsis becomes `...`) and a scalar table with gaps.
@Suite struct FontTableTests {
    /// A 3-pixel font with `.`, `?`, `a` and `z` only: no ellipsis glyph.
    static let tiny = Font(
        name: "test", height: 3, ascent: 3, capHeight: 3,
        scalars: [0x2E, 0x3F, 0x61, 0x7A], advances: [2, 3, 3, 3], offsets: [0, 2, 5, 8],
        data: [0b100, 0b000, 0b001, 0b101, 0b010, 0b111, 0b101, 0b111, 0b011, 0b111, 0b110]
    )

    @Test func lookupFindsEveryScalarAndNothingElse() {
        for font in [Font.small, .medium, .large] {
            for (index, value) in font.scalars.enumerated() {
                #expect(font.index(of: Unicode.Scalar(value)!) == index)
            }
            #expect(font.index(of: "\u{1F600}") == nil)
            #expect(font.index(of: "\u{0}") == nil)
            #expect(font.scalars == font.scalars.sorted())
        }
        #expect(FontTableTests.tiny.index(of: "a") == 2)
        #expect(FontTableTests.tiny.index(of: "b") == nil)
    }

    @Test func withoutAnEllipsisGlyphTheMarkIsThreeDots() {
        let font = FontTableTests.tiny
        #expect(font.ellipsisWidth == 6)
        #expect(font.fittingWidth(of: "azazaz", maxWidth: 13) == 12)  // "az" + "..."
        let display = mock(14, 3) { $0.drawText("azazaz", font: font, x: 0, y: 0, maxWidth: 13) }
        expectDisplay(display, """
        #####.........
        #.####........
        ###.###.#.#...
        """)
    }
}

import Graphics
import GraphicsTesting
import Testing

/// `Bitmap`: its page layout, views, and drawing in the three modes, clipped at each edge.
@Suite struct BitmapTests {
    static let arrow = Bitmap(asciiArt: """
    .#.
    ###
    .#.
    .#.
    """)

    @Test func asciiArtRoundTripsThroughThePageLayout() {
        #expect(BitmapTests.arrow.width == 3)
        #expect(BitmapTests.arrow.height == 4)
        #expect(BitmapTests.arrow.pages == 1)
        #expect(BitmapTests.arrow.asciiArt == ".#.\n###\n.#.\n.#.")
        // Column 1 holds rows 0–3 lit: bits 0–3 of its byte.
        #expect(BitmapTests.arrow.byte(page: 0, column: 1) == 0b1111)
        #expect(BitmapTests.arrow.byte(page: 0, column: 0) == 0b0010)
        #expect(BitmapTests.arrow.byte(page: 1, column: 0) == 0)
        #expect(BitmapTests.arrow[5, 0] == false && BitmapTests.arrow[-1, 1] == false)
    }

    @Test func bitsBelowTheHeightAreIgnored() {
        let bitmap = Bitmap(width: 2, height: 3, bytes: [0xFF, 0xFF])
        #expect(bitmap.asciiArt == "##\n##\n##")
        #expect(bitmap.byte(page: 0, column: 0) == 0b111)
        #expect(bitmap == Bitmap(width: 2, height: 3, bytes: [0x07, 0x07]))
        let display = mock(2, 5) { $0.draw(bitmap, x: 0, y: 0, mode: .copy) }
        expectDisplay(display, "##\n##\n##\n..\n..")
        #expect(normalizedArt(display.writes) == ["##", "##", "##", "..", ".."])
    }

    @Test func columnsAreAViewOfTheSameStorage() {
        let right = BitmapTests.arrow.columns(1 ..< 3)
        #expect(right.asciiArt == "#.\n##\n#.\n#.")
        #expect(BitmapTests.arrow.columns(-4 ..< 1).asciiArt == ".\n#\n.\n.")
        #expect(BitmapTests.arrow.columns(2 ..< 9).width == 1)
        #expect(BitmapTests.arrow.columns(5 ..< 9).width == 0)
    }

    @Test func overlayLightsOnlyLitPixels() {
        let display = mock(5, 4) { $0.draw(BitmapTests.arrow, x: 1, y: 0) }
        expectDisplay(display, "..#..\n.###.\n..#..\n..#..")
        #expect(normalizedArt(display.writes) == ["..#..", ".###.", "..#..", "..#.."])
    }

    @Test func copyWritesEveryPixelOfTheBitmap() {
        let display = mock(5, 4) {
            $0.fill(on: true)
            $0.beginDrawing()
            $0.draw(BitmapTests.arrow, x: 1, y: 0, mode: .copy)
        }
        expectDisplay(display, "#.#.#\n#####\n#.#.#\n#.#.#")
    }

    @Test func eraseTurnsLitPixelsOff() {
        let display = mock(5, 4) {
            $0.fill(on: true)
            $0.beginDrawing()
            $0.draw(BitmapTests.arrow, x: 1, y: 0, mode: .erase)
        }
        expectDisplay(display, "##.##\n#...#\n##.##\n##.##")
    }

    @Test(arguments: [
        (-1, 0, "#....\n##...\n#....\n#...."),
        (3, 1, ".....\n....#\n...##\n....#"),
        (0, -2, ".#...\n.#...\n.....\n....."),
        (2, 3, ".....\n.....\n.....\n...#."),
        (-3, 0, ".....\n.....\n.....\n....."),
        (Int.max, Int.min, ".....\n.....\n.....\n....."),
        (Int.min, 2, ".....\n.....\n.....\n....."),
    ])
    func bitmapsClipAtEachEdge(x: Int, y: Int, expected: String) {
        expectDisplay(mock(5, 4) { $0.draw(BitmapTests.arrow, x: x, y: y) }, expected)
    }

    @Test func equalityComparesPixelsNotStorage() {
        let copy = Bitmap(asciiArt: ".#.\n###\n.#.\n.#.")
        #expect(copy == BitmapTests.arrow)
        #expect(BitmapTests.arrow.columns(0 ..< 2) != BitmapTests.arrow)
        #expect(Bitmap(asciiArt: "#\n.") != Bitmap(asciiArt: ".\n#"))
    }
}

/// `Framebuffer`'s fast paths at the byte level: the page layout they write, the cases at page
/// boundaries, and the partial last page. (That they light exactly the pixels of the generic
/// path is `FastPathPropertyTests`.)
@Suite struct FramebufferDrawingTests {
    @Test func fillRectAcrossPagesWritesRowMasks() {
        var frame = Framebuffer(width: 2, height: 16)
        frame.fillRect(x: 1, y: 3, width: 5, height: 10, on: true)
        #expect(frame.bytes == [0x00, 0b1111_1000, 0x00, 0b0001_1111])
        frame.fillRect(x: -1, y: 5, width: 3, height: 2, on: false)
        #expect(frame.bytes == [0x00, 0b1001_1000, 0x00, 0b0001_1111])
    }

    @Test func aPartialLastPageNeverGetsBitsBelowTheHeight() {
        var frame = Framebuffer(width: 3, height: 12)
        frame.fill(on: true)
        #expect(frame.bytes == [0xFF, 0xFF, 0xFF, 0x0F, 0x0F, 0x0F])
        frame.clear()
        frame.draw(Bitmap(width: 3, height: 16, bytes: [UInt8](repeating: 0xFF, count: 6)), x: 0, y: 0, mode: .overlay)
        #expect(frame.bytes == [0xFF, 0xFF, 0xFF, 0x0F, 0x0F, 0x0F])
    }

    @Test func aPageAlignedBitmapIsAByteCopy() {
        let bytes: [UInt8] = [0x81, 0x42, 0x24, 0x18]  // 2 columns, 2 pages
        let bitmap = Bitmap(width: 2, height: 16, bytes: bytes)
        var frame = Framebuffer(width: 4, height: 24)
        frame.draw(bitmap, x: 1, y: 8, mode: .copy)
        #expect(frame.bytes == [0, 0, 0, 0, 0, 0x81, 0x42, 0, 0, 0x24, 0x18, 0])
    }

    @Test func anUnalignedBitmapSplitsEachByteInTwo() {
        let bitmap = Bitmap(width: 1, height: 8, bytes: [0b1000_0001])
        var frame = Framebuffer(width: 1, height: 16)
        frame.draw(bitmap, x: 0, y: 3, mode: .overlay)
        #expect(frame.bytes == [0b0000_1000, 0b0000_0100])
        frame.draw(bitmap, x: 0, y: -7, mode: .overlay)
        #expect(frame.bytes == [0b0000_1001, 0b0000_0100])
    }

    @Test func copyClearsOnlyTheRowsTheBitmapCovers() {
        var frame = Framebuffer(width: 1, height: 8)
        frame.fill(on: true)
        frame.draw(Bitmap(width: 1, height: 3, bytes: [0b010]), x: 0, y: 2, mode: .copy)
        #expect(frame.bytes == [0b1110_1011])
        frame.draw(Bitmap(width: 1, height: 3, bytes: [0b111]), x: 0, y: 5, mode: .erase)
        #expect(frame.bytes == [0b0000_1011])
    }

    @Test func textAtAPageBoundaryIsTheFontsBytes() {
        var frame = Framebuffer(width: 16, height: 16)
        frame.drawText("0", font: .medium, x: 4, y: 0)
        let glyph = Font.medium.glyph("0")
        for page in 0 ..< 2 {
            for column in 0 ..< glyph.width {
                #expect(frame.byte(page: page, column: 4 + column) == glyph.byte(page: page, column: column))
            }
        }
    }
}

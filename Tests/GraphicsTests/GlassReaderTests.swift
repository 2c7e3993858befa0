import Graphics
import HAL
import Testing

/// Reading a glass back into text and icons (`GlassReader`): strings at the place they were
/// drawn, in the font they were drawn with; nothing read where a glyph's cell does not match
/// exactly (shifted, garbled, overdrawn).
@Suite struct GlassReaderTests {
    static let reader = GlassReader()

    /// A 128×64 framebuffer drawn by `body`, read back.
    static func read(width: Int = 128, height: Int = 64, _ body: (inout Framebuffer) -> Void) -> GlassReading {
        var frame = Framebuffer(width: width, height: height)
        body(&frame)
        return reader.read(width: width, height: height, pixels: pixels(of: frame))
    }

    /// The framebuffer as one byte per pixel, row by row (the layout `PanelImage.pixels` has),
    /// optionally moved right by `shift` columns.
    static func pixels(of frame: Framebuffer, shift: Int = 0) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: frame.width * frame.height)
        for y in 0..<frame.height {
            for x in 0..<frame.width where frame[x - shift, y] { pixels[y * frame.width + x] = 1 }
        }
        return pixels
    }

    @Test func testRead_StringsInEveryFont_AtTheirPlaces() {
        let reading = Self.read { frame in
            frame.drawText("Zürich", font: .small, x: 0, y: 0)
            frame.drawText("14:05", font: .small, x: 98, y: -2)
            frame.drawText("23", font: .large, x: 0, y: 16)
            frame.drawText("°C", font: .medium, x: 34, y: 16)
            frame.drawText("12 km/h", font: .small, x: 30, y: 52)
            frame.drawText("SW", font: .small, x: 78, y: 52)
        }
        #expect(reading.text == [
            GlassText("14:05", x: 98, y: -2, font: .small),
            GlassText("Zürich", x: 0, y: 0, font: .small),
            GlassText("23", x: 0, y: 16, font: .large),
            GlassText("°C", x: 34, y: 16, font: .medium),
            GlassText("12 km/h SW", x: 30, y: 52, font: .small),
        ])
        #expect(reading.unreadPixels == 0 && reading.litPixels > 0)
        #expect(reading.contains("SW", x: 78, y: 52, font: .small))
        #expect(reading.contains(" km/h", x: 42, y: 52, font: .small), "a leading space moves x on by its width")
        #expect(!reading.contains("SW", x: 77, y: 52, font: .small))
        #expect(!reading.contains("23", x: 0, y: 16, font: .medium))
    }

    @Test func testRead_ShiftedOneColumn_ReadsOneColumnOver_NotInPlace() {
        var frame = Framebuffer(width: 128, height: 64)
        frame.drawText("Berlin", font: .small, x: 0, y: 0)
        frame.drawText("21.6", font: .large, x: 0, y: 16)
        let shifted = Self.reader.read(width: 128, height: 64, pixels: Self.pixels(of: frame, shift: 1))
        #expect(!shifted.contains("Berlin", x: 0, y: 0, font: .small))
        #expect(!shifted.contains("21.6", x: 0, y: 16, font: .large))
        #expect(shifted.contains("Berlin", x: 1, y: 0, font: .small))
        #expect(shifted.contains("21.6", x: 1, y: 16, font: .large))
    }

    @Test func testRead_OnePixelGarbled_TheGlyphIsNotRead() {
        var frame = Framebuffer(width: 128, height: 64)
        frame.drawText("Berlin", font: .small, x: 0, y: 0)
        var pixels = Self.pixels(of: frame)
        pixels[5 * 128 + 3] ^= 1  // inside the B's cell
        let reading = Self.reader.read(width: 128, height: 64, pixels: pixels)
        #expect(!reading.text.contains { $0.text.contains("Berlin") })
        #expect(reading.contains("erlin", x: 6, y: 0, font: .small), "the other glyphs still read")
        #expect(reading.unreadPixels > 0)
    }

    @Test func testRead_TextOverOtherInk_IsNotRead() {
        let reading = Self.read { frame in
            frame.drawText("Sun", font: .small, x: 10, y: 10)
            frame.drawHorizontalLine(x: 0, y: 12, length: 128)
        }
        #expect(!reading.contains("Sun", x: 10, y: 10, font: .small))
    }

    @Test func testRead_Icons_AndNoTextInsideThem() {
        let reading = Self.read { frame in
            frame.drawIcon(.partlyCloudy, night: false, size: .large, x: 96, y: 16)
            frame.drawIcon(.clear, night: true, size: .small, x: 8, y: 24)
            frame.drawIcon(.thunderstorm, night: false, size: .small, x: 40, y: 0)
        }
        #expect(reading.icons == [
            GlassIcon(icon: .thunderstorm, night: false, size: .small, x: 40, y: 0),
            GlassIcon(icon: .partlyCloudy, night: false, size: .large, x: 96, y: 16),
            GlassIcon(icon: .clear, night: true, size: .small, x: 8, y: 24),
        ])
        #expect(reading.text.isEmpty && reading.unreadPixels == 0)
    }

    /// A fragment of a longer string can look like a short glyph (the lower dot of `:` alone is
    /// a `.`, a bar is `-` or, four rows up, `_`): the longer chain claims the pixels first.
    @Test func testRead_FragmentsLoseToTheWholeString() {
        let reading = Self.read { frame in
            frame.drawText("10:00 : 5", font: .small, x: 4, y: 20)
            frame.drawText("--%  -1°", font: .small, x: 60, y: 40)
        }
        #expect(reading.text == [
            GlassText("10:00 : 5", x: 4, y: 20, font: .small),
            GlassText("--%", x: 60, y: 40, font: .small), GlassText("-1°", x: 90, y: 40, font: .small),
        ])
    }

    /// The minus sign, the en dash and the hyphen are one glyph in these fonts: the glass reads
    /// the hyphen, and `contains` takes either.
    @Test func testRead_GlyphsThatLookAlike_ReadAsTheFirstScalar() {
        let reading = Self.read { frame in frame.drawText("\u{2212}5°", font: .small, x: 10, y: 20) }
        #expect(reading.text == [GlassText("-5°", x: 10, y: 20, font: .small)])
        #expect(reading.contains("\u{2212}5°", x: 10, y: 20, font: .small))
        #expect(reading.contains("-5°", x: 10, y: 20, font: .small))
        #expect(!reading.contains("+5°", x: 10, y: 20, font: .small))
    }

    @Test func testRead_TwoSpacesApart_TwoStrings() {
        let reading = Self.read { frame in frame.drawText("64%  12 km/h", font: .small, x: 0, y: 52) }
        #expect(reading.text == [GlassText("64%", x: 0, y: 52, font: .small), GlassText("12 km/h", x: 30, y: 52, font: .small)])
    }

    @Test func testRead_ADarkGlass_ReadsNothing() {
        let reading = Self.reader.read(width: 128, height: 32, pixels: [UInt8](repeating: 0, count: 128 * 32))
        #expect(reading == GlassReading(text: []))
    }
}

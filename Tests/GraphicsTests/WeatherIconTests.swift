import Graphics
import GraphicsTesting
import HAL
import Testing

/// The weather icons: every picture at both sizes, day and night, as golden art; that the
/// generated sheets reproduce the hand-drawn sources; and that the pictures tell the groups apart.
@Suite struct WeatherIconTests {
    /// Every picture: icon, night, and its name in Tools/graphics/icons/<size>/.
    static let pictures: [(ConditionGroup, Bool, String)] = [
        (.clear, false, "clear-day"), (.clear, true, "clear-night"),
        (.partlyCloudy, false, "partly-cloudy-day"), (.partlyCloudy, true, "partly-cloudy-night"),
        (.cloudy, false, "cloudy"), (.fog, false, "fog"), (.drizzle, false, "drizzle"), (.rain, false, "rain"),
        (.snow, false, "snow"), (.showers, false, "showers-day"), (.showers, true, "showers-night"),
        (.thunderstorm, false, "thunderstorm"),
    ]

    static func name(_ size: IconSize) -> String { size == .small ? "small" : "large" }

    @Test(arguments: IconSize.allCases)
    func everyPictureMatchesItsGolden(size: IconSize) {
        for (icon, night, name) in WeatherIconTests.pictures {
            let side = size.pixels
            let display = mock(side, side) { $0.drawIcon(icon, night: night, size: size, x: 0, y: 0) }
            #expect(display.problems.isEmpty)
            Golden.expect(display.art, named: "icon-\(WeatherIconTests.name(size))-\(name)")
        }
    }

    @Test(arguments: IconSize.allCases)
    func theSheetsReproduceTheHandDrawnArt(size: IconSize) throws {
        for (icon, night, name) in WeatherIconTests.pictures {
            let path = "Tools/graphics/icons/\(WeatherIconTests.name(size))/\(name).txt"
            let source = try #require(Golden.repositoryFile(path), "cannot read \(path)")
            #expect(icon.bitmap(night: night, size: size) == Bitmap(asciiArt: source), "\(path)")
        }
    }

    @Test(arguments: IconSize.allCases)
    func everyPictureIsDistinctAndFitsItsSize(size: IconSize) {
        let bitmaps = WeatherIconTests.pictures.map { $0.0.bitmap(night: $0.1, size: size) }
        for (i, a) in bitmaps.enumerated() {
            #expect(a.width == size.pixels && a.height == size.pixels)
            for b in bitmaps[(i + 1)...] { #expect(a != b) }
        }
    }

    @Test func nightDiffersExactlyWhereTheSkyShows() {
        for icon in ConditionGroup.allCases {
            for size in IconSize.allCases {
                let differs = icon.bitmap(night: true, size: size) != icon.bitmap(night: false, size: size)
                #expect(differs == icon.hasNightVariant, "\(icon) at \(size)")
            }
        }
        #expect(ConditionGroup.allCases.filter(\.hasNightVariant) == [.clear, .partlyCloudy, .showers])
    }

    @Test func iconsCombineWithWhatIsUnderThem() {
        let clear = ConditionGroup.clear.bitmap(night: false, size: .small)
        var display = MockDisplay(width: 16, height: 16)
        display.fill(on: true)
        display.beginDrawing()
        display.drawIcon(.clear, night: false, size: .small, x: 0, y: 0, mode: .erase)
        for y in 0 ..< 16 {
            for x in 0 ..< 16 { #expect(display.isLit(x: x, y: y) == !clear[x, y]) }
        }
        #expect(display.problems.isEmpty)
    }
}

/// The 5×8 pictures for character LCDs: every one as golden art (bit 4 the leftmost dot), all
/// different, and the cursor line left free.
@Suite struct CellGlyphTests {
    static let golden: [CellGlyph: String] = [
        .degree: ".##..|#..#.|#..#.|.##..|.....|.....|.....|.....",
        .sun: "..#..|#...#|.###.|#####|.###.|#...#|..#..|.....",
        .moon: "..##.|.##..|##...|##...|##...|.##..|..##.|.....",
        .partlyCloudy: ".#...|###..|.#.#.|..###|.####|#####|.....|.....",
        .cloud: ".....|..##.|.####|#####|#####|.....|.....|.....",
        .fog: ".....|####.|.....|.####|.....|####.|.....|.....",
        .drizzle: "..##.|.####|#####|.....|.#..#|.....|#..#.|.....",
        .rain: "..##.|.####|#####|.....|..#.#|.#.#.|#.#..|.....",
        .snow: "..##.|.####|#####|.....|#.#.#|.###.|#.#.#|.....",
        .showers: ".#...|###..|.#.##|.####|.....|.#.#.|#.#..|.....",
        .thunder: "..##.|.####|#####|...#.|..##.|.##..|.#...|.....",
        .drop: "..#..|..#..|.###.|.###.|#####|#####|.###.|.....",
        .wind: "..##.|....#|####.|.....|###..|...#.|..#..|.....",
        .satellite: "##...|##...|..#..|...##|...##|.....|.....|.....",
        .warning: "..#..|.#.#.|.#.#.|##.##|#####|##.##|#####|.....",
        .moonNew: ".###.|#...#|#...#|#...#|#...#|#...#|.###.|.....",
        .moonCrescentRight: ".###.|#...#|#..##|#..##|#..##|#...#|.###.|.....",
        .moonQuarterRight: ".###.|#.###|#.###|#.###|#.###|#.###|.###.|.....",
        .moonGibbousRight: ".###.|#####|#.###|#.###|#.###|#####|.###.|.....",
        .moonFull: ".###.|#####|#####|#####|#####|#####|.###.|.....",
        .moonGibbousLeft: ".###.|#####|###.#|###.#|###.#|#####|.###.|.....",
        .moonQuarterLeft: ".###.|###.#|###.#|###.#|###.#|###.#|.###.|.....",
        .moonCrescentLeft: ".###.|#...#|##..#|##..#|##..#|#...#|.###.|.....",
        .rising: ".....|..###|...##|..#.#|.#...|#....|.....|.....",
        .falling: ".....|#....|.#...|..#.#|...##|..###|.....|.....",
    ]

    static func rows(_ glyph: CellGlyph) -> [UInt8] {
        let r = glyph.rows
        return [r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7]
    }

    static func art(_ glyph: CellGlyph) -> String {
        rows(glyph).map { row in String((0 ..< 5).map { row & (0x10 >> $0) != 0 ? "#" : "." }) }.joined(separator: "|")
    }

    @Test(arguments: CellGlyph.allCases)
    func everyGlyphMatchesItsGolden(glyph: CellGlyph) {
        func lines(_ art: String) -> String { art.split(separator: "|").joined(separator: "\n") }
        expectArt(lines(CellGlyphTests.art(glyph)), lines(CellGlyphTests.golden[glyph] ?? ""), "\(glyph)")
    }

    @Test func glyphsAreDistinctFiveDotsWideAndLeaveTheCursorLineFree() {
        let all = CellGlyph.allCases.map(CellGlyphTests.rows)
        #expect(Set(all).count == CellGlyph.allCases.count)
        for rows in all {
            #expect(rows.allSatisfy { $0 < 0x20 })
            #expect(rows[7] == 0)
            #expect(rows.contains { $0 != 0 })
        }
        #expect(CellGlyphTests.rows(.sun) != CellGlyphTests.rows(.snow))
    }
}

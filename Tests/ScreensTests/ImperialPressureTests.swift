import Graphics
import GraphicsTesting
@testable import Screens
import Store
import Testing
import Weather
import HAL

/// The barograph, the pressure's tendency and the storm banner in inHg when the settings say
/// imperial, on every panel; metric is pinned by the goldens (`ScreenGoldenTests`).
@Suite struct ImperialPressureTests {
    static func imperial(_ model: ScreenModel) -> ScreenModel {
        var model = model
        model.settings.units = .imperial
        return model
    }

    /// The strings the glass shows, read back by the project's own template reader (which reads
    /// the minus sign U+2212 as "-": the two glyphs are the same pixels, and ASCII wins).
    static func read(_ display: MockDisplay) -> [String] {
        var pixels = [UInt8](repeating: 0, count: display.width * display.height)
        for y in 0..<display.height { for x in 0..<display.width where display.isLit(x: x, y: y) { pixels[y * display.width + x] = 1 } }
        return GlassReader().read(width: display.width, height: display.height, pixels: pixels).text.map(\.text)
    }

    static func rows(_ frame: CharacterFrame) -> [String] {
        ScreenGoldenTests.text(frame).split(separator: "\n").dropFirst().dropLast().map { String($0.dropFirst().dropLast()) }
    }

    @Test func textsInBothUnits() {
        #expect(PressureText.value(1009.2, .metric) == "1009")
        #expect(PressureText.value(1009.2, .imperial) == "29.80")
        #expect(PressureText.value(1013.25, .imperial) == "29.92", "the standard atmosphere")
        #expect(PressureText.change(-3.2, .metric) == "\u{2212}3.2/3h")
        #expect(PressureText.change(-3.2, .imperial) == "\u{2212}0.09/3h")
        #expect(PressureText.change(1.7, .imperial, unsure: true) == "+0.05/3h?")
        #expect(PressureText.change(-4.2, .imperial, form: .spacedUnit) == "\u{2212}0.12 inHg/3h")
        #expect(PressureText.change(-4.2, .imperial, form: .tightUnit) == "\u{2212}0.12inHg/3h")
        #expect(PressureText.change(-4.2, .imperial, form: .unitOnly) == "\u{2212}0.12inHg")
        #expect(PressureText.change(-4.2, .metric, form: .spacedUnit) == "\u{2212}4.2 hPa/3h")
        #expect(PressureText.change(-33.9, .imperial) == "\u{2212}1.00/3h")
        // 0.1 hPa is a fall by the Met Office's bands though it rounds to 0.00 inHg.
        #expect(PressureText.change(-0.1, .imperial) == "0.00/3h")
        #expect(PressureText.Arrow(change: -0.1) == .falling)
    }

    /// The labels are the plotted bounds: 0.1-inHg steps, at least 0.3 inHg, every value inside.
    @Test func theImperialScaleIsOnTenthsOfAnInch() throws {
        let panel = SampleScene.frontPanel
        let range = try #require(panel.range)
        let scale = try #require(BarographScreen.scale(panel, .imperial))
        #expect(scale.low <= range.lowerBound && scale.high >= range.upperBound)
        for (bound, label) in [(scale.low, scale.lowLabel), (scale.high, scale.highLabel)] {
            let inches = try #require(Double(label))
            #expect(label.count == 4 && label.contains("."), "\(label)")
            #expect(abs(inches / PressureText.inchesPerHectopascal * 10 - Double(bound)) <= 0.5, "\(label) is \(bound)")
        }
        var flat = BarographPanel()
        flat.current = 1013
        #expect(BarographScreen.scale(flat, .imperial) == nil)
        // A flat day still spans 0.3 inHg (10.2 hPa), like the 8 hPa of metric.
        var history = PressureHistory()
        for step in stride(from: 287, through: 0, by: -1) {
            history.record(PressureSample(
                time: BarographPanelTests.now - .seconds(Int64(step) * 600), hectopascals: 1013, quality: .good))
        }
        flat.update(history: history, reading: history.tendency(at: BarographPanelTests.now), pressures: [], now: BarographPanelTests.now)
        let narrow = try #require(BarographScreen.scale(flat, .imperial))
        #expect(narrow.lowLabel == "29.8" && narrow.highLabel == "30.1", "\(narrow)")
        #expect(narrow.low <= 10_130 && narrow.high >= 10_130 && flat.range == 10_130...10_130)
    }

    @Test func theBarographSaysInchesOnEveryPanel() {
        let model = Self.imperial(SampleScene.barograph.frames[0])
        for (width, height) in ScreenGoldenTests.oledSizes {
            var display = MockDisplay(width: width, height: height)
            OLEDScreens.draw(model, .barograph, into: &display)
            #expect(display.problems.isEmpty, "\(width)x\(height): \(display.problems.prefix(3))")
            let texts = Self.read(display)
            #expect(texts.contains("29.80") && texts.contains("-0.09/3h"), "\(width)x\(height): \(texts)")
            // The 128x32's labels stand one over the other in overlapping cells, which the
            // strict reader does not read; the scale test covers them.
            if height == 64 { #expect(texts.contains("30.1") && texts.contains("29.7"), "value and labels: \(texts)") }
            #expect(!texts.contains { $0.contains("hPa") || $0.hasPrefix("10") })
        }
        var lcd = CharacterFrame(columns: 20, rows: 4)
        CharacterScreens.render(model, .barograph, into: &lcd)
        #expect(Self.rows(lcd)[1] == "29.80inHg \u{2198} \u{2212}0.09/3h", "\(Self.rows(lcd))")
        #expect(Self.rows(lcd)[3].hasPrefix("Fcst \u{2198} \u{2212}0.0"), "\(Self.rows(lcd))")
        var small = CharacterFrame(columns: 16, rows: 2)
        CharacterScreens.render(model, .barograph, into: &small)
        #expect(Self.rows(small)[1] == "29.80 \u{2198} \u{2212}0.09/3h", "\(Self.rows(small))")
        var unsure = model
        unsure.barograph.sensorTrend?.unsure = true
        CharacterScreens.render(unsure, .barograph, into: &small)
        #expect(Self.rows(small)[1] == "29.80 \u{2198}\u{2212}0.09/3h?", "the space gives way: \(Self.rows(small))")
        CharacterScreens.render(unsure, .barograph, into: &lcd)
        #expect(Self.rows(lcd)[1] == "29.80inHg \u{2198}\u{2212}0.09/3h?", "\(Self.rows(lcd))")
        var bare = model
        bare.barograph.sensorTrend = nil
        bare.barograph.providerTrend = nil
        CharacterScreens.render(bare, .barograph, into: &lcd)
        #expect(Self.rows(lcd)[1].hasPrefix("29.80 inHg "), "\(Self.rows(lcd))")
        var display = MockDisplay(width: 128, height: 64)
        OLEDScreens.draw(bare, .barograph, into: &display)
        #expect(Self.read(display).contains("29.80 inHg"), "\(Self.read(display))")
    }

    @Test func theIndoorTendencyIsInInches() {
        let model = Self.imperial(SampleScene.indoor.frames[0])
        var lcd = CharacterFrame(columns: 20, rows: 4)
        CharacterScreens.render(model, .indoor, into: &lcd)
        let row = Self.rows(lcd)[2]
        #expect(row.contains(" inHg \u{2198}") && row.hasSuffix("/3h") && row.contains("\u{2212}0.0"), "\(row)")
        for (width, height) in ScreenGoldenTests.oledSizes {
            var display = MockDisplay(width: width, height: height)
            OLEDScreens.draw(model, .indoor, into: &display)
            #expect(display.problems.isEmpty, "\(width)x\(height): \(display.problems.prefix(3))")
            let texts = Self.read(display)
            #expect(texts.contains { $0.contains("29.92") } && !texts.contains { $0.contains("hPa") }, "\(width)x\(height): \(texts)")
        }
        var display = MockDisplay(width: 128, height: 64)
        OLEDScreens.draw(model, .indoor, into: &display)
        #expect(Self.read(display).contains { $0.hasSuffix("inHg") }, "\(Self.read(display))")
    }

    @Test(arguments: Screen.allCases)
    func theStormBannerSaysInches(_ screen: Screen) {
        // Minute 5: lit text on a dark bar, which the reader reads; minute 6: the opposite.
        let dark = Self.imperial(SampleScene.storm.frames[0])
        let lit = Self.imperial(SampleScene.storm.frames[1])
        for (width, height) in ScreenGoldenTests.oledSizes {
            var display = MockDisplay(width: width, height: height)
            OLEDScreens.draw(dark, screen, into: &display)
            #expect(display.problems.isEmpty, "\(screen) \(width)x\(height): \(display.problems.prefix(3))")
            // Beside the clock the unit drops "/3h" (the spaced and tight forms do not fit).
            let texts = Self.read(display)
            #expect(texts.first == "STORM -0.12inHg" && texts.dropFirst().first == "14:05", "\(screen) \(width)x\(height): \(texts)")
            var other = MockDisplay(width: width, height: height)
            OLEDScreens.draw(lit, screen, into: &other)
            #expect(other.problems.isEmpty)
            // Opposite everywhere but the clock's last digit (14:05, then 14:06).
            let clockX = width - Font.small.width(of: "14:05")
            var opposite = 0
            for y in 0..<12 { for x in 0..<clockX where display.isLit(x: x, y: y) != other.isLit(x: x, y: y) { opposite += 1 } }
            #expect(opposite == clockX * 12, "\(screen) \(width)x\(height)")
        }
        // On the LCDs no inch form fits beside the clock: "STORM" and the time.
        let expected = [16: "STORM      14:06", 20: "\u{26A0} STORM        14:06"]
        for (columns, rows) in [(16, 2), (20, 4)] {
            var frame = CharacterFrame(columns: columns, rows: rows)
            CharacterScreens.render(lit, screen, into: &frame)
            #expect(Self.rows(frame)[0] == expected[columns], "\(screen) \(columns)x\(rows): \(Self.rows(frame)[0])")
        }
    }

    /// A fall too big for the spaced unit takes the next form on a narrow OLED canvas.
    @Test func theBannerShortensWhereItDoesNotFit() {
        let text = "STORM \u{2212}0.12 inHg/3h"
        let width = Font.small.width(of: text) - 1
        var display = MockDisplay(width: width, height: 12)
        StormBanner.draw(change: -4.2, units: .imperial, clock: nil, lit: false, into: &display)
        #expect(display.problems.isEmpty)
        #expect(Self.read(display) == ["STORM -0.12inHg/3h"], "\(Self.read(display))")
    }
}

import Graphics
import GraphicsTesting
import Screens
import Testing

/// What the storm banner's row hides. It takes the top text row of every screen; on the days
/// screen that row is today's forecast, so there the days move down under it instead.
@Suite("The storm banner and the screens under it")
struct StormBannerLayoutTests {
    @Test(arguments: [(128, 64), (128, 32)])
    func todayMovesBelowTheBanner(_ size: (Int, Int)) {
        let (width, height) = size
        var calm = SampleScene.storm.frames[1]
        calm.barograph.alarm = nil
        var plain = MockDisplay(width: width, height: height)
        OLEDScreens.draw(calm, .days, into: &plain)
        var storm = MockDisplay(width: width, height: height)
        OLEDScreens.draw(SampleScene.storm.frames[1], .days, into: &storm)
        #expect(storm.problems.isEmpty, "\(width)x\(height): \(storm.problems.prefix(3))")
        // Today's 16-row line, pixel for pixel, 12 rows lower (the banner's height).
        var differ = 0
        for y in 0..<16 { for x in 0..<width where storm.isLit(x: x, y: y + 12) != plain.isLit(x: x, y: y) { differ += 1 } }
        #expect(differ == 0, "\(width)x\(height): today's row differs in \(differ) pixels under the banner")
        // And something of it is drawn (the label "Today" and the temperatures).
        let lit = (0..<16).reduce(0) { sum, y in sum + (0..<width).filter { plain.isLit(x: $0, y: y) }.count }
        #expect(lit > 100)
    }
}

/// The clock stays in the banner, and the character screens whose top row is content move down.
@Suite("The storm banner keeps the clock")
struct StormBannerClockTests {
    @Test(arguments: Screen.allCases)
    func theClockIsInTheBannerOnEveryPanel(_ screen: Screen) {
        let model = SampleScene.storm.frames[1]  // 14:06, the lit bar
        for (width, height) in [(128, 64), (128, 32)] {
            var display = MockDisplay(width: width, height: height)
            OLEDScreens.draw(model, screen, into: &display)
            #expect(display.problems.isEmpty)
            // The clock's cells at the right end, dark on the lit bar: the same pixels as the
            // header's clock drawn lit on a dark row, inverted.
            var header = MockDisplay(width: width, height: 12)
            let clockWidth = Font.small.width(of: "14:06")
            header.drawText("14:06", font: .small, x: width - clockWidth, y: 0)
            var differ = 0
            for y in 0..<12 { for x in (width - clockWidth)..<width where display.isLit(x: x, y: y) == header.isLit(x: x, y: y) { differ += 1 } }
            #expect(differ == 0, "\(screen) \(width)x\(height): the clock's cells differ in \(differ) pixels")
        }
        for (columns, rows) in [(16, 2), (20, 4)] {
            var frame = CharacterFrame(columns: columns, rows: rows)
            CharacterScreens.render(model, screen, into: &frame)
            let top = ScreenGoldenTests.text(frame).split(separator: "\n")[1]
            #expect(top.contains("STORM \u{2212}4.2") && top.contains("14:06|"), "\(screen) \(columns)x\(rows): \(top)")
        }
    }

    /// Days, hours and status have no header: under the banner their first row is the second.
    @Test(arguments: [Screen.days, .hours, .status])
    func contentRowsMoveDown(_ screen: Screen) {
        var calm = SampleScene.storm.frames[1]
        calm.barograph.alarm = nil
        for (columns, rows) in [(16, 2), (20, 4)] {
            var plain = CharacterFrame(columns: columns, rows: rows)
            CharacterScreens.render(calm, screen, into: &plain)
            var storm = CharacterFrame(columns: columns, rows: rows)
            CharacterScreens.render(SampleScene.storm.frames[1], screen, into: &storm)
            let before = ScreenGoldenTests.text(plain).split(separator: "\n")
            let after = ScreenGoldenTests.text(storm).split(separator: "\n")
            #expect(after[2] == before[1], "\(screen) \(columns)x\(rows): \(after)")
        }
        // The OLED status screen too: its first line under the banner.
        var plain = MockDisplay(width: 128, height: 64)
        OLEDScreens.draw(calm, .status, into: &plain)
        var storm = MockDisplay(width: 128, height: 64)
        OLEDScreens.draw(SampleScene.storm.frames[1], .status, into: &storm)
        var differ = 0
        for y in 0..<12 { for x in 0..<128 where storm.isLit(x: x, y: y + 12) != plain.isLit(x: x, y: y) { differ += 1 } }
        #expect(differ == 0, "the status screen's first line differs in \(differ) pixels under the banner")
    }
}

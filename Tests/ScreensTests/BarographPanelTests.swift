import Graphics
import GraphicsTesting
import HAL
import Screens
import Testing
import Weather

/// The barograph's model from a history with gaps and samples taken moving, the provider's
/// trend alone, and the banner and the arrow on the screens.
@Suite struct BarographPanelTests {
    static let now = WallTime(seconds: 1_779_451_200)

    /// 48 hours at 1010 hPa, samples every 10 minutes, with `skip` left out and `moving` marked.
    static func history(skip: Range<Int> = 0..<0, moving: Range<Int> = 0..<0) -> PressureHistory {
        var history = PressureHistory()
        for step in stride(from: 287, through: 0, by: -1) where !skip.contains(step) {
            history.record(PressureSample(
                time: now - .seconds(Int64(step) * 600), hectopascals: 1010 + Double(step % 4) * 0.1,
                quality: moving.contains(step) ? .moving : .good))
        }
        return history
    }

    @Test func gapsStayGapsAndMovingColumnsAreUnsure() {
        // Steps counted back from now; column c (0 oldest) holds steps 287 − 4c … 284 − 4c.
        let history = Self.history(skip: 40..<60, moving: 100..<104)
        var panel = BarographPanel()
        panel.update(history: history, reading: history.tendency(at: Self.now), pressures: [], now: Self.now)
        #expect(panel.sensorCount == 72 - 5, "20 missing samples are 5 empty columns")
        for column in 0..<72 {
            let first = 287 - 4 * column
            let empty = (40...59).contains(first) && (40...59).contains(first - 3)
            #expect((panel.sensor[column] == BarographPanel.missing) == empty, "column \(column)")
            #expect(panel.sensorUnsure[column] == (column == 46), "column \(column)")
        }
        // Each full column is the mean of 1010.0, .1, .2, .3: 1010.15 → 10102 tenths (rounded half away).
        #expect(panel.sensor[0] == 10_102)
        #expect(panel.providerCount == 0 && panel.providerTrend == nil)
        #expect(panel.current == 1010)
        #expect(panel.sensorTrend?.unsure == false)
    }

    @Test func aMovingSampleInTheLastThreeHoursMakesTheTrendUnsure() {
        let history = Self.history(moving: 5..<6)
        var panel = BarographPanel()
        panel.update(history: history, reading: history.tendency(at: Self.now), pressures: [], now: Self.now)
        #expect(panel.sensorTrend?.unsure == true)
        #expect(PressureText.change(panel.trend!.change, .metric, unsure: true).hasSuffix("/3h?"))
    }

    @Test func theProvidersPointsAloneGiveTheTrend() throws {
        // Rising 0.5 hPa an hour, with a null 20 hours ago and 6-hourly steps after 12 hours.
        var points: [PressurePoint] = []
        for hour in -48...12 {
            points.append(PressurePoint(time: Self.now + .seconds(Int64(hour) * 3600), hectopascals: hour == -20 ? nil : 1000 + 0.5 * Double(hour)))
        }
        points.append(PressurePoint(time: Self.now + .seconds(18 * 3600), hectopascals: 1009))
        var panel = BarographPanel()
        panel.update(history: PressureHistory(), reading: .unknown, pressures: points, now: Self.now)
        let trend = try #require(panel.trend)
        #expect(panel.sensorTrend == nil)
        #expect(abs(trend.change - 1.5) < 1e-9 && trend.characteristic == .increasing)
        #expect(panel.current == 1000)
        // The null 20 h ago: columns 41 and 42 (middles 20 h 20 min and 19 h 40 min ago) need
        // it and are gaps; 40 and 43 (middles 21 h and 19 h ago, on points) are not.
        #expect(panel.provider[41] == BarographPanel.missing && panel.provider[42] == BarographPanel.missing)
        #expect(panel.provider[40] == 9_895 && panel.provider[43] == 9_905)
        // After 12 h the steps are 6 h apart: no line is drawn through them.
        #expect(panel.provider[72 + 18] == BarographPanel.missing)
        #expect(ProviderPressure.hectopascals(at: Self.now + .seconds(15 * 3600), in: points) == nil)
        #expect(ProviderPressure.hectopascals(at: Self.now + .seconds(1800), in: points) == 1000.25)
    }

    @Test(arguments: Screen.allCases)
    func theStormBannerIsOnEveryScreen(_ screen: Screen) {
        let model = SampleScene.storm.frames[1]
        for (width, height) in [(128, 64), (128, 32)] {
            var display = MockDisplay(width: width, height: height)
            OLEDScreens.draw(model, screen, into: &display)
            #expect(display.problems.isEmpty, "\(screen) \(width)x\(height): \(display.problems.prefix(3))")
            // The bar's first and last rows are lit edge to edge (the glyphs' ink is in rows 2–9).
            for x in 0..<width { #expect(display.isLit(x: x, y: 0) && display.isLit(x: x, y: 11), "\(screen) x \(x)") }
        }
        for (columns, rows) in [(16, 2), (20, 4)] {
            var frame = CharacterFrame(columns: columns, rows: rows)
            CharacterScreens.render(model, screen, into: &frame)
            let top = ScreenGoldenTests.text(frame).split(separator: "\n")[1]
            #expect(top.contains("STORM \u{2212}4.2"), "\(screen) \(columns)x\(rows): \(top)")
        }
        // The minute before, the bar is dark with lit text: every pixel of the strip is the
        // opposite, so over an hour of alarm each is lit half the time.
        let next = SampleScene.storm.frames[0]
        for (width, height) in [(128, 64), (128, 32)] {
            var lit = MockDisplay(width: width, height: height)
            var dark = MockDisplay(width: width, height: height)
            OLEDScreens.draw(model, screen, into: &lit)
            OLEDScreens.draw(next, screen, into: &dark)
            #expect(dark.problems.isEmpty, "\(screen) \(width)x\(height): \(dark.problems.prefix(3))")
            // Everywhere but the clock's last digit (14:05, then 14:06).
            let clockX = width - Font.small.width(of: "14:05")
            var opposite = 0
            for y in 0..<12 { for x in 0..<clockX where lit.isLit(x: x, y: y) != dark.isLit(x: x, y: y) { opposite += 1 } }
            #expect(opposite == clockX * 12, "\(screen) \(width)x\(height): \(opposite) of \(clockX * 12)")
        }
        var acknowledged = model
        acknowledged.barograph.alarm = nil
        var display = MockDisplay(width: 128, height: 64)
        OLEDScreens.draw(acknowledged, screen, into: &display)
        #expect((0..<128).contains { !display.isLit(x: $0, y: 0) }, "\(screen): a bar without an alarm")
    }

    @Test func theArrowStandsBesideTheIndoorPressure() {
        let model = SampleScene.indoor.frames[0]
        var frame = CharacterFrame(columns: 20, rows: 4)
        CharacterScreens.render(model, .indoor, into: &frame)
        #expect(frame[9, 2] == .glyph(.falling), "\(ScreenGoldenTests.text(frame))")
        var rising = model
        rising.barograph.sensorTrend = BarographPanel.Trend(PressureTendency(characteristic: .increasing, change: 1.2))
        CharacterScreens.render(rising, .indoor, into: &frame)
        #expect(frame[9, 2] == .glyph(.rising))
        rising.barograph.sensorTrend?.change = 0
        CharacterScreens.render(rising, .indoor, into: &frame)
        #expect(frame[9, 2] == .scalar("\u{2192}"), "steady: ROM A00's own arrow, 0x7E")
        // On the OLED the arrow's 9 pixels follow "1013 hPa" after a space.
        var with = MockDisplay(width: 128, height: 64)
        OLEDScreens.draw(model, .indoor, into: &with)
        var without = MockDisplay(width: 128, height: 64)
        var bare = model
        bare.barograph = .empty
        OLEDScreens.draw(bare, .indoor, into: &without)
        var extra = 0
        for y in 0..<64 { for x in 0..<128 where with.isLit(x: x, y: y) != without.isLit(x: x, y: y) { extra += 1 } }
        #expect(extra == 9)
    }
}

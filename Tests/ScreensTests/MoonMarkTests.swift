import Graphics
import GraphicsTesting
import HAL
import Screens
import Testing
import Weather

/// The Moon on the days screen: the phase of each local day, lit on the side the place sees,
/// drawn as a disc whose picture follows the name.
@Suite("Moon on the days screen")
struct MoonMarkTests {
    /// 29 and 30 March 2026 fall between the first quarter (25 March 19:18 UTC) and the full
    /// moon (2 April 02:12 UTC; both DE421, Tests/WeatherTests/MoonReference.swift).
    @Test func eachDayFromTheReportLitOnTheSideThePlaceSees() throws {
        let now = WeatherPanelTests.at("2026-03-28T23:40:00Z")
        let north = Forecast(report: WeatherPanelTests.report, now: now, zone: WeatherPanelTests.berlin)
        var southern = WeatherPanelTests.report
        southern.latitude = -33.87
        let south = Forecast(report: southern, now: now, zone: WeatherPanelTests.berlin)
        for (n, s) in zip(north.days, south.days) {
            let moon = try #require(n.moon)
            #expect(moon.name == .waxingGibbous && moon.litOnRight)
            #expect(moon.illuminated > 0.7 && moon.illuminated < 1)
            #expect(s.moon == MoonMark(name: moon.name, illuminated: moon.illuminated, litOnRight: false))
        }
    }

    /// A principal phase names the local day that holds its instant: the full moon of
    /// 2 April 2026 02:12 UTC is on the 2nd in Berlin (04:12 CEST) and in New York (1 April
    /// 22:12 EDT is the 1st there).
    @Test func thePrincipalPhaseNamesTheLocalDay() {
        let berlin = ZoneRules.fixed(offsetSeconds: 7_200, identifier: "Europe/Berlin")
        let newYork = ZoneRules.fixed(offsetSeconds: -14_400, identifier: "America/New_York")
        let first = CivilDate(year: 2026, month: 4, day: 1), second = CivilDate(year: 2026, month: 4, day: 2)
        #expect(MoonMark(date: first, zone: berlin, latitude: 52.5).name == .waxingGibbous)
        #expect(MoonMark(date: second, zone: berlin, latitude: 52.5).name == .full)
        #expect(MoonMark(date: first, zone: newYork, latitude: 40.7).name == .full)
        #expect(MoonMark(date: second, zone: newYork, latitude: 40.7).name == .waningGibbous)
    }

    static func art(_ mark: MoonMark) -> [String] {
        var display = MockDisplay(width: 9, height: 9)
        display.drawMoon(mark, x: 0, y: 0, diameter: 9)
        #expect(display.problems.isEmpty)
        return display.art.split(separator: "\n").map(String.init)
    }

    @Test func newIsARingFullIsADiscAQuarterIsHalf() {
        #expect(Self.art(MoonMark(name: .full, illuminated: 1, litOnRight: true)) == [
            "...###...", ".#######.", ".#######.", "#########", "#########", "#########", ".#######.", ".#######.", "...###...",
        ])
        #expect(Self.art(MoonMark(name: .new, illuminated: 0, litOnRight: true)) == [
            "...###...", ".##...##.", ".#.....#.", "#.......#", "#.......#", "#.......#", ".#.....#.", ".##...##.", "...###...",
        ])
        // Half lit whatever the fraction of the day says: the middle row is the rim, three dark
        // pixels, and the lit half from the centre column.
        let quarter = Self.art(MoonMark(name: .firstQuarter, illuminated: 0.46, litOnRight: true))
        #expect(quarter[4] == "#...#####")
    }

    /// South of the equator the same Moon is the mirror image; a crescent keeps a sliver inside
    /// the rim even when almost new, and a gibbous Moon a dark one even when almost full.
    @Test func theOtherHemisphereIsTheMirrorImage() {
        for name in MoonPhase.Name.allCases {
            for illuminated in [0.02, 0.2, 0.5, 0.8, 0.98] {
                let right = Self.art(MoonMark(name: name, illuminated: illuminated, litOnRight: true))
                let left = Self.art(MoonMark(name: name, illuminated: illuminated, litOnRight: false))
                #expect(right.map { String($0.reversed()) } == left, "\(name) \(illuminated)")
                let lit = right.joined().filter { $0 == "#" }.count
                let ring = Self.art(MoonMark(name: .new, illuminated: 0, litOnRight: true)).joined().filter { $0 == "#" }.count
                switch name {
                case .new: #expect(lit == ring)
                case .full: #expect(lit == 61)
                default: #expect(lit > ring && lit < 61, "\(name) \(illuminated): \(lit)")
                }
            }
        }
    }
}

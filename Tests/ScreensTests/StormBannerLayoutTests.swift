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

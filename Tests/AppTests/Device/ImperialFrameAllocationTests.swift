import AllocationCounting
import Graphics
import Screens
import Testing

/// docs/design/architecture.md#the-loop: a frame allocates nothing, in inHg as in hPa. The
/// barograph's inHg value, change and scale labels are `ShortText`s like the metric ones;
/// counted with malloc itself (`countMallocs`), one render at a time on every panel.
/// (The storm scene is left out: its banner frames allocate in metric too, 4 per OLED frame.)
@Suite("Screens: an imperial frame allocates nothing")
struct ImperialFrameAllocationTests {
    @Test(arguments: [SampleScene.barograph, .indoor, .now])
    func framesAllocateNothing(_ scene: SampleScene) {
        let screen = scene.screen
        var model = scene.frames[0]
        model.settings.units = .imperial
        var tall = Framebuffer(width: 128, height: 64)
        var short = Framebuffer(width: 128, height: 32)
        var wide = CharacterFrame(columns: 20, rows: 4)
        var narrow = CharacterFrame(columns: 16, rows: 2)
        let counts = [
            countMallocs { OLEDScreens.render(model, screen, into: &tall) },
            countMallocs { OLEDScreens.render(model, screen, into: &short) },
            countMallocs { CharacterScreens.render(model, screen, into: &wide) },
            countMallocs { CharacterScreens.render(model, screen, into: &narrow) },
        ]
        #expect(counts == [0, 0, 0, 0], "\(scene.rawValue): 128x64, 128x32, 20x4, 16x2 \(counts)")
    }
}

import Drivers
import Graphics
import HAL
import HALSim
import Testing

/// The OLED driver against the data-sheet controller models of `HALSim/Display`: whatever
/// sequence of partial flushes the driver chooses, the glass must show the framebuffer.
@Suite struct OLEDModelTests {
    struct Panel: Sendable, CustomStringConvertible {
        var name: String
        var profile: OLEDProfile
        var model: OLEDControllerModel.Configuration
        var description: String { name }
    }

    static let panels: [Panel] = {
        var sh0 = OLEDProfile.sh1106_128x64
        sh0.columnOffset = 0
        return [
            Panel(name: "SSD1306 128×64", profile: .ssd1306_128x64, model: .ssd1306_128x64),
            Panel(name: "SSD1306 128×32", profile: .ssd1306_128x32, model: .ssd1306_128x32),
            Panel(name: "SH1106 128×64 offset 2", profile: .sh1106_128x64, model: .sh1106_128x64(columnOffset: 2)),
            Panel(name: "SH1106 128×64 offset 0", profile: sh0, model: .sh1106_128x64(columnOffset: 0)),
        ]
    }()

    static let cases: [(Panel, OLEDProfile.Rotation)] = panels.flatMap { p in
        OLEDProfile.Rotation.allCases.map { (p, $0) }
    }

    /// What the glass must show for `frame`: the framebuffer, turned by 180° when upside down.
    static func expected(_ frame: Framebuffer, _ rotation: OLEDProfile.Rotation, inverted: Bool = false) -> PanelImage {
        PanelImage(width: frame.width, height: frame.height) { x, y in
            let lit = rotation == .normal ? frame[x, y] : frame[frame.width - 1 - x, frame.height - 1 - y]
            return lit != inverted
        }
    }

    static func check(_ model: OLEDControllerModel, _ frame: Framebuffer, _ rotation: OLEDProfile.Rotation, _ note: String,
                      inverted: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        let want = expected(frame, rotation, inverted: inverted)
        let got = model.image
        if got != want {
            Issue.record(Comment(rawValue: "\(note): \(got.differingPixels(from: want)) pixels differ\n"
                + PanelImage.differenceArt(expected: want, actual: got)), sourceLocation: sourceLocation)
        }
        #expect(model.errors.isEmpty, "\(note): \(model.errors.prefix(3))", sourceLocation: sourceLocation)
    }

    /// A random change: a block of random bytes, a few pixels, a glyph-sized rectangle, a
    /// whole row of pages, or nothing.
    static func mutate(_ frame: inout Framebuffer, _ rng: inout SplitMix64) {
        let width = frame.width
        let height = frame.height
        switch rng.next() % 5 {
        case 0:
            let x = Int(rng.next() % UInt64(width)), w = 1 + Int(rng.next() % 24)
            let y = Int(rng.next() % UInt64(height)), h = 1 + Int(rng.next() % 20)
            for yy in y..<min(height, y + h) {
                for xx in x..<min(width, x + w) { frame[xx, yy] = rng.next() & 1 == 0 }
            }
        case 1:
            for _ in 0..<(1 + rng.next() % 12) {
                frame[Int(rng.next() % UInt64(width)), Int(rng.next() % UInt64(height))].toggle()
            }
        case 2:
            let x = Int(rng.next() % UInt64(width - 8)), y = Int(rng.next() % UInt64(height - 16))
            frame.drawText(String(rng.next() % 100), font: rng.next() & 1 == 0 ? .medium : .small, x: x, y: y)
        case 3:
            let page = Int(rng.next() % UInt64(frame.pages))
            fill(&frame, columns: 0...width - 1, pages: page...page, UInt8(truncatingIfNeeded: rng.next()))
        default:
            break
        }
    }

    @Test(arguments: cases)
    func testOLEDModel_RandomPartialFlushes_GlassEqualsFramebuffer(panel: Panel, rotation: OLEDProfile.Rotation) throws {
        var profile = panel.profile
        profile.rotation = rotation
        let bus = SimulatedI2CBus()
        bus.isLogging = false
        let model = OLEDControllerModel(panel.model)
        bus.attach(model, at: 0x3C)
        var display = OLEDDisplay(bus: bus, profile: profile)
        var rng = SplitMix64(seed: 0xD15B1A7 ^ UInt64(profile.height) ^ UInt64(rotation.rawValue))
        var frame = randomFrame(profile, &rng)
        _ = try display.flush(frame)
        Self.check(model, frame, rotation, "\(panel) first frame")
        var windows = 0
        for step in 0..<60 {
            for _ in 0..<(1 + rng.next() % 3) { Self.mutate(&frame, &rng) }
            let report = try display.flush(frame)
            windows += report.windows
            Self.check(model, frame, rotation, "\(panel) \(rotation) step \(step)")
        }
        #expect(windows > 60, "partial flushes happened")
    }

    @Test(arguments: panels)
    func testOLEDModel_RotationChange_RedrawsTheTurnedImage(panel: Panel) throws {
        let bus = SimulatedI2CBus()
        let model = OLEDControllerModel(panel.model)
        bus.attach(model, at: 0x3C)
        var display = OLEDDisplay(bus: bus, profile: panel.profile)
        var rng = SplitMix64(seed: 42)
        let frame = randomFrame(panel.profile, &rng)
        _ = try display.flush(frame)
        try display.setRotation(.upsideDown)
        _ = try display.flush(frame)
        Self.check(model, frame, .upsideDown, "\(panel) turned")
        try display.setRotation(.normal)
        _ = try display.flush(frame)
        Self.check(model, frame, .normal, "\(panel) back")
    }

    @Test(arguments: panels)
    func testOLEDModel_InvertSleepWakeDim_ShowWhatTheyPromise(panel: Panel) throws {
        let bus = SimulatedI2CBus()
        let model = OLEDControllerModel(panel.model)
        bus.attach(model, at: 0x3C)
        var display = OLEDDisplay(bus: bus, profile: panel.profile)
        var rng = SplitMix64(seed: 9)
        let frame = randomFrame(panel.profile, &rng)
        _ = try display.flush(frame)
        try display.setInverted(true)
        Self.check(model, frame, .normal, "\(panel) inverted", inverted: true)
        try display.setInverted(false)
        try display.setBrightness(.dim)
        #expect(model.registers.contrast == panel.profile.dim.contrast)
        try display.sleep()
        #expect(model.image.litCount == 0)
        try display.wake()
        Self.check(model, frame, .normal, "\(panel) awake")
    }

    @Test(arguments: panels)
    func testOLEDModel_PowerLossAndNack_RecoveryEndsWithTheFramebuffer(panel: Panel) throws {
        let bus = SimulatedI2CBus()
        let model = OLEDControllerModel(panel.model)
        bus.attach(model, at: 0x3C)
        var display = OLEDDisplay(bus: bus, profile: panel.profile)
        var rng = SplitMix64(seed: 77)
        var frame = randomFrame(panel.profile, &rng)
        _ = try display.flush(frame)
        // The module loses power: NACKs until it is back, then comes back with random RAM.
        bus.detach(0x3C)
        Self.mutate(&frame, &rng)
        fill(&frame, columns: 3...9, pages: 1...1, 0x5A)
        #expect(caught(I2CError.self) { _ = try display.flush(frame) }?.kind == .noAcknowledge(.address))
        bus.reattach(0x3C)
        let report = try display.flush(frame)
        #expect(report.reinitialised && report.fullFrame)
        Self.check(model, frame, .normal, "\(panel) after power loss")
        // A fault in the middle of a flush (nothing reset): the next flush still ends right.
        fill(&frame, columns: 60...90, pages: 0...1, 0xC3)
        bus.injectFault(.noAcknowledge(.data), at: 0x3C, count: 1)
        #expect(caught(I2CError.self) { _ = try display.flush(frame) } != nil)
        _ = try display.flush(frame)
        Self.check(model, frame, .normal, "\(panel) after a data NACK")
        for _ in 0..<10 {
            Self.mutate(&frame, &rng)
            _ = try display.flush(frame)
        }
        Self.check(model, frame, .normal, "\(panel) later")
    }

    // Negative controls: the model catches a driver set up for the wrong module.

    @Test func testOLEDModel_WrongColumnOffset_IsSeenOnTheGlass() throws {
        let bus = SimulatedI2CBus()
        let model = OLEDControllerModel(.sh1106_128x64(columnOffset: 0))
        bus.attach(model, at: 0x3C)
        var display = OLEDDisplay(bus: bus, profile: .sh1106_128x64)  // offset 2
        var rng = SplitMix64(seed: 3)
        let frame = randomFrame(.sh1106_128x64, &rng)
        _ = try display.flush(frame)
        #expect(model.image.differingPixels(from: OLEDModelTests.expected(frame, .normal)) > 100)
    }

    @Test func testOLEDModel_SSD1306DriverOnAnSH1106_IsSeen() throws {
        let bus = SimulatedI2CBus()
        let model = OLEDControllerModel(.sh1106_128x64())
        bus.attach(model, at: 0x3C)
        var display = OLEDDisplay(bus: bus, profile: .ssd1306_128x64)
        var rng = SplitMix64(seed: 4)
        let frame = randomFrame(.ssd1306_128x64, &rng)
        _ = try display.flush(frame)
        #expect(model.image != OLEDModelTests.expected(frame, .normal))
    }
}

import Drivers
import Graphics
import HAL
import Testing

/// Failures, brightness, sleep, inversion and rotation.
@Suite struct OLEDRecoveryTests {
    static let nack = I2CError.Kind.noAcknowledge(.address)

    @Test func testSSD1306_NackDuringFlush_NextFlushReinitialisesAndSendsTheFullFrame() throws {
        var (bus, display) = try OLEDFlushTests.started(.ssd1306_128x64)
        var image = Framebuffer(width: 128, height: 64)
        fill(&image, columns: 10...13, pages: 6...7, 0x99)
        bus.expect([.write(0x3C, bytes("00 21 0A 0D 22 06 07")).failing(Self.nack)])
        let error = caught(I2CError.self) { _ = try display.flush(image) }
        #expect(error?.kind == Self.nack)
        #expect(display.needsInitialisation)
        bus.finish()
        // The panel may have lost power: init, clear, the whole frame, then display on.
        let start = OLEDInitTests.ssd1306Start(OLEDInitTests.ssd1306_128x64)
        bus.expect(0x3C, Array(start.dropLast()) + [bytes("00 21 00 7F 22 00 07"), [0x40] + image.bytes, [0x00, 0xAF]])
        let report = try display.flush(image)
        bus.finish()
        #expect(report.reinitialised && report.fullFrame)
        #expect(!display.needsInitialisation)
        #expect(try display.flush(image) == .empty)
    }

    @Test func testSSD1306_NackOnTheDataTransaction_AlsoDistrustsTheShadow() throws {
        var (bus, display) = try OLEDFlushTests.started(.ssd1306_128x64)
        var image = Framebuffer(width: 128, height: 64)
        fill(&image, columns: 0...0, pages: 0...0, 0x01)
        bus.expect([.write(0x3C, bytes("00 21 00 00 22 00 00")), .write(0x3C, bytes("40 01")).failing(.timeout)])
        #expect(caught(I2CError.self) { _ = try display.flush(image) }?.kind == .timeout)
        bus.finish()
        // A failing initialisation leaves it pending.
        bus.expect([.write(0x3C, [0x00] + bytes(OLEDInitTests.ssd1306_128x64) + bytes("21 00 7F 22 00 07")).failing(Self.nack)])
        #expect(caught(I2CError.self) { _ = try display.flush(image) } != nil)
        bus.finish()
        #expect(display.needsInitialisation)
    }

    @Test func testSH1106_NackThenRecovery_RewritesEveryPage() throws {
        var (bus, display) = try OLEDFlushTests.started(.sh1106_128x64)
        var image = Framebuffer(width: 128, height: 64)
        fill(&image, columns: 5...6, pages: 1...1, 0x44)
        bus.expect([.write(0x3C, bytes("80 B1 80 07 80 10 40 44 44")).failing(.bus)])
        #expect(caught(I2CError.self) { _ = try display.flush(image) }?.kind == .bus)
        bus.finish()
        var expected = Array(OLEDInitTests.sh1106Start(OLEDInitTests.sh1106_128x64).dropLast())
        for page in 0..<8 {
            expected.append([0x80, 0xB0 + UInt8(page), 0x80, 0x02, 0x80, 0x10, 0x40] + windowBytes(image, columns: 0...127, pages: page...page))
        }
        bus.expect(0x3C, expected + [[0x00, 0xAF]])
        _ = try display.flush(image)
        bus.finish()
    }

    @Test func testOLED_DimAndNormal_SendContrastAndPrecharge() throws {
        var (bus, display) = try OLEDFlushTests.started(.ssd1306_128x64)
        bus.expect(0x3C, [bytes("00 81 01 D9 11"), bytes("00 81 CF D9 F1"), bytes("00 81 40")])
        try display.setBrightness(.dim)
        #expect(display.level == OLEDProfile.Level(contrast: 0x01, precharge: 0x11))
        try display.setBrightness(.normal)
        let report = try display.setContrast(0x40)
        #expect(report.transactions == 1 && report.payloadBytes == 3)
        #expect(display.level.contrast == 0x40)
        bus.finish()
    }

    @Test func testOLED_SleepWakeInvert_SendOneCommandEach() throws {
        var (bus, display) = try OLEDFlushTests.started(.sh1106_128x64)
        bus.expect(0x3C, [bytes("00 AE"), bytes("00 AF"), bytes("00 A7"), bytes("00 A6")])
        try display.sleep()
        #expect(display.isAsleep)
        try display.wake()
        try display.setInverted(true)
        try display.setInverted(false)
        bus.finish()
    }

    @Test func testOLED_DimWhileUnreachable_IsAppliedByTheReinitialisation() throws {
        var (bus, display) = try OLEDFlushTests.started(.ssd1306_128x64)
        bus.expect([.write(0x3C, bytes("00 81 01 D9 11")).failing(Self.nack)])
        #expect(caught(I2CError.self) { try display.setBrightness(.dim) } != nil)
        // Further settings while the panel needs initialising send nothing.
        #expect(try display.sleep() == .empty)
        bus.finish()
        let dimmed = "AE D5 80 A8 3F D3 00 40 8D 14 20 00 A1 C8 DA 12 81 01 D9 11 DB 40 A4 A6 2E"
        let image = Framebuffer(width: 128, height: 64)
        let start = OLEDInitTests.ssd1306Start(dimmed)
        // Asleep: no AF after the frame.
        bus.expect(0x3C, Array(start.dropLast()) + [bytes("00 21 00 7F 22 00 07"), [0x40] + image.bytes])
        _ = try display.flush(image)
        bus.finish()
    }

    @Test func testSSD1306_Rotation_SendsRemapAndScanThenRedrawsEverything() throws {
        var (bus, display) = try OLEDFlushTests.started(.ssd1306_128x64)
        var image = Framebuffer(width: 128, height: 64)
        fill(&image, columns: 0...7, pages: 0...0, 0xFF)
        bus.expect(0x3C, [bytes("00 21 00 07 22 00 00"), [0x40] + Array(repeating: 0xFF, count: 8)])
        _ = try display.flush(image)
        bus.finish()
        bus.expect(0x3C, [bytes("00 A0 C0"), bytes("00 21 00 7F 22 00 07"), [0x40] + image.bytes])
        try display.setRotation(.upsideDown)
        #expect(try display.flush(image).fullFrame)
        bus.finish()
        // The same rotation again: commands, but no redraw.
        bus.expect(0x3C, [bytes("00 A0 C0")])
        try display.setRotation(.upsideDown)
        #expect(try display.flush(image) == .empty)
        bus.finish()
    }

    @Test func testSH1106_RotationOnAnOffsetZeroBoard_MirrorsTheOffset() throws {
        var profile = OLEDProfile.sh1106_128x64
        profile.columnOffset = 0
        var (bus, display) = try OLEDFlushTests.started(profile)
        let image = Framebuffer(width: 128, height: 64)
        var expected = [bytes("00 A0 C0")]
        for page in 0..<8 {
            expected.append([0x80, 0xB0 + UInt8(page), 0x80, 0x04, 0x80, 0x10, 0x40] + Array(repeating: 0, count: 128))
        }
        bus.expect(0x3C, expected)
        try display.setRotation(.upsideDown)
        _ = try display.flush(image)
        bus.finish()
    }

    @Test func testScriptedBus_Mismatch_AndLeftovers_AreReportedReadably() throws {
        let bus = ScriptedI2CBus([.write(0x3C, bytes("00 AE D5 80")), .write(0x3C, bytes("00 AF"))])
        var handle = bus
        try handle.write(address: 0x3C, bytes("00 AE D5 81"))
        let problems = bus.problems
        #expect(problems.count == 2)
        #expect(problems[0].contains("first difference at payload byte 3 (expected 80, got 81)"))
        #expect(problems[0].contains("expected 3C: 00 AE D5 80") && problems[0].contains("actual   3C: 00 AE D5 81"))
        #expect(problems[1].contains("1 expected transaction(s) not sent") && problems[1].contains("3C: 00 AF"))
        try handle.write(address: 0x3C, bytes("00 AF"))
        #expect(bus.problems.count == 1)
        try handle.write(address: 0x3D, bytes("00"))
        #expect(bus.problems.last?.contains("unexpected 3D: 00") == true)
        _ = bus.problems
    }
}

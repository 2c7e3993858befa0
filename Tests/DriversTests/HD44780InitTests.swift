import Drivers
import Graphics
import HAL
import Testing

/// The 4-bit initialisation of HD44780U Figure 24, its scheduled waits, and recovery.
@Suite struct HD44780InitTests {
    static let t0 = Instant(nanoseconds: 1_000_000_000)

    /// Wire time of one transaction of `n` port states at 100 kHz.
    static func wire(_ n: Int) -> Duration { .microseconds(10 * (2 + 9 * (1 + n))) }

    @Test func testHD44780Init_Steps_AreScheduledNotSlept() throws {
        let bus = ScriptedI2CBus()
        var lcd = HD44780Display(bus: bus, pins: .ywrobot, geometry: .lcd16x2)
        // Power-up: E low, backlight on; then wait > 40 ms.
        bus.expect(0x27, [[0x08]])
        let until1 = Self.t0 + Self.wire(1) + .milliseconds(50)
        #expect(try lcd.start(now: Self.t0) == .busy(until: until1))
        // Called early: nothing is sent, the same instant comes back.
        #expect(try lcd.start(now: Self.t0 + .milliseconds(10)) == .busy(until: until1))
        bus.finish()
        // First 0x3 (8-bit function set), then > 4.1 ms.
        bus.expect(0x27, [[0x3C, 0x38]])
        let until2 = until1 + Self.wire(2) + .microseconds(4_500)
        #expect(try lcd.start(now: until1) == .busy(until: until2))
        // Second 0x3, then > 100 µs.
        bus.expect(0x27, [[0x3C, 0x38]])
        let until3 = until2 + Self.wire(2) + .microseconds(150)
        #expect(try lcd.start(now: until2) == .busy(until: until3))
        bus.finish()
        // Third 0x3, 0x2 (now 4-bit), 0x28, 0x08, 0x01 (clear), then ≥ 1.52 ms.
        let step4 = bytes("3C 38 2C 28 2C 28 8C 88 0C 08 8C 88 0C 08 1C 18")
        bus.expect(0x27, [step4])
        let until4 = until3 + Self.wire(step4.count) + .milliseconds(2)
        #expect(try lcd.start(now: until3) == .busy(until: until4))
        #expect(!lcd.isReady)
        bus.finish()
        // 0x06 (increment), 0x0C (display on): ready.
        bus.expect(0x27, [bytes("0C 08 6C 68 0C 08 CC C8")])
        guard case .done(let report) = try lcd.start(now: until4) else {
            Issue.record("not done")
            return
        }
        bus.finish()
        #expect(lcd.isReady)
        #expect(report.reinitialised && report.transactions == 5)
        #expect(report.payloadBytes == 1 + 2 + 2 + 16 + 8)
        // The waits hold: > 40 ms, > 4.1 ms, > 100 µs, ≥ 1.52 ms after each step's last byte.
        #expect(until1 - Self.t0 > .milliseconds(40))
        #expect(until2 - until1 > .microseconds(4_100))
        #expect(until3 - until2 > .microseconds(100))
        #expect(until4 - until3 >= .microseconds(1_520) + Self.wire(step4.count))
    }

    @Test func testHD44780Init_DecodedByAnLCD_ResynchronisesAndShowsTheFrame() throws {
        var harness = LCDHarness(geometry: .lcd20x4)
        let frame = characterFrame(.lcd20x4, ["Hamilton", "23°C  rain", "Wind 12 km/h", "14:05"])
        try harness.show(frame)
        #expect(harness.waits.count == 4)
        #expect(harness.decoder.fourBit)
        #expect(Array(harness.decoder.instructions.prefix(8)) == [0x30, 0x30, 0x30, 0x20, 0x28, 0x08, 0x01, 0x06])
        #expect(harness.text(0) == "Hamilton            ")
        #expect(harness.text(3) == "14:05               ")
        #expect(harness.decoder.timingErrors.isEmpty)
    }

    @Test func testHD44780Init_OneLineDisplay_UsesFunctionSet20() throws {
        let geometry = try #require(CharacterLCDGeometry(columns: 16, rows: 1))
        var harness = LCDHarness(geometry: geometry)
        try harness.show(characterFrame(geometry, ["x"]))
        #expect(harness.decoder.instructions.contains(0x20) && !harness.decoder.instructions.contains(0x28))
        #expect(CharacterLCDGeometry(columns: 24, rows: 4) == nil)
        #expect(CharacterLCDGeometry.lcd20x4.rowAddress(2) == 0x14 && CharacterLCDGeometry.lcd20x4.rowAddress(3) == 0x54)
        #expect(CharacterLCDGeometry.lcd16x4.rowAddress(2) == 0x10 && CharacterLCDGeometry.lcd16x2.rowAddress(1) == 0x40)
    }

    @Test func testHD44780Recovery_FailedFlush_ReinitialisesAndRewritesEveryCell() throws {
        var harness = LCDHarness()
        let frame = characterFrame(.lcd16x2, ["Hamilton 23°C", "14:05"])
        try harness.show(frame)
        harness.bus.failures = [.noAcknowledge(.address)]
        var next = frame
        next[4, 1] = .scalar("6")
        #expect(caught(I2CError.self) { _ = try harness.lcd.flush(next, now: harness.now) }?.kind == .noAcknowledge(.address))
        #expect(!harness.lcd.isReady)
        // The panel lost power: its DDRAM is random; the decoder starts from scratch too.
        harness.decoder = LCDDecoder(pins: .ywrobot)
        harness.decoder.ddram = Array(repeating: 0xFF, count: 128)
        let waitsBefore = harness.waits.count
        let report = try harness.show(next)
        #expect(harness.waits.count == waitsBefore + 4, "the whole initialisation again")
        #expect(report.reinitialised && report.fullFrame)
        #expect(harness.decoder.instructions.contains(0x01))
        // Every cell written, the blanks included, and the degree glyph loaded again.
        #expect(harness.decoder.dataCount == 32 + 8)
        #expect(harness.text(1) == "14:06           ")
        #expect(harness.decoder.timingErrors.isEmpty)
    }

    @Test func testHD44780Recovery_FailureDuringInitialisation_StartsOver() throws {
        var harness = LCDHarness()
        _ = try harness.lcd.start(now: harness.now)
        harness.bus.failures = [.timeout]
        harness.now = harness.now + .milliseconds(60)
        #expect(caught(I2CError.self) { _ = try harness.lcd.start(now: harness.now) }?.kind == .timeout)
        _ = harness.bus.take()
        // Starts again from the power-up state.
        #expect(try harness.lcd.start(now: harness.now) == .busy(until: harness.now + HD44780InitTests.wire(1) + .milliseconds(50)))
        #expect(harness.bus.take() == [[0x08]])
    }
}

import Drivers
import Graphics
import HAL
import Testing

/// Port states per pin map, spacers at 400 kHz, the backlight.
@Suite struct HD44780PortTests {
    struct MapCase: Sendable, CustomStringConvertible {
        var name: String
        var pins: HD44780PinMap
        /// `[d|E] [d]` of nibble 0x4 as data, of nibble 0x1 as data, of nibble 0x8 as an
        /// instruction, backlight on; then the backlight-off port of nibble 0 as an instruction.
        var data4: [UInt8]
        var data1: [UInt8]
        var instruction8: [UInt8]
        var backlightOff: UInt8
        var description: String { name }
    }

    static let maps = [
        MapCase(name: "ywrobot", pins: .ywrobot, data4: [0x4D, 0x49], data1: [0x1D, 0x19], instruction8: [0x8C, 0x88], backlightOff: 0x00),
        MapCase(name: "lcm1602", pins: .lcm1602, data4: [0x45, 0x41], data1: [0x15, 0x11], instruction8: [0x84, 0x80], backlightOff: 0x08),
        MapCase(name: "mjkdz", pins: .mjkdz, data4: [0x54, 0x44], data1: [0x51, 0x41], instruction8: [0x18, 0x08], backlightOff: 0x80),
    ]

    @Test(arguments: maps)
    func testHD44780Nibbles_PinMaps_PutEachLineOnItsBit(map: MapCase) {
        let p = map.pins
        #expect([p.port(nibble: 4, registerSelect: true, enable: true, backlight: true),
                 p.port(nibble: 4, registerSelect: true, enable: false, backlight: true)] == map.data4)
        #expect([p.port(nibble: 1, registerSelect: true, enable: true, backlight: true),
                 p.port(nibble: 1, registerSelect: true, enable: false, backlight: true)] == map.data1)
        #expect([p.port(nibble: 8, registerSelect: false, enable: true, backlight: true),
                 p.port(nibble: 8, registerSelect: false, enable: false, backlight: true)] == map.instruction8)
        #expect(p.port(nibble: 0, registerSelect: false, enable: false, backlight: false) == map.backlightOff)
    }

    /// "A" at the first cell after the initialisation: `0x80` (address 0), an RS set-up state,
    /// then `'A'` = 0x41 — the exact transaction for each backpack.
    @Test(arguments: maps)
    func testHD44780Nibbles_FirstCharacter_IsOneTransactionPerMap(map: MapCase) throws {
        var harness = LCDHarness(pins: map.pins)
        try harness.show(characterFrame(.lcd16x2, []))
        let frame = characterFrame(.lcd16x2, ["A"])
        _ = try harness.lcd.flush(frame, now: harness.now)
        let p = map.pins
        func pair(_ n: UInt8, _ rs: Bool) -> [UInt8] {
            [p.port(nibble: n, registerSelect: rs, enable: true, backlight: true),
             p.port(nibble: n, registerSelect: rs, enable: false, backlight: true)]
        }
        let setUp = p.port(nibble: 4, registerSelect: true, enable: false, backlight: true)
        let expected = map.instruction8 + pair(0, false) + [setUp] + map.data4 + map.data1
        #expect(harness.bus.take() == [expected])
        #expect(expected == pair(8, false) + pair(0, false) + [setUp] + pair(4, true) + pair(1, true))
    }

    @Test func testHD44780Nibbles_ParallelMapsAreRefused() {
        #expect(HD44780PinMap(registerSelect: 0, readWrite: 1, enable: 2, backlight: 3, backlightActiveHigh: true, firstDataBit: 4) == .ywrobot)
        #expect(HD44780PinMap(registerSelect: 4, readWrite: 5, enable: 6, backlight: 7, backlightActiveHigh: false, firstDataBit: 0) != nil)
        #expect(HD44780PinMap(registerSelect: 0, readWrite: 1, enable: 2, backlight: 3, backlightActiveHigh: true, firstDataBit: 3) == nil)
        #expect(HD44780PinMap(registerSelect: 0, readWrite: 0, enable: 2, backlight: nil, backlightActiveHigh: true, firstDataBit: 4) == nil)
        #expect(HD44780PinMap(registerSelect: 8, readWrite: 1, enable: 2, backlight: nil, backlightActiveHigh: true, firstDataBit: 4) == nil)
    }

    @Test func testHD44780Spacers_At400kHz_KeepThe37And41MicrosecondWaits() throws {
        let timing = HD44780Timing(busClockHz: 400_000)
        var harness = LCDHarness(timing: timing)
        try harness.show(characterFrame(.lcd16x2, []))
        _ = try harness.lcd.flush(characterFrame(.lcd16x2, ["AB"]), now: harness.now)
        // A state lasts 22.5 µs: after 'A' (41 µs) one spacer, after 0x80 the RS set-up state
        // is already enough (45 µs ≥ 37 µs).
        #expect(harness.bus.take() == [bytes("8C 88 0C 08 49 4D 49 1D 19 19 4D 49 2D 29")])
        // The whole initialisation and a full screen keep every wait.
        var fresh = LCDHarness(timing: timing)
        try fresh.show(characterFrame(.lcd16x2, ["Temperature 23°C", "Wind 12 km/h NNE"]))
        #expect(fresh.decoder.timingErrors.isEmpty, "\(fresh.decoder.timingErrors)")
        #expect(fresh.text(1) == "Wind 12 km/h NNE")
    }

    @Test func testHD44780Spacers_At100kHz_AreNotNeeded() throws {
        var harness = LCDHarness()
        try harness.show(characterFrame(.lcd16x2, ["Temperature 23°C", "Wind 12 km/h NNE"]))
        #expect(harness.decoder.timingErrors.isEmpty, "\(harness.decoder.timingErrors)")
        _ = try harness.lcd.flush(characterFrame(.lcd16x2, ["AB"]), now: harness.now)
        let states = harness.bus.take().flatMap { $0 }
        #expect(!states.isEmpty)
        // Four states per byte plus RS set-ups; never the same state twice in a row but for those.
        var decoder = LCDDecoder(pins: .ywrobot)
        decoder.feed(states)
        #expect(decoder.timingErrors.isEmpty)
    }

    @Test func testHD44780Backlight_IsOneStateWithELow() throws {
        var harness = LCDHarness()
        // Before anything was sent, the setting waits for the initialisation.
        #expect(try harness.lcd.setBacklight(false) == .empty)
        try harness.lcd.setBacklight(true)
        try harness.show(characterFrame(.lcd16x2, []))
        try harness.lcd.setBacklight(false)
        try harness.lcd.setBacklight(true)
        #expect(harness.bus.take() == [[0xC0], [0xC8]])  // after 0x0C: low nibble C on D7–D4
        var lcm = LCDHarness(pins: .lcm1602)
        try lcm.show(characterFrame(.lcd16x2, []))
        try lcm.lcd.setBacklight(false)
        #expect(lcm.bus.take() == [[0xC8]])
        // Switched off, the next writes keep it off.
        _ = try lcm.lcd.flush(characterFrame(.lcd16x2, ["A"]), now: lcm.now)
        #expect(lcm.bus.take().flatMap { $0 }.allSatisfy { $0 & 0x08 != 0 })
    }
}

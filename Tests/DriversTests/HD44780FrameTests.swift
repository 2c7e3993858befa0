import AllocationCounting
import Drivers
import Graphics
import HAL
import Testing

/// Steady state: only changed cells, DDRAM runs, CGRAM slots, the character ROM.
@Suite struct HD44780FrameTests {
    @Test func testHD44780Frame_MinuteTick_WritesOneCell() throws {
        var harness = LCDHarness()
        try harness.show(characterFrame(.lcd16x2, ["Hamilton", "           14:05"]))
        let report = try harness.show(characterFrame(.lcd16x2, ["Hamilton", "           14:06"]))
        // RS set-up, 0x80 | 0x4F, RS set-up, '6'.
        #expect(harness.bus.transactions.isEmpty)
        #expect(report.transactions == 1 && report.payloadBytes == 10 && report.dataBytes == 1 && report.windows == 1)
        #expect(harness.decoder.bytes.suffix(2).map(\.byte) == [0xCF, 0x36])
        #expect(harness.text(1) == "           14:06")
        // Nothing changed: nothing sent, clear never sent after the initialisation.
        #expect(try harness.show(characterFrame(.lcd16x2, ["Hamilton", "           14:06"])) == .empty)
        #expect(harness.decoder.instructions.filter { $0 == 0x01 }.count == 1)
    }

    @Test func testHD44780Frame_MinuteTick_ExactPortStates() throws {
        var harness = LCDHarness()
        try harness.show(characterFrame(.lcd16x2, ["", "           14:05"]))
        _ = try harness.lcd.flush(characterFrame(.lcd16x2, ["", "           14:06"]), now: harness.now)
        #expect(harness.bus.take() == [bytes("C8 CC C8 FC F8 39 3D 39 6D 69")])
    }

    @Test func testHD44780Frame_Runs_SetTheAddressOnlyWhereARunDoesNotContinue() throws {
        var harness = LCDHarness()
        try harness.show(characterFrame(.lcd16x2, ["abcdefgh"]))
        let before = harness.decoder.bytes.count
        // Cells 2 and 4 change, 3 does not: rewriting 'd' (4 states) is cheaper than an
        // address (6 states).
        try harness.show(characterFrame(.lcd16x2, ["abXdYfgh"]))
        #expect(harness.decoder.bytes[before...].map(\.byte) == [0x82, 0x58, 0x64, 0x59])
        // Cells 0 and 7: two runs.
        let second = harness.decoder.bytes.count
        try harness.show(characterFrame(.lcd16x2, ["ZbXdYfgW"]))
        #expect(harness.decoder.bytes[second...].map(\.byte) == [0x80, 0x5A, 0x87, 0x57])
        #expect(harness.text(0) == "ZbXdYfgW        ")
    }

    @Test func testHD44780Frame_20x4_Row0RunsOnIntoRow2WithoutAnAddress() throws {
        var harness = LCDHarness(geometry: .lcd20x4)
        try harness.show(characterFrame(.lcd20x4, []))
        let before = harness.decoder.bytes.count
        var frame = characterFrame(.lcd20x4, [])
        frame[19, 0] = .scalar("A")
        frame[0, 2] = .scalar("B")
        let report = try harness.show(frame)
        #expect(harness.decoder.bytes[before...].map(\.byte) == [0x80 | 0x13, 0x41, 0x42])
        #expect(report.windows == 1)
        #expect(harness.text(2).hasPrefix("B"))
    }

    @Test func testHD44780Frame_Glyphs_GoToCGRAMSlotsAndAreReused() throws {
        var harness = LCDHarness()
        var frame = characterFrame(.lcd16x2, ["   23°C"])
        frame[0, 0] = .glyph(.sun)
        let report = try harness.show(frame)
        // Slots 0 (sun) and 1 (degree, after pictures) in one CGRAM run, then a DDRAM address.
        let cgramRuns = harness.decoder.instructions.filter { $0 & 0xC0 == 0x40 }
        #expect(cgramRuns == [0x40])
        #expect(Array(harness.decoder.cgram[0..<8]) == rowsOf(.sun) && Array(harness.decoder.cgram[8..<16]) == rowsOf(.degree))
        #expect(harness.decoder.row(0, .lcd16x2).prefix(7) == [0x00, 0x20, 0x20, 0x32, 0x33, 0x01, 0x43])
        #expect(report.dataBytes == 16 + 5)
        // Same glyphs elsewhere: no CGRAM write.
        var moved = characterFrame(.lcd16x2, ["", "  24°C"])
        moved[15, 1] = .glyph(.sun)
        let before = harness.decoder.bytes.count
        _ = try harness.show(moved)
        #expect(!harness.decoder.bytes[before...].contains { !$0.rs && $0.byte & 0xC0 == 0x40 })
        #expect(harness.decoder.row(1, .lcd16x2)[15] == 0x00 && harness.decoder.row(1, .lcd16x2)[4] == 0x01)
        // A new glyph goes to a slot never used (the sun stays cached in slot 0).
        var rain = moved
        rain[15, 1] = .glyph(.rain)
        let third = harness.decoder.bytes.count
        _ = try harness.show(rain)
        #expect(harness.decoder.bytes[third...].map(\.byte) == [0x50] + rowsOf(.rain) + [0x80 | 0x4F, 0x02])
    }

    @Test func testHD44780Frame_SlotRewritten_CellsShowingItAreWrittenAgain() throws {
        var harness = LCDHarness()
        let eight: [CellGlyph] = [.sun, .moon, .cloud, .fog, .drizzle, .rain, .snow, .thunder]
        var frame = characterFrame(.lcd16x2, [])
        for (i, glyph) in eight.enumerated() { frame[i, 0] = .glyph(glyph) }
        try harness.show(frame)
        #expect(Array(harness.decoder.row(0, .lcd16x2).prefix(8)) == [0, 1, 2, 3, 4, 5, 6, 7])
        // Wind replaces the sun: the only free slot is 0; the cell keeps code 0 but its
        // picture changed, so it is written again.
        frame[0, 0] = .glyph(.wind)
        let before = harness.decoder.bytes.count
        let report = try harness.show(frame)
        #expect(harness.decoder.bytes[before...].map(\.byte) == [0x40] + rowsOf(.wind) + [0x80, 0x00])
        #expect(report.dataBytes == 9)
        #expect(Array(harness.decoder.cgram[0..<8]) == rowsOf(.wind))
    }

    @Test func testHD44780Frame_MoreThanEightGlyphs_DegreeFallsBackToROM() throws {
        var harness = LCDHarness()
        var frame = characterFrame(.lcd16x2, ["", "9 pictures 5°"])
        let pictures: [CellGlyph] = [.sun, .moon, .cloud, .fog, .drizzle, .rain, .snow, .thunder, .wind]
        for (i, glyph) in pictures.enumerated() { frame[i, 0] = .glyph(glyph) }
        try harness.show(frame)
        let row0 = harness.decoder.row(0, .lcd16x2)
        #expect(Array(row0.prefix(9)) == [0, 1, 2, 3, 4, 5, 6, 7, 0x3F])
        #expect(harness.decoder.row(1, .lcd16x2)[12] == 0xDF)
        // With a slot free, the degree sign is a CGRAM glyph.
        frame[8, 0] = .blank
        frame[7, 0] = .blank
        try harness.show(frame)
        let slot = harness.decoder.row(1, .lcd16x2)[12]
        #expect(slot < 8)
        #expect(Array(harness.decoder.cgram[Int(slot) * 8..<Int(slot) * 8 + 8]) == rowsOf(.degree))
    }

    @Test func testHD44780Frame_SteadyState_AllocatesNothing() throws {
        var lcd = HD44780Display(bus: CountingBus(), geometry: .lcd20x4)
        var a = characterFrame(.lcd20x4, ["Hamilton", "23°C rain", "Wind 12 km/h", "14:05"])
        a[19, 0] = .glyph(.sun)
        var b = characterFrame(.lcd20x4, ["Hamilton", "24°C rain", "Wind 13 km/h", "14:06"])
        b[19, 0] = .glyph(.rain)
        var t = Instant(nanoseconds: 0)
        while case .busy(let until) = try lcd.flush(a, now: t) { t = until }
        let count = countAllocations {
            for _ in 0..<10 {
                keepAlive(try? lcd.flush(b, now: t))
                keepAlive(try? lcd.flush(b, now: t))
                keepAlive(try? lcd.flush(a, now: t))
            }
        }
        if case .unavailable(let reason) = count { Issue.record("cannot count allocations: \(reason)") }
        #expect(count == .counted(0))
    }

    static let rom: [(Unicode.Scalar, UInt8)] = [
        ("A", 0x41), ("z", 0x7A), (" ", 0x20), ("}", 0x7D), ("\\", 0xA4), ("~", 0x2D),
        ("ä", 0xE1), ("ö", 0xEF), ("ü", 0xF5), ("ñ", 0xEE), ("ß", 0xE2), ("µ", 0xE4), ("¢", 0xEC),
        ("£", 0xED), ("÷", 0xFD), ("°", 0xDF), ("¥", 0x5C), ("→", 0x7E), ("←", 0x7F),
        ("é", 0x65), ("è", 0x65), ("Ä", 0x41), ("Ö", 0x4F), ("Ü", 0x55), ("Å", 0x41), ("Ç", 0x43),
        ("ç", 0x63), ("Ñ", 0x4E), ("ø", 0x6F), ("ÿ", 0x79), ("Æ", 0x3F), ("π", 0xF7), ("Ω", 0xF4),
        ("−", 0x2D), ("\u{7F}", 0x3F), ("\n", 0x3F), ("€", 0x3F), ("中", 0x3F), ("😀", 0x3F),
    ]

    @Test func testHD44780ROM_ScalarsMapToA00Codes() {
        for (scalar, code) in Self.rom {
            #expect(HD44780ROMCodes.codeA00(for: scalar) == code, "U+\(String(scalar.value, radix: 16))")
        }
    }

    @Test func testHD44780Frame_Latin1Text_IsShownWithA00Codes() throws {
        var harness = LCDHarness()
        try harness.show(characterFrame(.lcd16x2, ["Zürich 5°", "Göteborg é~\\"]))
        #expect(Array(harness.decoder.row(0, .lcd16x2).prefix(9)) == [0x5A, 0xF5, 0x72, 0x69, 0x63, 0x68, 0x20, 0x35, 0x00])
        #expect(Array(harness.decoder.row(1, .lcd16x2).prefix(12)) == [0x47, 0xEF, 0x74, 0x65, 0x62, 0x6F, 0x72, 0x67, 0x20, 0x65, 0x2D, 0xA4])
    }
}

func rowsOf(_ glyph: CellGlyph) -> [UInt8] {
    let r = glyph.rows
    return [r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7]
}

import HAL
import HALSim
import Testing

/// A real bus's log replayed into a panel up to a moment (`GlassReplay`), and a character LCD's
/// glass read back as text (`CharacterGlassReading`).
@Suite struct GlassReplayTests {
    static let upright = PanelLogReplayTests.upright
    /// One lit pixel at column 0 of page 0, then one at column 1.
    static let log = """
        # a daemon's bus, no snapshots
        t=1.000000 \(upright)
        t=1.000100 76: F4 27
        # 76: read 2 -> 60 00
        t=2.000000 3C: 00 21 00 7F 22 00 07
        t=2.000100 3C: 40 01
        76: F7
        !snapshot ignored
        t=3.000000 3C: 40 01
        """

    @Test func testGlassReplay_CountsPanelAndOtherAddresses_SkipsSnapshots() throws {
        let panel = OLEDControllerModel.blank(.ssd1306_128x64)
        let replay = GlassReplay(try I2CTransactionLog(parsing: Self.log), into: panel, at: 0x3C, clock: VirtualClock())
        #expect(replay.transactions == 4)
        #expect(replay.otherTransactions == 2)
        #expect(replay.lastTime == Instant(nanoseconds: 3_000_000_000))
        #expect(replay.image.litCount == 2 && replay.image[0, 0] && replay.image[1, 0])
        #expect(replay.modelErrors.isEmpty && replay.issues.isEmpty)
    }

    @Test func testGlassReplay_Until_StopsAtTheFirstLaterStamp() throws {
        let log = try I2CTransactionLog(parsing: Self.log)
        let early = GlassReplay(log, into: OLEDControllerModel.blank(.ssd1306_128x64), at: 0x3C, until: Instant(nanoseconds: 2_500_000_000))
        #expect(early.transactions == 3 && early.otherTransactions == 2, "the untimed 76: F7 belongs to t=2.000100")
        #expect(early.lastTime == Instant(nanoseconds: 2_000_100_000))
        #expect(early.image.litCount == 1)
        let before = GlassReplay(log, into: OLEDControllerModel.blank(.ssd1306_128x64), at: 0x3C, until: Instant(nanoseconds: 999_999_999))
        #expect(before.transactions == 0 && before.lastTime == nil && before.image.litCount == 0)
    }

    @Test func testGlassReplay_AnotherAddress_ReplaysNothing() throws {
        let replay = GlassReplay(try I2CTransactionLog(parsing: Self.log), into: OLEDControllerModel.blank(.ssd1306_128x64), at: 0x3D)
        #expect(replay.transactions == 0 && replay.otherTransactions == 6 && replay.image.litCount == 0)
    }

    @Test func testGlassReplay_ResetAndACommandCutOff_AreModelErrors() throws {
        let text = "\(Self.upright)\n!reset\n3C: 00 AF 81\n"
        let replay = GlassReplay(try I2CTransactionLog(parsing: text), into: OLEDControllerModel.blank(.ssd1306_128x64), at: 0x3C)
        #expect(replay.transactions == 2)
        #expect(replay.modelErrors.map(\.kind).contains(.commandCutOff), "81 waits for its contrast byte at the end")
    }

    // MARK: - Character LCDs

    static let degree = CharacterPicture(name: "degree", rows: (0x0C, 0x12, 0x12, 0x0C, 0, 0, 0, 0), text: "°")
    static let drop = CharacterPicture(name: "drop", rows: (0x04, 0x04, 0x0E, 0x0E, 0x1F, 0x1F, 0x0E, 0))

    /// "Zürich  21°C" with the degree sign and a drop in CGRAM slots 0 and 1, "12%" after two
    /// spaces on the second row, and an unwritten slot 5.
    static func lcd() -> LCDScript {
        let lcd = LCDScript()
        lcd.initialise()
        lcd.command(0x40)
        for picture in [degree, drop] {
            withUnsafeBytes(of: picture.rows) { for row in $0 { lcd.byte(row, rs: true) } }
        }
        lcd.command(0x80)
        lcd.text("Z")
        lcd.byte(0xF5, rs: true)  // ü in ROM A00
        lcd.text("rich 21")
        lcd.byte(0x00, rs: true)
        lcd.text("C")
        lcd.command(0xC0)
        lcd.byte(0x01, rs: true)
        lcd.text("12%  a b")
        lcd.byte(0x05, rs: true)
        return lcd
    }

    @Test func testCharacterGlass_FromDDRAM_PicturesAndRuns() {
        let reading = Self.lcd().model.readGlass(pictures: [Self.degree, Self.drop])
        #expect(reading.rows == ["Zürich 21°C     ", "\u{FFFD}12%  a b\u{FFFD}      "])
        #expect(reading.pictures == [
            .init(column: 0, row: 1, name: "drop"), .init(column: 9, row: 1, name: nil),
        ])
        #expect(reading.runs.map(\.text) == ["Zürich 21°C", "\u{FFFD}12%", "a b\u{FFFD}"])
        #expect(reading.runs.map(\.column) == [0, 0, 6])
    }

    @Test func testCharacterGlass_FromTheImage_ReadsTheSame() throws {
        let lcd = Self.lcd()
        let fromRAM = lcd.model.readGlass(pictures: [Self.degree, Self.drop])
        let fromImage = try #require(CharacterGlassReading(image: lcd.backpack.image, columns: 16, rows: 2, pictures: [Self.degree, Self.drop]))
        #expect(fromImage == fromRAM)
        #expect(CharacterGlassReading(image: lcd.backpack.image, columns: 20, rows: 4, pictures: []) == nil, "another size")
    }

    @Test func testCharacterGlass_DisplayOff_ReadsBlank() {
        let lcd = Self.lcd()
        lcd.command(0x08)
        #expect(lcd.model.readGlass(pictures: []).rows == [String(repeating: " ", count: 16), String(repeating: " ", count: 16)])
    }
}

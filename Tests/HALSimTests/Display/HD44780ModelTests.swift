import HAL
import HALSim
import Testing

/// The HD44780 model's instructions (HD44780U Table 6) through a PCF8574 backpack.
@Suite struct HD44780ModelTests {
    @Test func testHD44780_Initialisation_FourBitTwoLines() {
        let lcd = LCDScript()
        #expect(lcd.model.eightBitInterface && !lcd.model.isInitialised)
        lcd.initialise()
        #expect(lcd.model.isInitialised && !lcd.model.eightBitInterface && lcd.model.twoLines)
        #expect(lcd.model.displayOn && !lcd.model.cursorOn && lcd.model.incrementing)
        lcd.text("Hello")
        lcd.command(0xC0)
        lcd.text("23\u{DF}C")
        #expect(lcd.model.lines == ["Hello           ", "23°C            "])
        #expect(lcd.backpack.errors.isEmpty, "\(lcd.backpack.errors)")
        #expect(lcd.backpack.backlightOn)
    }

    @Test func testHD44780_UsedBeforeInitialisation() {
        let lcd = LCDScript(startAt: .milliseconds(50))
        lcd.idle()
        lcd.nibble(0x2)  // 4-bit without the three function sets
        lcd.wait(.microseconds(100))
        lcd.byte(0x41, rs: true)
        #expect(lcd.backpack.errors.map(\.kind) == [.usedBeforeInitialisation], "once per power-on")
        #expect(!lcd.model.isInitialised)
    }

    @Test func testHD44780_Resync_FromBetweenNibbles() {
        let lcd = LCDScript()
        lcd.initialise()
        lcd.text("AB")
        lcd.nibble(0x4, rs: true)  // the host dies after the high nibble of 'C'
        #expect(lcd.model.isBetweenNibbles)
        lcd.wait(.seconds(3))
        lcd.initialise()  // the restarted host initialises again
        #expect(!lcd.model.isBetweenNibbles && !lcd.model.eightBitInterface)
        lcd.text("OK")
        #expect(lcd.model.lines[0] == "OK              ")
        // The first 0x3 completed the stray byte with RS changed: that is the only error.
        #expect(lcd.backpack.errors.map(\.kind) == [.registerSelectChanged])
    }

    @Test func testHD44780_EntryMode_DecrementAndShift() {
        let lcd = LCDScript()
        lcd.initialise()
        lcd.command(0x85)
        lcd.command(0x04)  // decrement, no shift
        lcd.text("AB")
        #expect(lcd.model.lines[0] == "    BA          ")
        #expect(lcd.model.addressCounter == 0x03)
        lcd.command(0x07)  // increment, shift: the text moves left as it is written
        lcd.command(0x80)
        lcd.text("xy")
        #expect(lcd.model.displayShift == 2)
        #expect(lcd.model.lines[0] == "  BA            ")
    }

    @Test func testHD44780_ClearAndHome() {
        let lcd = LCDScript()
        lcd.initialise()
        lcd.command(0x04)
        lcd.command(0x18)  // shift the display left
        lcd.text("Q")
        lcd.command(0x02)  // home: AC 0, shift undone
        #expect(lcd.model.addressCounter == 0 && lcd.model.displayShift == 0 && !lcd.model.incrementing)
        lcd.command(0x01)
        #expect(lcd.model.ddram.allSatisfy { $0 == 0x20 } && lcd.model.incrementing, "clear sets I/D = 1")
    }

    @Test func testHD44780_CursorAndDisplayShift() {
        let lcd = LCDScript()
        lcd.initialise()
        lcd.text("abc")
        lcd.command(0x10)  // cursor left
        #expect(lcd.model.addressCounter == 2)
        lcd.command(0x14)  // cursor right
        #expect(lcd.model.addressCounter == 3)
        lcd.command(0x1C)  // display right
        #expect(lcd.model.lines[0] == " abc            ")
        lcd.command(0x18)
        lcd.command(0x18)
        #expect(lcd.model.lines[0] == "bc              ")
        #expect(lcd.model.lines[1] == "                ", "both lines shift")
    }

    @Test func testHD44780_DDRAM_LineOneWrapsIntoLineTwo() {
        let lcd = LCDScript()
        lcd.initialise()
        lcd.command(0x80 | 0x26)
        lcd.text("123")
        #expect(lcd.model.addressCounter == 0x41)
        #expect(lcd.model.lines[1].hasPrefix("3"))
        lcd.command(0x80 | 0x30)
        #expect(lcd.backpack.errors.map(\.kind) == [.invalidAddress], "0x30 is not a 2-line address")
    }

    @Test func testHD44780_CGRAM_GlyphsAndAliases() {
        let lcd = LCDScript()
        lcd.initialise()
        lcd.command(0x40 | 1 << 3)  // glyph 1
        for row: UInt8 in [0x1F, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1F, 0x00] { lcd.byte(row, rs: true) }
        lcd.command(0x80)  // back to DDRAM
        lcd.byte(0x01, rs: true)
        lcd.byte(0x09, rs: true)  // 8…15 alias 0…7
        #expect(lcd.model.lines[0].hasPrefix("①①"))
        let image = lcd.model.image(glyphs: { _ in (0, 0, 0, 0, 0, 0, 0, 0) })
        #expect(image.width == 16 * 6 - 1 && image.height == 2 * 9 - 1)
        for cell in 0..<2 {
            #expect((0..<5).allSatisfy { image[cell * 6 + $0, 0] && image[cell * 6 + $0, 6] })
            #expect(image[cell * 6, 3] && !image[cell * 6 + 2, 3] && image[cell * 6 + 4, 3])
        }
        #expect(image.litCount == 2 * 20)
    }

    @Test func testHD44780_Image_ROMGlyphsInCellsOnePixelApart() {
        let lcd = LCDScript()
        lcd.initialise()
        lcd.text("A\u{DF}")
        let image = lcd.backpack.image
        let corner = PanelImage(width: 11, height: 10) { image[$0, $1] }
        #expect(corner.asciiArt() == """
            .##.....#..
            #..#...#.#.
            #..#....#..
            ####.......
            #..#.......
            #..#.......
            ...........
            ...........
            ...........
            ...........

            """)
        #expect(image.litCount == corner.litCount, "the rest is blank (the ROM's space)")
    }

    @Test func testHD44780_Image_CursorOffAndBacklight() {
        let lcd = LCDScript()
        lcd.initialise()
        lcd.text("A")
        let glyphs: (UInt8) -> HD44780GlyphRows = { $0 == 0x41 ? (0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11, 0) : (0, 0, 0, 0, 0, 0, 0, 0) }
        #expect(lcd.model.image(glyphs: glyphs).litCount == 18)
        lcd.command(0x0E)  // cursor on: the 8th row under the next cell
        let cursor = lcd.model.image(glyphs: glyphs)
        #expect(cursor.litCount == 18 + 5 && (6..<11).allSatisfy { cursor[$0, 7] })
        lcd.command(0x08)  // display off: blank, backlight untouched
        #expect(lcd.model.image(glyphs: glyphs).litCount == 0 && lcd.backpack.backlightOn)
        lcd.transaction([lcd.map.encode(nibble: 0, backlightOn: false)])
        #expect(!lcd.backpack.backlightOn)
    }

    @Test func testHD44780_20x4_RowAddresses() {
        let lcd = LCDScript(geometry: .lcd20x4)
        lcd.initialise()
        for (row, address) in [(0, 0x00), (1, 0x40), (2, 0x14), (3, 0x54)] as [(Int, UInt8)] {
            lcd.command(0x80 | address)
            lcd.text("row\(row)")
        }
        #expect(lcd.model.lines == ["row0" + String(repeating: " ", count: 16), "row1" + String(repeating: " ", count: 16),
                                     "row2" + String(repeating: " ", count: 16), "row3" + String(repeating: " ", count: 16)])
    }

    @Test(arguments: [BackpackWiring.ywRobot, .lcm1602, .mjkdz])
    func testHD44780_PinMaps_DecodeWhatTheyEncode(map: BackpackWiring) {
        for port in 0...255 {
            let s = map.decode(UInt8(port))
            #expect(map.encode(nibble: s.nibble, registerSelect: s.registerSelect, read: s.read, enable: s.enable, backlightOn: s.backlightOn) == UInt8(port))
        }
        let lcd = LCDScript(pinMap: map)
        lcd.initialise()
        lcd.text("Map")
        #expect(lcd.model.lines[0].hasPrefix("Map") && lcd.backpack.errors.isEmpty)
    }

    @Test func testHD44780_PinMaps_Bits() {
        #expect(BackpackWiring.ywRobot.encode(nibble: 0x3, enable: true) == 0x3C)
        #expect(BackpackWiring.lcm1602.encode(nibble: 0x3, enable: true) == 0x34, "backlight active low")
        #expect(BackpackWiring.mjkdz.encode(nibble: 0x3, registerSelect: true, enable: true) == 0x53)
    }
}

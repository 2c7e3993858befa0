import HALSim
import Testing

/// What the glass shows for the display settings (SSD1306 Rev 1.1 §8.4–8.7, §10.1.6–18).
@Suite struct OLEDGlassTests {
    /// A blank 128×64 SSD1306, upright, with RAM row `row` (all columns) lit.
    static func withRowLit(_ row: Int, _ configuration: OLEDControllerModel.Configuration = .ssd1306_128x64) -> OLEDControllerModel {
        let oled = OLEDControllerModel.blank(configuration)
        oled.initialiseUpright(mux: configuration.height, comPins: configuration.height > 32 ? 0x12 : 0x02)
        oled.send("00 21 00 7F 22 00 07")
        var data = [UInt8](repeating: 0, count: 1024)
        for x in 0..<128 { data[(row / 8) * 128 + x] = 1 << UInt8(row % 8) }
        oled.send([0x40] + data)
        return oled
    }

    @Test func testGlass_Upright_A1C8ShowsRAMAsWritten() {
        let oled = OLEDControllerModel.blank(.ssd1306_128x64)
        oled.initialiseUpright()
        oled.send("00 21 00 7F 22 00 07")
        oled.send("40 01 02 04")  // a diagonal from the top-left corner
        #expect(oled.image[0, 0] && oled.image[1, 1] && oled.image[2, 2] && oled.image.litCount == 3)
        #expect(oled.errors.isEmpty)
    }

    @Test func testGlass_DisplayOffOrNoChargePump_IsDark() {
        let oled = Self.withRowLit(5)
        #expect(oled.litRows == [5])
        oled.send("00 AE")
        #expect(oled.image.litCount == 0)
        oled.send("00 AF 8D 10")
        #expect(oled.image.litCount == 0, "internal VCC without the charge pump")
        var external = OLEDControllerModel.Configuration.ssd1306_128x64
        external.supply = .externalVCC
        let lit = Self.withRowLit(5, external)
        lit.send("00 8D 10")
        #expect(lit.litRows == [5], "external VCC needs no charge pump")
    }

    @Test func testGlass_EntireDisplayOnAndInverse() {
        let oled = Self.withRowLit(5)
        oled.send("00 A7")
        #expect(oled.image.litCount == 128 * 63)
        oled.send("00 A5")
        #expect(oled.image.litCount == 128 * 64, "A5 ignores the RAM")
        oled.send("00 A4 A6")
        #expect(oled.litRows == [5])
    }

    @Test func testGlass_StartLine_ScrollsRAMRowsUp() {
        let oled = Self.withRowLit(8)
        oled.send("00 48")  // start line 8
        #expect(oled.litRows == [0])
        oled.send("00 7F")  // start line 63: RAM row 8 is on glass row 9
        #expect(oled.litRows == [9])
    }

    @Test func testGlass_DisplayOffset_MovesThePictureTowardsCOM0() {
        let oled = Self.withRowLit(0)
        oled.send("00 D3 08")  // with C8, COM0 is the bottom row: the picture moves down
        #expect(oled.litRows == [8])
        oled.send("00 C0")  // C0 flips the glass (row 0 on COM0, the bottom row); the offset puts it on COM 56
        #expect(oled.litRows == [7])
    }

    @Test func testGlass_MultiplexRatio_LeavesUnscannedRowsDark() {
        let oled = Self.withRowLit(0)
        oled.send("00 A8 1F")  // 32 rows on a 64-row module: COM 31…0 only
        #expect(oled.litRows == [32])
        oled.send("00 A5")
        #expect(oled.litRows == Array(32..<64), "the top half is never scanned")
    }

    @Test func testGlass_COMPinsMismatch_InterleavesRows() {
        let oled = OLEDControllerModel.blank(.ssd1306_128x64)
        oled.initialiseUpright()
        oled.send("00 21 00 7F 22 00 07")
        oled.send([0x40] + [UInt8](repeating: 0xFF, count: 512) + [UInt8](repeating: 0, count: 512))
        #expect(oled.litRows == Array(0..<32), "DA 12 on an alternative-wired module: the top half")
        oled.send("00 DA 02")
        #expect(oled.litRows == Array(stride(from: 0, to: 64, by: 2)), "every other line over the whole glass")
        let single = Self.withRowLit(0)
        single.send("00 DA 32")
        #expect(single.litRows == [1], "left/right remap on a module not wired for it swaps neighbouring rows")
    }

    @Test func testGlass_128x32_SequentialModule() {
        let oled = Self.withRowLit(3, .ssd1306_128x32)
        #expect(oled.image.width == 128 && oled.image.height == 32)
        #expect(oled.litRows == [3])
        oled.send("00 DA 12")  // the 128×64 setting on a sequential module
        #expect(oled.litRows != [3])
        oled.send("00 DA 02 A8 3F")  // mux 64 on a 32-row module: the other half of RAM shows
        #expect(oled.litRows == [], "RAM rows 32…63 are blank")
    }

    @Test func testGlass_LeftRightRemappedWiring_NeedsItsDA() {
        let configuration = OLEDControllerModel.Configuration(controller: .ssd1306, height: 32, comWiring: .sequentialLeftRightRemap)
        let oled = OLEDControllerModel.blank(configuration)
        oled.initialiseUpright(mux: 32, comPins: 0x22)
        oled.send("00 21 00 7F 22 00 03")
        oled.send("40 01")
        #expect(oled.litRows == [0] && oled.image[0, 0])
        oled.send("00 DA 02")
        #expect(oled.litRows == [], "the module's rows hang on pads the sequential setting leaves idle")
    }
}

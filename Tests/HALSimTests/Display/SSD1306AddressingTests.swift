import HALSim
import Testing

/// RAM writes and the three addressing modes (SSD1306 Rev 1.1 §10.1.3–5, Figures 10-1…10-4).
@Suite struct SSD1306AddressingTests {
    static func model() -> OLEDControllerModel { OLEDControllerModel.blank(.ssd1306_128x64) }

    @Test func testSSD1306_DataBeforeAnySetUp_UsesPowerOnDefaults() {
        let oled = Self.model()
        oled.send("40 11 22")  // page mode, page 0, column 0 after reset
        #expect(oled.ramByte(column: 0, page: 0) == 0x11 && oled.ramByte(column: 1, page: 0) == 0x22)
        #expect(oled.errors.isEmpty)
    }

    @Test func testSSD1306_Horizontal_FullFrameFillsEveryPageAndWraps() {
        let oled = Self.model()
        oled.send("00 20 00 21 00 7F 22 00 07")
        oled.send([0x40] + (0..<1024).map { UInt8(truncatingIfNeeded: $0 / 128 + 1) })
        #expect((0..<8).allSatisfy { p in oled.ramByte(column: 0, page: p) == p + 1 && oled.ramByte(column: 127, page: p) == p + 1 })
        #expect(oled.registers.column == 0 && oled.registers.page == 0, "back at the window's start")
    }

    @Test func testSSD1306_Horizontal_WindowWrapsAsSection1013() {
        let oled = Self.model()
        oled.send("00 20 00 21 08 0A 22 06 07")
        oled.send("40 01 02 03 04 05 06 07")
        #expect((8...10).map { oled.ramByte(column: $0, page: 6) } == [7, 2, 3], "the 7th byte wrapped to (8, 6)")
        #expect((8...10).map { oled.ramByte(column: $0, page: 7) } == [4, 5, 6])
        #expect(oled.ramByte(column: 11, page: 6) == 0 && oled.errors.isEmpty)
    }

    @Test func testSSD1306_Vertical_PagesFirstThenColumns() {
        let oled = Self.model()
        oled.send("00 20 01 21 10 11 22 02 03")
        oled.send("40 01 02 03 04 05")
        #expect(oled.ramByte(column: 16, page: 2) == 5, "wrapped to the start")
        #expect(oled.ramByte(column: 16, page: 3) == 2)
        #expect(oled.ramByte(column: 17, page: 2) == 3 && oled.ramByte(column: 17, page: 3) == 4)
    }

    @Test func testSSD1306_PageMode_ColumnReturnsToTheColumnStartPageStays() {
        let oled = Self.model()
        oled.send("00 20 02 B3 0E 17")  // page 3, column 0x7E
        oled.send("40 01 02 03")
        #expect(oled.ramByte(column: 126, page: 3) == 3, "after column 127 the pointer returned to the column start 0x7E")
        #expect(oled.ramByte(column: 127, page: 3) == 2)
        #expect(oled.ramByte(column: 0, page: 3) == 0 && oled.ramByte(column: 0, page: 4) == 0)
        #expect(oled.registers.page == 3, "page mode never changes the page")
    }

    @Test func testSSD1306_PageModeCommands_MovePointerInHorizontalMode() {
        let oled = Self.model()  // u8g2: horizontal mode, positioned with 10+x>>4, x&15, B0+p
        oled.send("00 20 00")
        oled.send("00 17 00 B6")
        oled.send("40 AA BB")
        #expect(oled.ramByte(column: 112, page: 6) == 0xAA && oled.ramByte(column: 113, page: 6) == 0xBB)
        #expect(oled.errors.isEmpty)
    }

    @Test func testSSD1306_WriteOutsideTheWindow_IsReportedOnce() {
        let oled = Self.model()
        oled.send("00 20 00 21 10 20 22 00 07 00 10")  // window 16…32, pointer moved to column 0
        oled.send("40 01 02 03")
        #expect(oled.errors.map(\.kind) == [.ramWriteOutOfRange])
        #expect(oled.ramByte(column: 0, page: 0) == 1, "written where the pointer was")
    }

    @Test func testSSD1306_SegmentRemap_AppliesToLaterWritesOnly() {
        let oled = Self.model()
        oled.initialiseUpright()
        oled.send("00 21 00 7F 22 00 07")
        oled.send("40 01")  // top-left pixel under A1
        let upright = oled.image
        #expect(upright[0, 0])
        oled.send("00 A0")
        #expect(oled.image == upright, "A0 does not move what is in RAM")
        oled.send("00 21 00 7F 22 00 07")
        oled.send("40 01")
        #expect(oled.image[127, 0], "a byte written under A0 lands mirrored")
    }

    @Test func testSSD1306_COMScan_AppliesAtOnce() {
        let oled = Self.model()
        oled.initialiseUpright()
        oled.send("00 21 00 7F 22 00 07")
        oled.send("40 01")
        #expect(oled.litRows == [0])
        oled.send("00 C0")
        #expect(oled.litRows == [63], "C0 flips the picture vertically without a redraw")
        #expect(oled.image[0, 63])
    }
}

import HALSim
import Testing

/// The SH1106 model (SH1106 V2.3 "Commands"): page addressing only, 132-column RAM, the visible
/// column window, and what SSD1306-only bytes do.
@Suite struct SH1106ModelTests {
    /// luma.oled's SH1106 sequence, display on (docs/design/parts.md#initialisation-sequences).
    static let lumaInit = "00 AE 20 10 B0 C8 00 10 40 A1 A6 A8 3F A4 D3 00 D5 F0 D9 22 DA 12 DB 20 8D 14 81 7F AF"
    /// The suggested SH1106 init: SH1106 commands only.
    static let cleanInit = "00 AE D5 80 A8 3F D3 00 40 AD 8B A1 C8 DA 12 81 80 D9 22 DB 35 A4 A6 AF"

    static func blank(columnOffset: Int = 2) -> OLEDControllerModel {
        OLEDControllerModel.blank(.sh1106_128x64(columnOffset: columnOffset))
    }

    /// 132 columns of `value` in every page, as a careful driver clears.
    static func fill(_ oled: OLEDControllerModel, _ value: UInt8) {
        for page in 0..<8 {
            oled.send([0x00, 0xB0 + UInt8(page), 0x00, 0x10])
            oled.send([0x40] + [UInt8](repeating: value, count: 132))
        }
    }

    @Test func testSH1106_PowerOn_Values() {
        let oled = OLEDControllerModel(.sh1106_128x64())
        #expect(oled.ramColumns == 132 && oled.ram.count == 132 * 8)
        #expect(oled.registers.chargePump, "DC-DC on after power-on")
        #expect(oled.registers.contrast == 0x80 && oled.registers.vcomhDeselect == 0x35)
        #expect(oled.registers.addressingMode == .page)
    }

    @Test func testSH1106_ColumnOffset2_ShowsColumns2To129() {
        let oled = Self.blank()
        oled.send(Self.cleanInit)
        Self.fill(oled, 0)
        oled.send("00 B2 02 10")
        oled.send("40 01")
        #expect(oled.image[0, 16] && oled.image.litCount == 1)
        oled.send("00 B2 00 10")
        oled.send("40 FF FF")  // columns 0 and 1 are off the glass
        #expect(oled.image.litCount == 1 && oled.errors.isEmpty)
    }

    @Test func testSH1106_ColumnOffset0_ShowsColumns0To127() {
        let oled = Self.blank(columnOffset: 0)
        oled.send(Self.cleanInit)
        Self.fill(oled, 0)
        oled.send("00 B0 00 10")
        oled.send("40 01")
        #expect(oled.image[0, 0])
    }

    @Test func testSH1106_132ColumnRAM_LastByteIsLostAndReported() {
        let oled = Self.blank()
        oled.send("00 B7 00 10")
        oled.send([0x40] + [UInt8](repeating: 0x80, count: 134))
        #expect(oled.ramByte(column: 131, page: 7) == 0x80)
        #expect(oled.errors.map(\.kind) == [.ramWriteOutOfRange], "once for the run of lost bytes")
        #expect(oled.registers.page == 7, "no wrap to another page")
    }

    @Test func testSH1106_PowerOnNoise_ShowsWhereADriverDoesNotWrite() {
        let oled = OLEDControllerModel(.sh1106_128x64(columnOffset: 0))
        oled.send(Self.cleanInit)
        for page in 0..<8 {  // an offset-2 driver on an offset-0 board: clears columns 2…129
            oled.send([0x00, 0xB0 + UInt8(page), 0x02, 0x10])
            oled.send([0x40] + [UInt8](repeating: 0, count: 128))
        }
        let image = oled.image
        let noise = (0..<64).filter { y in image[0, y] || image[1, y] }.count
        #expect(noise > 0, "power-on garbage in the two columns the driver never wrote")
        #expect((0..<64).allSatisfy { y in (2..<128).allSatisfy { !image[$0, y] } })
    }

    @Test func testSH1106_SSD1306OnlyBytes_AreNoOpsWhoseArgumentsRun() {
        let oled = Self.blank()
        oled.send("00 20 10")  // no-op, then higher column 0
        #expect(oled.registers.column == 0)
        oled.send("00 8D 14")  // no-op, then higher column 4
        #expect(oled.registers.column == 0x40)
        oled.send("00 21 00 7F")  // no-op, lower column 0, start line 63
        #expect(oled.registers.startLine == 63)
        #expect(oled.errors.map(\.byte) == [0x20, 0x8D, 0x21])
        #expect(oled.errors.allSatisfy { $0.kind == .unknownCommand })
        #expect(oled.errors[1].message.contains("SSD1306's Charge Pump Setting"))
    }

    @Test func testSH1106_LumaInit_RendersUpright() {
        let oled = Self.blank()
        oled.send(Self.lumaInit)
        Self.fill(oled, 0)
        oled.send("00 B0 02 10")
        oled.send("40 03")
        #expect(oled.image[0, 0] && oled.image[0, 1] && oled.image.litCount == 2)
    }

    @Test func testSH1106_SSD1306Stream_GivesAWrongImage() {
        let ssd = OLEDControllerModel.blank(.ssd1306_128x64)
        let sh = Self.blank()
        let frame = (0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 37 ^ $0 >> 3) }
        for oled in [ssd, sh] {
            oled.send("00 AE D5 80 A8 3F D3 00 40 8D 14 20 00 A1 C8 DA 12 D9 F1 DB 40 A4 A6 AF")
            oled.send("00 21 00 7F 22 00 07")
            oled.send([0x40] + frame)
        }
        #expect(ssd.errors.isEmpty)
        #expect(sh.image.differingPixels(from: ssd.image) > 1000)
        #expect(sh.registers.startLine == 63, "`21 00 7F` set the start line on the SH1106")
        #expect(sh.errors.contains { $0.kind == .ramWriteOutOfRange })
    }

    @Test func testSH1106_ReadModifyWrite_ReturnsToTheColumn() {
        let oled = Self.blank()
        oled.send("00 B1 05 10 E0")
        oled.send("40 01 02 03")
        #expect(oled.registers.column == 8)
        oled.send("00 EE")
        #expect(oled.registers.column == 5 && oled.registers.readModifyWriteColumn == nil)
    }

    @Test func testSH1106_OwnCommands() {
        let oled = Self.blank()
        oled.send("00 31 CB DA 02 A8 1F AD 8A E3")
        #expect(oled.registers.pumpVoltage == 1)
        #expect(oled.registers.comScanReversed, "C8…CF: bit 3")
        #expect(!oled.registers.comAlternative && oled.registers.multiplexRatio == 32)
        #expect(!oled.registers.chargePump)
        #expect(oled.errors.isEmpty)
        oled.send("00 AD 14")
        #expect(oled.errors.map(\.kind) == [.invalidArgument])
    }

    @Test func testSH1106_DCDCOff_IsDarkAndSnapshotSaysWhy() {
        let oled = Self.blank()
        oled.send(Self.cleanInit)
        Self.fill(oled, 0xFF)
        #expect(oled.image.litCount == 128 * 64)
        oled.send("00 AD 8A")
        #expect(oled.snapshot().litCount == 0)
        #expect(oled.errors.map(\.kind) == [.panelNeverLit])
        #expect(oled.errors[0].message.contains("AD 8B"))
    }
}

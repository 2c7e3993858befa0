import HAL
import HALSim
import Testing

/// The SSD1306 model's framing and command decoder (SSD1306 Rev 1.1 §8.1.5, Table 9-1).
@Suite struct SSD1306CommandTests {
    @Test func testSSD1306_PowerOn_ResetValuesOfTable91() {
        let oled = OLEDControllerModel(.ssd1306_128x64)
        let r = oled.registers
        #expect(!r.displayOn && r.contrast == 0x7F && !r.chargePump && r.addressingMode == .page)
        #expect(r.multiplexRatio == 64 && r.displayOffset == 0 && r.startLine == 0)
        #expect(!r.segmentRemap && !r.comScanReversed && r.comAlternative && !r.comLeftRightRemap)
        #expect(r.columnStart == 0 && r.columnEnd == 127 && r.pageStart == 0 && r.pageEnd == 7)
        #expect(r.clockDivide == 0x80 && r.precharge == 0x22 && r.vcomhDeselect == 0x20)
        #expect(oled.image.litCount == 0, "off after reset")
        #expect(oled.ram.count == 1024 && oled.ram.contains { $0 != 0 }, "RAM starts as noise")
    }

    @Test func testSSD1306_ControlBytes_StreamsAndSingleBytes() {
        let oled = OLEDControllerModel.blank(.ssd1306_128x64)
        oled.send("00 20 00 8D 14 AF")  // Co=0 D/C#=0: all commands
        #expect(oled.registers.displayOn && oled.registers.addressingMode == .horizontal)
        oled.send("40 01 02 03")  // Co=0 D/C#=1: all data
        #expect(oled.ram.prefix(3) == [1, 2, 3])
        oled.send("80 A7 C0 04 80 A6 C0 05")  // Co=1: one byte, then another control byte
        #expect(oled.ram[3...4] == [4, 5] && !oled.registers.inverted)
        oled.send("80 A1")  // a transaction may end right after its control byte's byte
        #expect(oled.registers.segmentRemap && oled.errors.isEmpty)
    }

    @Test func testSSD1306_Arguments_SurviveAStop() {
        let oled = OLEDControllerModel(.ssd1306_128x64)
        oled.send("80 A8")  // CircuitPython: each byte its own transaction
        oled.send("80 1F")
        oled.send("80 D3")
        oled.send("00 05")
        #expect(oled.registers.multiplexRatio == 32 && oled.registers.displayOffset == 5)
        #expect(oled.errors.isEmpty)
    }

    /// Each command of Table 9-1 with valid arguments, followed by `AF`: the decoder took exactly
    /// its argument bytes when `AF` switches the display on.
    static let table91: [(String, @Sendable (OLEDControllerModel.Registers) -> Bool)] = [
        ("05", { $0.column == 5 && $0.pageModeColumnStart == 5 }),
        ("13", { $0.column == 0x30 }),
        ("20 01", { $0.addressingMode == .vertical }),
        ("21 10 20", { $0.columnStart == 0x10 && $0.columnEnd == 0x20 && $0.column == 0x10 }),
        ("22 02 05", { $0.pageStart == 2 && $0.pageEnd == 5 && $0.page == 2 }),
        ("26 00 01 07 05 00 FF", { $0.scrollSetup == [0x26, 0, 1, 7, 5, 0, 0xFF] }),
        ("27 00 01 07 05 00 FF", { $0.scrollSetup.first == 0x27 }),
        ("29 00 01 07 05 01", { $0.scrollSetup == [0x29, 0, 1, 7, 5, 1] }),
        ("2A 00 01 07 05 01", { $0.scrollSetup.first == 0x2A }),
        ("A3 00 40", { $0.scrollSetup == [0xA3, 0, 0x40] }),
        ("2E", { !$0.scrollActive }),
        ("52", { $0.startLine == 0x12 }),
        ("81 33", { $0.contrast == 0x33 }),
        ("8D 14", { $0.chargePump }),
        ("A1", { $0.segmentRemap }),
        ("A5", { $0.entireDisplayOn }),
        ("A7", { $0.inverted }),
        ("A8 2F", { $0.multiplexRatio == 48 }),
        ("AD 30", { $0.currentReference == 0x30 }),
        ("B6", { $0.page == 6 }),
        ("C8", { $0.comScanReversed }),
        ("D3 11", { $0.displayOffset == 0x11 }),
        ("D5 F0", { $0.clockDivide == 0xF0 }),
        ("D9 F1", { $0.precharge == 0xF1 }),
        ("DA 22", { !$0.comAlternative && $0.comLeftRightRemap }),
        ("DB 40", { $0.vcomhDeselect == 0x40 }),
        ("E3", { _ in true }),
    ]

    @Test(arguments: 0..<table91.count)
    func testSSD1306_Command_TakesItsArgumentsAndSetsItsRegister(index: Int) {
        let (command, check) = Self.table91[index]
        let oled = OLEDControllerModel(.ssd1306_128x64)
        oled.send("00 " + command + " AF")
        #expect(check(oled.registers), "\(command)")
        #expect(oled.registers.displayOn, "\(command): AF was taken as a command, not an argument")
        #expect(oled.errors.isEmpty, "\(command): \(oled.errors)")
    }

    @Test func testSSD1306_AddressingMode_OnlyBits1And0Count() {
        let oled = OLEDControllerModel(.ssd1306_128x64)
        oled.send("00 20 10")  // CircuitPython's "page addressing": horizontal
        #expect(oled.registers.addressingMode == .horizontal)
        oled.send("00 20 FE")
        #expect(oled.registers.addressingMode == .page)
        oled.send("00 20 03")
        #expect(oled.registers.addressingMode == .page, "11b is invalid: unchanged")
        #expect(oled.errors.map(\.kind) == [.invalidArgument])
    }

    @Test func testSSD1306_Scroll_ActivationIsAnUnsupportedEffect() {
        let oled = OLEDControllerModel(.ssd1306_128x64)
        oled.send("00 26 00 00 07 07 00 FF 2F")
        #expect(oled.registers.scrollActive)
        #expect(oled.errors.map(\.kind) == [.unsupportedEffect])
        oled.send("00 2E")
        #expect(!oled.registers.scrollActive)
    }

    @Test func testSSD1306_InvalidArguments_AreReported() {
        let oled = OLEDControllerModel(.ssd1306_128x64)
        oled.send("00 A8 05 8D 55 DA 13")
        #expect(oled.registers.multiplexRatio == 64, "a mux below 16 is ignored")
        #expect(oled.registers.chargePump, "bit 2 of 55")
        #expect(oled.errors.map(\.kind) == [.invalidArgument, .invalidArgument, .invalidArgument])
        #expect(oled.errors.map(\.byte) == [0x05, 0x55, 0x13])
    }

    @Test func testSSD1306_UnknownCommands_AreOneByteNoOps() {
        let oled = OLEDControllerModel(.ssd1306_128x64)
        oled.send("00 18 FF 30 AF")
        #expect(oled.errors.map(\.kind) == [.unknownCommand, .unknownCommand, .unknownCommand])
        #expect(oled.errors.map(\.byte) == [0x18, 0xFF, 0x30])
        #expect(oled.registers.displayOn)
        #expect(oled.errors[0].description.contains("0x18 is not an SSD1306 command"))
    }

    @Test func testSSD1306_Read_ReturnsTheStatusByte() throws {
        var bus = SimulatedI2CBus()
        let oled = OLEDControllerModel(.ssd1306_128x64)
        bus.attach(oled, at: 0x3C)
        var status: UInt8 = 0
        try withUnsafeMutableBytes(of: &status) { raw in
            try bus.transfer(address: 0x3C, write: UnsafeRawBufferPointer(start: nil, count: 0), read: raw)
        }
        #expect(status == 0x40, "display off")
    }

    @Test func testSSD1306_PowerOnReset_RestoresTheResetState() {
        let oled = OLEDControllerModel(.ssd1306_128x64)
        let noise = oled.ram
        oled.initialiseUpright()
        oled.send("40 FF FF")
        oled.send("00 A8")
        oled.powerOnReset()
        #expect(oled.registers == OLEDControllerModel.Registers(.ssd1306))
        #expect(oled.ram == noise, "the same seeded noise")
        oled.send("00 AF")
        #expect(oled.registers.displayOn, "no argument was pending after the reset")
    }
}

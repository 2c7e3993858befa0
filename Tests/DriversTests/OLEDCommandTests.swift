import Drivers
import Testing

/// Every command with its bytes from the data sheets (SSD1306 Rev 1.1 Table 9-1; SH1106 V2.3
/// commands 1–21): the table the rust `ssd1306` crate's `command.rs` lacks.
@Suite struct OLEDCommandTests {
    static let ssd1306: [(SSD1306Command, [UInt8])] = [
        (.displayOn(false), [0xAE]), (.displayOn(true), [0xAF]),
        (.contrast(0xCF), [0x81, 0xCF]), (.contrast(0x00), [0x81, 0x00]),
        (.entireDisplayOn(false), [0xA4]), (.entireDisplayOn(true), [0xA5]),
        (.inverted(false), [0xA6]), (.inverted(true), [0xA7]),
        (.addressingMode(.horizontal), [0x20, 0x00]), (.addressingMode(.vertical), [0x20, 0x01]),
        (.addressingMode(.page), [0x20, 0x02]),
        (.columnAddress(first: 0, last: 127), [0x21, 0x00, 0x7F]),
        (.columnAddress(first: 122, last: 125), [0x21, 0x7A, 0x7D]),
        (.pageAddress(first: 0, last: 7), [0x22, 0x00, 0x07]), (.pageAddress(first: 6, last: 7), [0x22, 0x06, 0x07]),
        (.pageModeStartPage(0), [0xB0]), (.pageModeStartPage(7), [0xB7]),
        (.pageModeStartColumn(0), [0x00, 0x10]), (.pageModeStartColumn(0x7A), [0x0A, 0x17]),
        (.startLine(0), [0x40]), (.startLine(63), [0x7F]),
        (.segmentRemap(false), [0xA0]), (.segmentRemap(true), [0xA1]),
        (.multiplexRatio(rows: 64), [0xA8, 0x3F]), (.multiplexRatio(rows: 32), [0xA8, 0x1F]),
        (.multiplexRatio(rows: 16), [0xA8, 0x0F]),
        (.comScanReversed(false), [0xC0]), (.comScanReversed(true), [0xC8]),
        (.displayOffset(0), [0xD3, 0x00]), (.displayOffset(32), [0xD3, 0x20]),
        (.comPins(0x12), [0xDA, 0x12]), (.comPins(0x02), [0xDA, 0x02]), (.comPins(0x22), [0xDA, 0x22]),
        (.clockDivide(0x80), [0xD5, 0x80]),
        (.precharge(0xF1), [0xD9, 0xF1]), (.precharge(0x22), [0xD9, 0x22]),
        (.vcomhDeselect(0x40), [0xDB, 0x40]), (.vcomhDeselect(0x20), [0xDB, 0x20]),
        (.chargePump(true), [0x8D, 0x14]), (.chargePump(false), [0x8D, 0x10]),
        (.deactivateScroll, [0x2E]), (.nop, [0xE3]),
    ]

    static let sh1106: [(SH1106Command, [UInt8])] = [
        (.columnLow(0x02), [0x02]), (.columnLow(0x81), [0x01]),
        (.columnHigh(0x02), [0x10]), (.columnHigh(0x81), [0x18]),
        (.pumpVoltage(.volts6_4), [0x30]), (.pumpVoltage(.volts7_4), [0x31]),
        (.pumpVoltage(.volts8_0), [0x32]), (.pumpVoltage(.volts9_0), [0x33]),
        (.startLine(0), [0x40]), (.startLine(63), [0x7F]),
        (.contrast(0x80), [0x81, 0x80]),
        (.segmentRemap(false), [0xA0]), (.segmentRemap(true), [0xA1]),
        (.entireDisplayOn(false), [0xA4]), (.entireDisplayOn(true), [0xA5]),
        (.inverted(false), [0xA6]), (.inverted(true), [0xA7]),
        (.multiplexRatio(rows: 64), [0xA8, 0x3F]),
        (.dcDC(true), [0xAD, 0x8B]), (.dcDC(false), [0xAD, 0x8A]),
        (.displayOn(false), [0xAE]), (.displayOn(true), [0xAF]),
        (.page(0), [0xB0]), (.page(7), [0xB7]),
        (.comScanReversed(false), [0xC0]), (.comScanReversed(true), [0xC8]),
        (.displayOffset(0), [0xD3, 0x00]),
        (.clockDivide(0x80), [0xD5, 0x80]), (.clockDivide(0x50), [0xD5, 0x50]),
        (.precharge(0x22), [0xD9, 0x22]),
        (.comPins(0x12), [0xDA, 0x12]), (.comPins(0x02), [0xDA, 0x02]),
        (.vcomDeselect(0x35), [0xDB, 0x35]),
        (.nop, [0xE3]),
    ]

    @Test func testSSD1306Command_EveryCase_EncodesTheDataSheetBytes() {
        for (command, expected) in Self.ssd1306 {
            #expect(command.bytes == expected, "\(command)")
        }
    }

    @Test func testSH1106Command_EveryCase_EncodesTheDataSheetBytes() {
        for (command, expected) in Self.sh1106 {
            #expect(command.bytes == expected, "\(command)")
        }
    }

    @Test func testSSD1306Command_OutOfRangeArguments_AreMaskedNotTrapped() {
        #expect(SSD1306Command.pageModeStartPage(9).bytes == [0xB1])
        #expect(SSD1306Command.startLine(64).bytes == [0x40])
        #expect(SSD1306Command.multiplexRatio(rows: 200).bytes == [0xA8, 0x3F])
        #expect(SSD1306Command.multiplexRatio(rows: 1).bytes == [0xA8, 0x0F])
        #expect(SSD1306Command.comPins(0xFF).bytes == [0xDA, 0x32])
    }

    @Test func testCommands_EncodeIntoABuffer_AppendWithoutReplacing() {
        var buffer = TransmitBuffer(capacity: 16)
        buffer.append(OLEDControlByte.commandStream)
        SSD1306Command.columnAddress(first: 1, last: 2).encode(into: &buffer)
        SH1106Command.page(3).encode(into: &buffer)
        #expect(buffer.bytes == [0x00, 0x21, 0x01, 0x02, 0xB3])
        #expect(buffer.remaining == 11)
    }
}

/// HD44780U Table 6: every instruction's code.
@Suite struct HD44780InstructionTests {
    static let table: [(HD44780Instruction, UInt8)] = [
        (.clearDisplay, 0x01), (.returnHome, 0x02),
        (.entryMode(increment: true, shift: false), 0x06), (.entryMode(increment: false, shift: true), 0x05),
        (.displayControl(display: true, cursor: false, blink: false), 0x0C),
        (.displayControl(display: false, cursor: false, blink: false), 0x08),
        (.displayControl(display: true, cursor: true, blink: true), 0x0F),
        (.cursorShift(display: true, right: true), 0x1C), (.cursorShift(display: false, right: false), 0x10),
        (.functionSet(eightBit: false, twoLines: true, font5x10: false), 0x28),
        (.functionSet(eightBit: true, twoLines: false, font5x10: false), 0x30),
        (.functionSet(eightBit: false, twoLines: false, font5x10: true), 0x24),
        (.setCGRAMAddress(0x08), 0x48), (.setCGRAMAddress(0x7F), 0x7F),
        (.setDDRAMAddress(0x54), 0xD4), (.setDDRAMAddress(0xFF), 0xFF),
    ]

    @Test func testHD44780Instruction_EveryCase_HasTheTable6Code() {
        for (instruction, code) in Self.table { #expect(instruction.code == code, "\(instruction)") }
        #expect(HD44780Instruction.clearDisplay.isLong && HD44780Instruction.returnHome.isLong)
        #expect(!HD44780Instruction.setDDRAMAddress(0).isLong)
    }

    @Test func testHD44780Timing_BitTimes_RoundUp() {
        let fast = HD44780Timing(busClockHz: 400_000)
        #expect(fast.bitTimes(covering: .microseconds(37)) == 15)
        #expect(fast.bitTimes(covering: .microseconds(41)) == 17)
        #expect(HD44780Timing().bitTimes(covering: .microseconds(37)) == 4)
        #expect(HD44780Timing().duration(bitTimes: 20) == .microseconds(200))
        var report = FlushReport()
        report.recordTransaction(payload: 1032 - 1025)
        report.recordTransaction(payload: 1025)
        #expect(report.bitTimes == 9310 && report.wireTime(busClockHz: 400_000) == .microseconds(23_275))
    }
}

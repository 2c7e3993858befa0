import Drivers
import Graphics
import HAL
import HALSim
import Testing

/// Windows, the full frame, SH1106 page writes, no-change flushes.
@Suite struct OLEDFlushTests {
    /// A started driver on a scripted bus (the start transactions already checked).
    static func started(_ profile: OLEDProfile, costModel: OLEDCostModel = .default) throws -> (ScriptedI2CBus, OLEDDisplay<ScriptedI2CBus>) {
        let bus = ScriptedI2CBus()
        var display = OLEDDisplay(bus: bus, profile: profile, costModel: costModel)
        try display.start()  // checked byte for byte in OLEDInitTests
        bus.reset()
        return (bus, display)
    }

    @Test func testSSD1306_OneChangedBlock_IsOneWindowCommandThenData() throws {
        var (bus, display) = try Self.started(.ssd1306_128x64)
        var image = Framebuffer(width: 128, height: 64)
        fill(&image, columns: 10...13, pages: 2...3, 0xA5)
        bus.expect(0x3C, [bytes("00 21 0A 0D 22 02 03"), [0x40] + Array(repeating: 0xA5, count: 8)])
        let report = try display.flush(image)
        bus.finish()
        #expect(report.transactions == 2 && report.payloadBytes == 16 && report.dataBytes == 8 && report.windows == 1)
        #expect(report.bitTimes == 166)  // docs/design/parts.md#the-display: 166 bit-times for the minute tick window
        #expect(!report.fullFrame && !report.reinitialised)
    }

    @Test func testSSD1306_ExpensiveTransactions_UseOneTransactionWithCoBits() throws {
        let model = OLEDCostModel(transactionOverhead: 100)
        var (bus, display) = try Self.started(.ssd1306_128x64, costModel: model)
        #expect(display.framing == .singleTransaction)
        var image = Framebuffer(width: 128, height: 64)
        fill(&image, columns: 10...13, pages: 2...3, 0x3C)
        bus.expect(0x3C, [bytes("80 21 80 0A 80 0D 80 22 80 02 80 03 40") + Array(repeating: 0x3C, count: 8)])
        let report = try display.flush(image)
        bus.finish()
        #expect(report.transactions == 1 && report.payloadBytes == 21)
    }

    @Test func testSSD1306_FullFrame_Is1032BytesInTwoTransactions() throws {
        var (bus, display) = try Self.started(.ssd1306_128x64)
        var rng = SplitMix64(seed: 7)
        let image = frame(.ssd1306_128x64) { _, _ in UInt8(truncatingIfNeeded: rng.next()) | 1 }
        bus.expect(0x3C, [bytes("00 21 00 7F 22 00 07"), [0x40] + image.bytes])
        let report = try display.flush(image)
        bus.finish()
        #expect(report.transactions == 2 && report.payloadBytes == 1032 && report.dataBytes == 1024)
        #expect(report.bitTimes == 9310)  // docs/design/parts.md#the-display
        #expect(report.fullFrame)
    }

    @Test func testSSD1306_FirstFlushWithoutStart_InitialisesClearsSendsTheFrameThenSwitchesOn() throws {
        let bus = ScriptedI2CBus()
        var display = OLEDDisplay(bus: bus, profile: .ssd1306_128x64)
        var image = Framebuffer(width: 128, height: 64)
        fill(&image, columns: 0...127, pages: 0...7, 0x81)
        let start = OLEDInitTests.ssd1306Start(OLEDInitTests.ssd1306_128x64)
        bus.expect(0x3C, Array(start.dropLast()) + [bytes("00 21 00 7F 22 00 07"), [0x40] + image.bytes, [0x00, 0xAF]])
        let report = try display.flush(image)
        bus.finish()
        #expect(report.reinitialised && report.fullFrame && report.transactions == 5)
    }

    @Test func testSSD1306_NothingChanged_SendsNothing() throws {
        var (bus, display) = try Self.started(.ssd1306_128x64)
        let blank = Framebuffer(width: 128, height: 64)
        #expect(try display.flush(blank) == .empty)
        var image = blank
        fill(&image, columns: 0...3, pages: 0...0, 0xFF)
        bus.expect(0x3C, [bytes("00 21 00 03 22 00 00"), bytes("40 FF FF FF FF")])
        _ = try display.flush(image)
        #expect(try display.flush(image) == .empty)
        bus.finish()
    }

    @Test func testSSD1306_SmallGap_IsResentButALargeOneSplitsTheWindow() throws {
        var (bus, display) = try Self.started(.ssd1306_128x64)
        var image = Framebuffer(width: 128, height: 64)
        // Gap of 8 columns: 72 bit-times < one window (134): one window 10–21.
        fill(&image, columns: 10...11, pages: 1...1, 0x11)
        fill(&image, columns: 20...21, pages: 1...1, 0x22)
        bus.expect(0x3C, [bytes("00 21 0A 15 22 01 01"), [0x40] + windowBytes(image, columns: 10...21, pages: 1...1)])
        #expect(try display.flush(image).windows == 1)
        bus.finish()
        // Gap of 28 columns: two windows.
        fill(&image, columns: 50...51, pages: 1...1, 0x33)
        fill(&image, columns: 80...81, pages: 1...1, 0x44)
        bus.expect(0x3C, [bytes("00 21 32 33 22 01 01"), bytes("40 33 33"), bytes("00 21 50 51 22 01 01"), bytes("40 44 44")])
        #expect(try display.flush(image).windows == 2)
        bus.finish()
    }

    @Test func testSSD1306_AdjacentPages_MergeIntoOneWindowWhenCheaper() throws {
        var (bus, display) = try Self.started(.ssd1306_128x64)
        var image = Framebuffer(width: 128, height: 64)
        // Columns 40–45 on page 3, 42–47 on page 4: one window 40–47 × 3–4 (16 bytes) beats two.
        fill(&image, columns: 40...45, pages: 3...3, 0x0F)
        fill(&image, columns: 42...47, pages: 4...4, 0xF0)
        bus.expect(0x3C, [bytes("00 21 28 2F 22 03 04"), [0x40] + windowBytes(image, columns: 40...47, pages: 3...4)])
        #expect(try display.flush(image).windows == 1)
        bus.finish()
        // Far apart on adjacent pages: a window each.
        fill(&image, columns: 0...3, pages: 5...5, 0x01)
        fill(&image, columns: 100...103, pages: 6...6, 0x02)
        bus.expect(0x3C, [bytes("00 21 00 03 22 05 05"), bytes("40 01 01 01 01"),
                          bytes("00 21 64 67 22 06 06"), bytes("40 02 02 02 02")])
        #expect(try display.flush(image).windows == 2)
        bus.finish()
    }

    @Test func testSSD1306_MostlyChanged_SendsTheFullFrame() throws {
        var (bus, display) = try Self.started(.ssd1306_128x64)
        var image = Framebuffer(width: 128, height: 64)
        // Every page changes but for a 3-column gap: resending the gap is cheaper than a
        // second window, and one 8-page window than eight: the full frame.
        for page in 0..<8 {
            fill(&image, columns: 0...60, pages: page...page, 0x55)
            fill(&image, columns: 64...127, pages: page...page, 0xAA)
        }
        bus.expect(0x3C, [bytes("00 21 00 7F 22 00 07"), [0x40] + image.bytes])
        let report = try display.flush(image)
        bus.finish()
        #expect(report.fullFrame && report.payloadBytes == 1032)
    }

    @Test func testSH1106_PageRuns_UseColumnOffsetTwo() throws {
        var (bus, display) = try Self.started(.sh1106_128x64)
        #expect(display.framing == .singleTransaction)
        var image = Framebuffer(width: 128, height: 64)
        fill(&image, columns: 10...13, pages: 2...3, 0x7E)
        fill(&image, columns: 14...17, pages: 5...5, 0x18)
        bus.expect(0x3C, [
            bytes("80 B2 80 0C 80 10 40 7E 7E 7E 7E"),
            bytes("80 B3 80 0C 80 10 40 7E 7E 7E 7E"),
            bytes("80 B5 80 00 80 11 40 18 18 18 18"),
        ])
        let report = try display.flush(image)
        bus.finish()
        #expect(report.windows == 3 && report.payloadBytes == 33)
    }

    @Test func testSH1106_OffsetZeroBoard_WritesFromColumnZero() throws {
        var profile = OLEDProfile.sh1106_128x64
        profile.columnOffset = 0
        var (bus, display) = try Self.started(profile)
        var image = Framebuffer(width: 128, height: 64)
        fill(&image, columns: 0...1, pages: 0...0, 0x01)
        fill(&image, columns: 126...127, pages: 7...7, 0x80)
        bus.expect(0x3C, [bytes("80 B0 80 00 80 10 40 01 01"), bytes("80 B7 80 0E 80 17 40 80 80")])
        _ = try display.flush(image)
        bus.finish()
    }

    @Test func testSH1106_FullFrame_IsEightPagesOf128Columns() throws {
        var (bus, display) = try Self.started(.sh1106_128x64)
        let image = frame(.sh1106_128x64) { page, column in UInt8(page * 16 + column % 16) | 0x80 }
        var expected: [[UInt8]] = []
        for page in 0..<8 {
            expected.append([0x80, 0xB0 + UInt8(page), 0x80, 0x02, 0x80, 0x10, 0x40] + windowBytes(image, columns: 0...127, pages: page...page))
        }
        bus.expect(0x3C, expected)
        let report = try display.flush(image)
        bus.finish()
        #expect(report.fullFrame && report.transactions == 8 && report.payloadBytes == 8 * 135)
    }

    @Test func testSH1106_CommandThenDataFraming_WhenTransactionsAreCheap() throws {
        var (bus, display) = try Self.started(.sh1106_128x64, costModel: OLEDCostModel(transactionOverhead: 0))
        #expect(display.framing == .commandThenData)
        var image = Framebuffer(width: 128, height: 64)
        fill(&image, columns: 0...0, pages: 4...4, 0x42)
        bus.expect(0x3C, [bytes("00 B4 02 10"), bytes("40 42")])
        _ = try display.flush(image)
        bus.finish()
    }

    @Test func testSSD1306_128x32_FlushesFourPages() throws {
        var (bus, display) = try Self.started(.ssd1306_128x32)
        let image = frame(.ssd1306_128x32) { _, _ in 0xFF }
        bus.expect(0x3C, [bytes("00 21 00 7F 22 00 03"), [0x40] + Array(repeating: 0xFF, count: 512)])
        let report = try display.flush(image)
        bus.finish()
        #expect(report.payloadBytes == 520 && report.fullFrame)
    }
}

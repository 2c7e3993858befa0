import HAL
import HALSim
import Testing

/// The display models against what real libraries put on the bus (a model of
/// the data sheet must reproduce the recorded streams pixel for pixel, not echo the driver:
/// docs/design/architecture.md#twins-model-the-data-sheet): every `*.log` of the corpus replayed into the model of the module it was recorded
/// for, every `!snapshot NAME` compared with `NAME_expected.pbm`.
///
/// Expected protocol errors, with the reason:
/// - luma.oled's SH1106 init sends the SSD1306's `20 10` and `8D 14`; u8g2's sends `8D 14`,
///   `20 00` and `2E`. The SH1106 has none of these commands (the corpus README: one-byte no-ops whose
///   arguments then run as column addresses, which every page write sets again).
/// - The negative control (CircuitPython `page_addressing=True`) is broken by design: it must
///   not reproduce its expected image (the corpus README: about 794 pixels differ).
@Suite(.enabled(if: DisplayCorpus.isPresent, "needs ../shared/corpus/displays beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here the I²C streams luma.oled, CircuitPython, u8g2 and luma.lcd send, with the images they must give"))
struct DisplayCorpusConformanceTests {
    static let negativeControls: Set<String> = ["circuitpython_ssd1306_128x64_page_addressing.log"]

    static let expectedUnknownCommands: [String: [UInt8]] = [
        "luma_sh1106_128x64.log": [0x20, 0x8D],
        "u8g2_sh1106.log": [0x8D, 0x20, 0x2E],
    ]

    static func panelLogs() throws -> [String] { try DisplayCorpus.logs().filter { !$0.contains("hd44780") } }

    static func replay(_ name: String) throws -> (PanelLogReplay, any PanelModel) {
        let clock = VirtualClock()
        let (model, address) = DisplayCorpus.model(for: name, clock: clock)
        let replay = PanelLogReplay(try DisplayCorpus.log(name), into: model, at: address, clock: clock)
        return (replay, model)
    }

    @Test("Corpus: every log replays into its model without unacknowledged transactions", arguments: try DisplayCorpus.logs())
    func corpusReplays(log: String) throws {
        let (replay, _) = try Self.replay(log)
        #expect(replay.transactions > 0, "\(log) has transactions")
        #expect(replay.unacknowledged.isEmpty, "\(log): \(replay.unacknowledged.prefix(3))")
        #expect(replay.issues.isEmpty, "\(log): \(replay.issues.prefix(3))")
    }

    @Test("Corpus: every snapshot equals its expected image pixel for pixel", arguments: try panelLogs())
    func corpusSnapshotsMatch(log: String) throws {
        let (replay, model) = try Self.replay(log)
        #expect(!replay.snapshots.isEmpty, "\(log) has snapshots")
        for snapshot in replay.snapshots {
            let expected = try DisplayCorpus.expectedImage(snapshot.name)
            let differing = snapshot.image.differingPixels(from: expected)
            if Self.negativeControls.contains(log) {
                #expect(differing > 500, "\(snapshot.name): the broken driver mode must not reproduce its image")
            } else {
                #expect(
                    differing == 0,
                    "\(snapshot.name): \(differing) pixels differ\n\(PanelImage.differenceArt(expected: expected, actual: snapshot.image))")
            }
        }
        #expect(model.errors.allSatisfy { $0.kind == .unknownCommand }, "\(log): \(model.errors)")
        let unknown = model.errors.compactMap(\.byte)
        #expect(unknown == Self.expectedUnknownCommands[log, default: []], "\(log): \(model.errors.map(\.description))")
    }

    @Test("Corpus: the page-addressing negative control differs by the corpus README's 794 pixels")
    func corpusNegativeControlDiffers() throws {
        let log = "circuitpython_ssd1306_128x64_page_addressing.log"
        let (replay, model) = try Self.replay(log)
        let snapshot = try #require(replay.snapshots.first)
        let differing = snapshot.image.differingPixels(from: try DisplayCorpus.expectedImage(snapshot.name))
        #expect(differing == 794, "the corpus README's figure: \(differing) pixels differ")
        #expect(model.errors.isEmpty, "the stream itself is well-formed: \(model.errors)")
    }

    @Test("Corpus: the HD44780 log shows its two lines, with the backlight on")
    func corpusHD44780Text() throws {
        let (replay, model) = try Self.replay("luma_lcd_hd44780_16x2.log")
        let lcd = try #require(model as? HD44780Backpack)
        #expect(replay.transactions == 480)
        #expect(lcd.lines == ["Reykjavik 23-C  ", "14:05  rain 40% "], "luma.lcd writes ° as '-' (docs/design/parts.md#the-character-lcd)")
        #expect(lcd.backlightOn)
        #expect(lcd.lcd.isInitialised && !lcd.lcd.eightBitInterface && lcd.lcd.twoLines && lcd.lcd.displayOn)
        #expect(lcd.image.litCount > 0)
    }

    @Test("Corpus: the HD44780 log keeps every execution time on a 100 kHz bus")
    func corpusHD44780WireTiming() throws {
        let (_, model) = try Self.replay("luma_lcd_hd44780_16x2.log")
        #expect(model.errors.isEmpty, "\(model.errors.map(\.description).prefix(5))")
    }

    /// The log's stamps are host times from a stubbed bus: consecutive port states are often
    /// 1–3 µs apart, which no I²C transaction allows (one byte takes 200 µs at 100 kHz). Taken as
    /// port-state times, they put the next character's E pulse inside each of 58 data writes
    /// (41 µs), and the second 0x3 of each of luma's four `0x33` pairs inside the function set
    /// before it (37 µs): 62 busy violations, none on a real bus (see the test above).
    @Test("Corpus: the HD44780 log's raw stamps, taken as port-state times, are too close")
    func corpusHD44780RawStamps() throws {
        let clock = VirtualClock()
        let lcd = HD44780Backpack(geometry: .lcd16x2, pinMap: .ywRobot, clock: clock, portTiming: .stamps)
        _ = PanelLogReplay(try DisplayCorpus.log("luma_lcd_hd44780_16x2.log"), into: lcd, at: 0x27, clock: clock)
        #expect(lcd.errors.allSatisfy { $0.kind == .busy }, "\(lcd.errors.prefix(3).map(\.description))")
        #expect(lcd.errors.filter { $0.message.contains("data write") }.count == 58)
        #expect(lcd.errors.filter { $0.message.contains("function set") || $0.message.contains("instruction 0x30") }.count == 4)
        #expect(lcd.errors.count == 62)
        #expect(lcd.lines == ["Reykjavik 23-C  ", "14:05  rain 40% "], "the model runs every transfer anyway")
    }
}

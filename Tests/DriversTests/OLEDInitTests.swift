import Drivers
import Foundation
import Graphics
import HAL
import Testing

/// The initialisation sequences, byte for byte, against docs/design/parts.md#initialisation-sequences.
@Suite struct OLEDInitTests {
    static let ssd1306_128x64 = "AE D5 80 A8 3F D3 00 40 8D 14 20 00 A1 C8 DA 12 81 CF D9 F1 DB 40 A4 A6 2E"
    static let ssd1306_128x32 = "AE D5 80 A8 1F D3 00 40 8D 14 20 00 A1 C8 DA 02 81 8F D9 F1 DB 40 A4 A6 2E"
    static let sh1106_128x64 = "AE D5 80 A8 3F D3 00 40 AD 8B A1 C8 DA 12 81 80 D9 22 DB 35 A4 A6"

    /// The transactions `start()` sends for an SSD1306: the commands with the RAM window,
    /// all of RAM cleared in one write, then display on.
    static func ssd1306Start(_ commands: String) -> [[UInt8]] {
        [[0x00] + bytes(commands) + bytes("21 00 7F 22 00 07"), [0x40] + Array(repeating: 0, count: 1024), [0x00, 0xAF]]
    }

    /// The transactions `start()` sends for an SH1106: the commands, 8 pages of 132 zero
    /// bytes from column 0 (one transaction each: Co = 1 window commands), display on.
    static func sh1106Start(_ commands: String) -> [[UInt8]] {
        var transactions = [[0x00] + bytes(commands)]
        for page in 0..<8 {
            transactions.append([0x80, 0xB0 + UInt8(page), 0x80, 0x00, 0x80, 0x10, 0x40] + Array(repeating: 0, count: 132))
        }
        return transactions + [[0x00, 0xAF]]
    }

    @Test(arguments: [
        ("ssd1306_128x64", OLEDProfile.ssd1306_128x64, ssd1306_128x64),
        ("ssd1306_128x32", OLEDProfile.ssd1306_128x32, ssd1306_128x32),
        ("sh1106_128x64", OLEDProfile.sh1106_128x64, sh1106_128x64),
    ])
    func testOLEDInit_Profiles_MatchTheSuggestedSequences(name: String, profile: OLEDProfile, commands: String) {
        #expect(profile.problem == nil)
        #expect(profile.initialisationCommands() == bytes(commands), "\(name)")
    }

    @Test func testOLEDInit_SSD1306Start_ClearsAllRAMBeforeDisplayOn() throws {
        let bus = ScriptedI2CBus()
        bus.expect(0x3C, Self.ssd1306Start(Self.ssd1306_128x64))
        var display = OLEDDisplay(bus: bus, profile: .ssd1306_128x64)
        let report = try display.start()
        bus.finish()
        #expect(report.transactions == 3)
        #expect(report.payloadBytes == 32 + 1025 + 2)
        #expect(report.dataBytes == 1024)
        #expect(report.reinitialised)
        #expect(!display.needsInitialisation)
    }

    @Test func testOLEDInit_SSD1306_128x32Start_ClearsAllEightPages() throws {
        let bus = ScriptedI2CBus()
        bus.expect(0x3C, Self.ssd1306Start(Self.ssd1306_128x32))
        var display = OLEDDisplay(bus: bus, profile: .ssd1306_128x32)
        try display.start()
        bus.finish()
    }

    @Test func testOLEDInit_SH1106Start_ClearsAll132ColumnsOfEveryPage() throws {
        let bus = ScriptedI2CBus()
        bus.expect(0x3C, Self.sh1106Start(Self.sh1106_128x64))
        var display = OLEDDisplay(bus: bus, profile: .sh1106_128x64)
        let report = try display.start()
        bus.finish()
        #expect(report.transactions == 10)
        #expect(report.dataBytes == 8 * 132)
    }

    @Test func testOLEDInit_ExternalVCC_TurnsThePumpOffAndUsesItsPrecharge() {
        let ssd = OLEDProfile.ssd1306_128x64.withExternalVCC().initialisationCommands()
        #expect(ssd == bytes("AE D5 80 A8 3F D3 00 40 8D 10 20 00 A1 C8 DA 12 81 CF D9 22 DB 40 A4 A6 2E"))
        let sh = OLEDProfile.sh1106_128x64.withExternalVCC().initialisationCommands()
        #expect(sh == bytes("AE D5 80 A8 3F D3 00 40 AD 8A A1 C8 DA 12 81 80 D9 22 DB 35 A4 A6"))
    }

    @Test func testOLEDInit_UpsideDown_UsesA0C0() {
        var profile = OLEDProfile.ssd1306_128x64
        profile.rotation = .upsideDown
        #expect(profile.initialisationCommands() == bytes("AE D5 80 A8 3F D3 00 40 8D 14 20 00 A0 C0 DA 12 81 CF D9 F1 DB 40 A4 A6 2E"))
        #expect(OLEDProfile.sh1106_128x64.initialisationCommands(rotation: .upsideDown)
            == bytes("AE D5 80 A8 3F D3 00 40 AD 8B A0 C0 DA 12 81 80 D9 22 DB 35 A4 A6"))
    }

    @Test func testOLEDInit_SettingsMadeBeforeStart_AreInTheInitialisation() throws {
        let bus = ScriptedI2CBus()
        var display = OLEDDisplay(bus: bus, profile: .ssd1306_128x64)
        // Nothing is sent before start: the settings wait for the initialisation.
        #expect(try display.setBrightness(.dim) == .empty)
        try display.setInverted(true)
        try display.sleep()
        #expect(bus.sent.isEmpty)
        let commands = "AE D5 80 A8 3F D3 00 40 8D 14 20 00 A1 C8 DA 12 81 01 D9 11 DB 40 A4 A7 2E"
        bus.expect(0x3C, Array(Self.ssd1306Start(commands).dropLast()))  // asleep: no AF
        try display.start()
        bus.finish()
    }

    @Test func testOLEDProfile_Customised_ReportsProblems() {
        var profile = OLEDProfile.sh1106_128x64
        profile.columnOffset = 5
        #expect(profile.problem != nil)
        profile.columnOffset = 0
        #expect(profile.problem == nil)
        #expect(profile.columnOffset(for: .upsideDown) == 4)
        #expect(OLEDProfile.sh1106_128x64.columnOffset(for: .upsideDown) == 2)
        profile.comPins = 0x22
        #expect(profile.problem != nil)
        var short = OLEDProfile.ssd1306_128x32
        short.comPins = 0x22
        short.address = 0x3D
        #expect(short.problem == nil)
        short.height = 20
        #expect(short.problem != nil)
    }

    /// The design's table of initialisation sequences (docs/design/parts.md, "Suggested
    /// sequences"): the sequences here are the ones it gives, so the two cannot drift apart.
    @Test func testOLEDInit_Sequences_AreTheOnesTheDesignGives() throws {
        let text = try String(contentsOf: designURL, encoding: .utf8)
        let suggested = text.components(separatedBy: "Suggested sequences").last ?? ""
        for sequence in [Self.ssd1306_128x64, Self.sh1106_128x64] {
            #expect(suggested.contains("`\(sequence)`"), "\(sequence)")
        }
        #expect(suggested.contains("`A8 1F`") && suggested.contains("`DA 02`") && suggested.contains("`81 8F`"))
    }
}

let designURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("docs/design/parts.md")

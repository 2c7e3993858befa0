import Foundation
import HAL
import Testing

@testable import Board
import Drivers

/// The board files in `board/` are what makers copy; every one of them must pass the check,
/// and the reference build must say exactly what docs/design/architecture.md#the-reference-device describes.
@Suite("Shipped board files")
struct ShippedBoardFileTests {
    /// `<package>/board/`, found from this file's path so the test runs from any directory.
    static let boardDirectory = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "board")

    static func load(_ name: String) throws -> Result<BoardConfig, BoardProblems> {
        let data = try Data(contentsOf: boardDirectory.appending(path: name))
        return BoardFile.check(Array(data))
    }

    static let shipped = ["raspberry-pi-4.json", "raspberry-pi-5.json", "raspberry-pi-5-sh1106.json", "pi-zero-hd44780.json", "desk-simulated.json"]

    @Test("every shipped board file is valid", arguments: shipped)
    func testShipped_File_IsValid(name: String) throws {
        let result = try Self.load(name)
        if case .failure(let problems) = result {
            Issue.record("\(name):\n\(problems)")
        }
    }

    @Test("no board file in board/ is left out of the list above")
    func testShipped_Directory_IsCovered() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.boardDirectory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(files == Self.shipped.sorted())
    }

    @Test("the reference build is the one docs/design/architecture.md#the-reference-device describes")
    func testShipped_ReferenceBuild_MatchesArchitecture() throws {
        let config = try Self.load("raspberry-pi-4.json").get()
        #expect(config.gps == GPSConfig(device: "/dev/serial0", baud: .fixed(.b9600)))
        #expect(config.display.kind == .ssd1306)
        #expect(config.display.geometry == .oled128x64)
        #expect(config.display.address.value == 0x3C)
        #expect(config.display.bus.path == "/dev/i2c-1")
        #expect(config.display.summary == "SSD1306 128x64 at 0x3C on /dev/i2c-1")
        #expect(config.buttons.map(\.line) == [.name("GPIO17"), .name("GPIO27"), .name("GPIO22")])
        #expect(config.buttons.allSatisfy { $0.chip == "pinctrl-bcm2711" && $0.activeLow && $0.bias == .pullUp })
        #expect(config.buttons.map(\.press) == [.cycleTemperatureUnit, .cycleUnits, .cycleTimeNotation])
        #expect(config.buttons.map(\.longPress) == [.nextLocation, .savePosition, .nextScreen])
        #expect(config.sensor?.kind == .bme280)
        #expect(config.sensor?.address.value == 0x76)
        #expect(config.timeZone == nil)
    }

    @Test("the Pi 5 build finds its chip by label and hunts the baud rate")
    func testShipped_Pi5_UsesLabelAndAutoBaud() throws {
        let config = try Self.load("raspberry-pi-5-sh1106.json").get()
        #expect(config.gps.baud == .auto)
        #expect(config.gps.device == "/dev/ttyACM0")
        #expect(config.display.controller == .sh1106(OLEDOptions(columnOffset: 2, rotation: .upsideDown, externalVCC: false)))
        #expect(config.buttons.count == 2)
        #expect(config.buttons.allSatisfy { $0.chip == "pinctrl-rp1" })
        // The sensor's bus is not written in the file: it follows the display's.
        #expect(config.sensor?.bus == config.display.bus)
    }

    @Test("the Pi 5 build takes its GPS on the header UART0 (/dev/ttyAMA0) and its buttons on the RP1 by label")
    func testShipped_Pi5_HeaderUART() throws {
        let config = try Self.load("raspberry-pi-5.json").get()
        #expect(config.gps == GPSConfig(device: "/dev/ttyAMA0", baud: .fixed(.b9600)))
        #expect(config.buttons.map(\.line) == [.name("GPIO17"), .name("GPIO27"), .name("GPIO22")])
        #expect(config.buttons.allSatisfy { $0.chip == "pinctrl-rp1" && !$0.simulated })
        #expect(config.simulatedParts.isEmpty)
    }

    @Test("the desk build simulates every part and so runs anywhere")
    func testShipped_Desk_EverythingSimulated() throws {
        let config = try Self.load("desk-simulated.json").get()
        #expect(config.simulatedParts == ["gps", "display", "buttons", "sensor", "weather"])
        #expect(config.buttons.map(\.line) == [.simulated, .simulated, .simulated])
        #expect(config.display.onStop == .off)
    }

    @Test("the Pi Zero build has a 20x4 LCD and no sensor")
    func testShipped_PiZero_HasCharacterLCD() throws {
        let config = try Self.load("pi-zero-hd44780.json").get()
        #expect(config.display.controller == .hd44780(.ywrobot))
        #expect(config.display.geometry == .lcd20x4)
        #expect(config.display.address.value == 0x27)
        #expect(config.sensor == nil)
        #expect(config.buttons.count == 4)
        #expect(config.buttons.allSatisfy { $0.chip == "pinctrl-bcm2835" })
        #expect(config.buttons[3].press == .nextScreen)
        #expect(config.display.onStop == .message)
    }
}

/// What a file gets when it leaves optional fields out.
@Suite("Board file defaults")
struct BoardDefaultTests {
    @Test("a minimal OLED build gets the documented defaults")
    func testDefaults_MinimalOLED_Applied() throws {
        let config = try BoardConfig(json: Array(BrokenDocuments.minimal(sensor: false, buttons: 4).utf8))
        #expect(config.gps.baud == .auto)
        #expect(config.display.controller == .ssd1306(OLEDOptions(columnOffset: 0, rotation: .normal, externalVCC: false)))
        #expect(config.display.geometry == .oled128x64)
        #expect(config.display.bus.number == 1)
        #expect(config.display.address.value == 0x3C)
        #expect(config.buttons.allSatisfy { $0.activeLow && $0.bias == .pullUp && $0.chip == nil })
        #expect(config.buttons.map(\.press) == [.cycleTemperatureUnit, .cycleUnits, .cycleTimeNotation, .none])
        #expect(config.buttons.map(\.longPress) == [.nextLocation, .savePosition, .nextScreen, .none])
        #expect(config.sensor == nil)
        #expect(config.timeZone == nil)
    }

    @Test("kind-specific defaults: SH1106 offset 2, HD44780 at 0x27, 16x2, YwRobot backpack")
    func testDefaults_PerKind_Applied() throws {
        let sh1106 = BrokenDocuments.minimal().replacing(#""kind": "ssd1306""#, with: #""kind": "sh1106""#)
        let oled = try BoardConfig(json: Array(sh1106.utf8))
        #expect(oled.display.controller == .sh1106(OLEDOptions(columnOffset: 2, rotation: .normal, externalVCC: false)))

        let lcd = BrokenDocuments.minimal().replacing(#""kind": "ssd1306""#, with: #""kind": "hd44780""#)
        let config = try BoardConfig(json: Array(lcd.utf8))
        #expect(config.display.controller == .hd44780(.ywrobot))
        #expect(config.display.geometry == .lcd16x2)
        #expect(config.display.address.value == 0x27)
        #expect(config.display.summary == "HD44780 16x2 at 0x27 on /dev/i2c-1, ywrobot backpack")
    }

    @Test("shop spellings of the size, numeric addresses and _comment keys are accepted")
    func testDefaults_LenientSpellings_Accepted() throws {
        let text = BrokenDocuments.minimal(sensor: true)
            .replacing(#""kind": "ssd1306""#, with: #""kind": "ssd1306", "geometry": "128 × 32", "_comment": "yellow/blue""#)
            .replacing(#""address": "0x76""#, with: #""address": 119"#)
        let config = try BoardConfig(json: Array(text.utf8))
        #expect(config.display.geometry == .oled128x32)
        #expect(config.display.geometry.comPins == 0x02)
        #expect(config.sensor?.address.value == 0x77)
    }
}

/// The board file's display section, handed to the drivers.
@Suite struct DisplayDriverMappingTests {
    @Test func sh1106WithOffsetAndRotationBecomesTheDriverProfile() throws {
        let config = DisplayConfig(
            controller: .sh1106(OLEDOptions(columnOffset: 0, rotation: .upsideDown, externalVCC: false)),
            geometry: .oled128x64, bus: I2CBusPath(number: 1), address: try #require(I2CAddress(0x3D)))
        let profile = try #require(config.oledProfile)
        #expect(profile.controller == .sh1106 && profile.ramColumns == 132)
        #expect(profile.columnOffset == 0 && profile.rotation == .upsideDown && profile.address == 0x3D)
        #expect(config.characterLCD == nil)
    }

    @Test func ssd1306With32RowsAndExternalSupply() throws {
        let config = DisplayConfig(
            controller: .ssd1306(OLEDOptions(columnOffset: 0, rotation: .normal, externalVCC: true)),
            geometry: .oled128x32, bus: I2CBusPath(number: 1), address: try #require(I2CAddress(0x3C)))
        let profile = try #require(config.oledProfile)
        #expect(profile.height == 32 && profile.comPins == 0x02 && profile.externalVCC)
        // Charge pump off (8D 10) and the external-VCC pre-charge (D9 22), as Adafruit_SSD1306 does.
        let commands = profile.initialisationCommands(rotation: .normal, inverted: false, brightness: .normal)
        #expect(commands.indices.dropLast().contains { commands[$0] == 0x8D && commands[$0 + 1] == 0x10 })
        #expect(commands.indices.dropLast().contains { commands[$0] == 0xD9 && commands[$0 + 1] == 0x22 })
    }

    @Test func characterLCDGetsItsGeometryAndPinMap() throws {
        let config = DisplayConfig(
            controller: .hd44780(.mjkdz), geometry: .lcd20x4, bus: I2CBusPath(number: 1),
            address: try #require(I2CAddress(0x27)))
        let lcd = try #require(config.characterLCD)
        #expect(lcd.geometry == .lcd20x4 && lcd.pins == .mjkdz)
        #expect(config.oledProfile == nil)
    }
}

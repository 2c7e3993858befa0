import Foundation
import Graphics
import HAL
import HALSim
import Screens
import Testing

/// `thunderstorm glass` run as the virtual board runs it: every sample scene drawn through the
/// real driver by `snapshot --i2c-log`, its `!snapshot` lines stripped (a daemon writes none),
/// replayed, and the text read back where the layout draws it — and not read from a log whose
/// column addresses or glyph bytes are wrong.
@Suite("glass end to end")
struct GlassCommandTests {
    typealias E2E = BoardCheckEndToEndTests

    static let oleds = ["ssd1306-128x64", "ssd1306-128x32", "sh1106-128x64"]
    static let displays = oleds + ["hd44780-16x2", "hd44780-20x4"]

    /// The scene's log from `snapshot --i2c-log`, without its `!snapshot` lines.
    static func recorded(_ display: String, _ scene: SampleScene, in directory: URL) throws -> GlassLog {
        let file = directory.appending(path: "\(display)-\(scene.rawValue).log")
        let run = try E2E.run(["snapshot", "--display", display, "--scene", scene.rawValue, "--i2c-log", file.path])
        try #require(run.status == 0, "\(run.stderr)")
        return GlassLog(try String(contentsOf: file, encoding: .utf8)).withoutSnapshots()
    }

    /// `glass` on `log` (written to a file) with `arguments`; its JSON object when it exits 0.
    static func glass(_ log: GlassLog, _ arguments: [String], in directory: URL) throws -> (run: E2E.Run, json: [String: Any]?) {
        let file = directory.appending(path: "glass-\(UUID().uuidString).log")
        try Data(log.text.utf8).write(to: file)
        let run = try E2E.run(["glass", file.path] + arguments)
        let json = run.status == 0 ? try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] : nil
        return (run, json)
    }

    /// The OLED strings and icons of a `glass` object.
    static func reading(_ json: [String: Any]) -> GlassReading {
        let text = (json["text"] as? [[String: Any]] ?? []).compactMap { item -> GlassText? in
            guard let text = item["text"] as? String, let x = item["x"] as? Int, let y = item["y"] as? Int,
                  let font = (item["font"] as? String).flatMap(GlassFont.init(rawValue:)) else { return nil }
            return GlassText(text, x: x, y: y, font: font)
        }
        let icons = (json["icons"] as? [[String: Any]] ?? []).compactMap { item -> GlassIcon? in
            guard let name = item["icon"] as? String, let icon = ConditionGroup(rawValue: name), let night = item["night"] as? Bool,
                  let x = item["x"] as? Int, let y = item["y"] as? Int, let side = item["size"] as? Int else { return nil }
            return GlassIcon(icon: icon, night: night, size: side == 16 ? .small : .large, x: x, y: y)
        }
        return GlassReading(
            text: text, icons: icons, litPixels: json["litPixels"] as? Int ?? -1, unreadPixels: json["unreadPixels"] as? Int ?? -1)
    }

    static func size(_ display: String) -> (width: Int, height: Int) { display.hasSuffix("x32") ? (128, 32) : (128, 64) }

    /// What the layout draws for the last frame of `scene` on the OLED `display`.
    static func layout(_ display: String, _ scene: SampleScene) -> OLEDLayout {
        let (width, height) = size(display)
        return OLEDLayout(scene.frames.last!, scene.screen, width: width, height: height)
    }

    // MARK: - Every display and scene

    @Test("every sample scene reads back as the layout draws it", arguments: displays)
    func testGlass_EveryScene_ReadsWhatTheLayoutDraws(display: String) throws {
        let directory = try SnapshotCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for scene in SampleScene.allCases {
            let (run, json) = try Self.glass(try Self.recorded(display, scene, in: directory), ["--display", display], in: directory)
            let object = try #require(json, "\(display) \(scene): exit \(run.status) \(run.stderr)")
            #expect(run.stderr.isEmpty && run.stdout.split(separator: "\n").count == 1)
            #expect(object["display"] as? String == display && object["input"] as? String == "log")
            #expect((object["modelErrors"] as? [Any])?.isEmpty == true, "\(display) \(scene)")
            #expect(object["transactions"] as? Int ?? 0 > 0 && object["otherTransactions"] as? Int == 0)
            if display.hasPrefix("hd44780") {
                let columns = display.hasSuffix("16x2") ? 16 : 20
                var frame = CharacterFrame(columns: columns, rows: columns == 16 ? 2 : 4)
                CharacterScreens.render(scene.frames.last!, scene.screen, into: &frame)
                let expected = CharacterLayout.expected(frame)
                #expect(object["rows"] as? [String] == expected.rows, "\(display) \(scene)")
                let pictures = (object["pictures"] as? [[String: Any]] ?? []).map {
                    CharacterGlassReading.Picture(column: $0["column"] as? Int ?? -1, row: $0["row"] as? Int ?? -1, name: $0["picture"] as? String)
                }
                #expect(pictures == expected.pictures, "\(display) \(scene)")
                continue
            }
            let reading = Self.reading(object)
            let layout = Self.layout(display, scene)
            #expect(!layout.texts.isEmpty)
            for drawn in layout.texts {
                #expect(reading.contains(drawn.text, x: drawn.x, y: drawn.y, font: drawn.font), "\(display) \(scene): \(drawn) not in \(reading.text)")
            }
            #expect(reading.icons.sorted { ($0.y, $0.x) < ($1.y, $1.x) } == layout.icons.sorted { ($0.y, $0.x) < ($1.y, $1.x) }, "\(display) \(scene)")
            // The Moon discs are pictures no template reads: their pixels, and only those, stay unread.
            #expect(reading.unreadPixels == layout.moonPixels + layout.arrowPixels || layout.cutsAGlyph || layout.hasPictures, "\(display) \(scene): \(reading.unreadPixels) lit pixels not read, \(layout.moonPixels) of them Moon")
        }
    }

    // MARK: - A wrong log does not read right

    @Test("column addresses one off: no string reads at its place", arguments: oleds)
    func testGlass_ColumnsOffByOne_NothingReadsInPlace(display: String) throws {
        let directory = try SnapshotCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for scene in SampleScene.allCases {
            var log = try Self.recorded(display, scene, in: directory)
            let edits = log.shiftColumns()
            #expect(edits > 0, "\(display) \(scene): no column address in the log")
            let object = try #require(try Self.glass(log, ["--display", display], in: directory).json)
            let reading = Self.reading(object)
            for drawn in Self.layout(display, scene).texts {
                #expect(!reading.contains(drawn.text, x: drawn.x, y: drawn.y, font: drawn.font), "\(display) \(scene): \(drawn) still read")
            }
        }
    }

    @Test("a garbled byte in a glyph: that string is gone, the others stay", arguments: oleds)
    func testGlass_GarbledGlyphByte_TheStringDisappears(display: String) throws {
        let directory = try SnapshotCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let offset = display.hasPrefix("sh1106") ? 2 : 0
        let layout = Self.layout(display, .now)
        let clean = try Self.recorded(display, .now, in: directory)
        for target in layout.texts where target.text.count >= 2 {
            var log = clean
            let row = max(target.y, 0) + 4
            let garbled = log.garble(page: row / 8, column: target.x + 2 + offset, bit: row % 8)
            #expect(garbled, "\(display): no byte drew \(target)")
            let reading = Self.reading(try #require(try Self.glass(log, ["--display", display], in: directory).json))
            #expect(!reading.contains(target.text, x: target.x, y: target.y, font: target.font), "\(display): \(target) still read")
            #expect(!reading.text.contains { $0.text.contains(target.text) }, "\(display): \(target) read elsewhere: \(reading.text)")
            for other in layout.texts where other.y != target.y || other.font != target.font {
                #expect(reading.contains(other.text, x: other.x, y: other.y, font: other.font), "\(display): \(other) lost with \(target)")
            }
        }
    }

    // MARK: - A real bus

    @Test("BME280 traffic at 0x76 between the panel's: the same glass", arguments: displays)
    func testGlass_SensorTrafficInterleaved_ReplaysIdentically(display: String) throws {
        let directory = try SnapshotCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = try Self.recorded(display, .clockTick, in: directory)
        let (mixed, added) = plain.interleavingSensor(every: 3)
        var a = try #require(try Self.glass(plain, ["--display", display], in: directory).json)
        var b = try #require(try Self.glass(mixed, ["--display", display], in: directory).json)
        #expect(added > 0 && b["otherTransactions"] as? Int == added)
        a["otherTransactions"] = nil
        b["otherTransactions"] = nil
        #expect(NSDictionary(dictionary: a).isEqual(to: b), "\(a)\n\(b)")
    }

    @Test("--until reads the glass as it was then", arguments: ["ssd1306-128x64", "hd44780-16x2"])
    func testGlass_Until_ReadsTheEarlierFrame(display: String) throws {
        let directory = try SnapshotCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try Self.recorded(display, .clockTick, in: directory)
        let late = try #require(try Self.glass(log, ["--display", display], in: directory).json)
        let early = try #require(try Self.glass(log, ["--display", display, "--until", "30"], in: directory).json)
        let texts = { (json: [String: Any]) in (json["text"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String } }
        #expect(texts(late).contains("14:06") && !texts(late).contains("14:05"))
        #expect(texts(early).contains("14:05") && !texts(early).contains("14:06"))
        #expect((late["lastTime"] as? Double ?? 0) >= 60 && (early["lastTime"] as? Double ?? 99) < 30)
        #expect(early["transactions"] as? Int ?? 0 < late["transactions"] as? Int ?? 0)
    }

    @Test("a PBM of the glass reads as the replayed log does", arguments: ["sh1106-128x64", "ssd1306-128x32", "hd44780-20x4"])
    func testGlass_PBMInput_ReadsLikeTheLog(display: String) throws {
        let directory = try SnapshotCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = directory.appending(path: "glass.pbm")
        let log = try Self.recorded(display, .now, in: directory)
        let replayed = try #require(try Self.glass(log, ["--display", display, "--pbm", image.path], in: directory).json)
        for arguments in [["--pbm-in", image.path], [image.path]] {
            let run = try E2E.run(["glass", "--display", display] + arguments)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
            #expect(object["input"] as? String == "pbm" && object["transactions"] == nil)
            for key in ["text", "icons", "rows", "pictures", "unreadPixels"] {
                #expect((object[key] as? NSObject) == (replayed[key] as? NSObject), "\(display) \(arguments): \(key)")
            }
        }
    }
}

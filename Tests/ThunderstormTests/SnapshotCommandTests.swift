import Foundation
import HALSim
import Testing

/// `thunderstorm snapshot` run as a user runs it: the built executable drawing every sample
/// scene through the real drivers onto the simulated panels, its JSON, the image files and the
/// I²C log (docs/reference/i2c-log.md; the minute-tick budget of docs/design/measurements.md#targets).
@Suite("snapshot end to end")
struct SnapshotCommandTests {
    typealias E2E = BoardCheckEndToEndTests

    static let displays = ["ssd1306-128x64", "ssd1306-128x32", "sh1106-128x64", "hd44780-16x2", "hd44780-20x4"]
    static let scenes = ["now", "hours", "days", "indoor", "status", "no-fix", "error", "clock-tick"]

    /// The glass of each display in pixels (an HD44780 cell is 5×8 dots, one dark pixel apart).
    static let glass: [String: (width: Int, height: Int)] = [
        "ssd1306-128x64": (128, 64), "ssd1306-128x32": (128, 32), "sh1106-128x64": (128, 64),
        "hd44780-16x2": (16 * 6 - 1, 2 * 9 - 1), "hd44780-20x4": (20 * 6 - 1, 4 * 9 - 1),
    ]

    /// The controller model a replay needs for `display`, fresh from power-on, and its address.
    static func freshPanel(_ display: String, clock: VirtualClock) -> (any PanelModel, UInt8)? {
        switch display {
        case "ssd1306-128x64": (OLEDControllerModel(.ssd1306_128x64), 0x3C)
        case "ssd1306-128x32": (OLEDControllerModel(.ssd1306_128x32), 0x3C)
        case "sh1106-128x64": (OLEDControllerModel(.sh1106_128x64(columnOffset: 2)), 0x3C)
        case "hd44780-16x2": (HD44780Backpack(geometry: .lcd16x2, pinMap: .ywRobot, clock: clock), 0x27)
        case "hd44780-20x4": (HD44780Backpack(geometry: .lcd20x4, pinMap: .ywRobot, clock: clock), 0x27)
        default: nil
        }
    }

    /// A fresh temporary directory, removed by the caller.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "snapshot-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `snapshot` with `arguments`, which must succeed, and returns its JSON object.
    static func snapshot(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let run = try E2E.run(["snapshot"] + arguments)
        #expect(run.status == 0, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr.isEmpty, "\(arguments)", sourceLocation: sourceLocation)
        #expect(run.stdout.hasSuffix("}\n") && run.stdout.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
        return try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], sourceLocation: sourceLocation)
    }

    static func frames(_ object: [String: Any]) throws -> [[String: Any]] {
        try #require(object["frames"] as? [[String: Any]])
    }

    static func number(_ frame: [String: Any], _ key: String) -> Int { frame[key] as? Int ?? -1 }

    static func wireMicroseconds(_ frame: [String: Any], _ clock: String) -> Double {
        (frame["wireMicroseconds"] as? [String: Any])?[clock] as? Double ?? -1
    }

    // MARK: - Every display × scene

    @Test("every display and scene: exit 0, JSON with the start and each frame, no model errors", arguments: displays)
    func testSnapshot_EveryScene_PrintsJSONWithoutModelErrors(display: String) throws {
        for scene in Self.scenes {
            let object = try Self.snapshot(["--display", display, "--scene", scene])
            #expect(object["display"] as? String == display)
            #expect(object["scene"] as? String == scene)
            #expect((object["modelErrors"] as? [Any])?.isEmpty == true, "\(display) \(scene): \(object["modelErrors"] ?? "?")")
            let frames = try Self.frames(object)
            #expect(frames.count == (scene == "clock-tick" ? 3 : 2), "\(display) \(scene)")
            for (index, frame) in frames.enumerated() {
                #expect(Self.number(frame, "frame") == index)
                #expect(frame["what"] as? String == (index == 0 ? "start" : "frame"))
                for key in ["transactions", "payloadBytes", "dataBytes", "windows"] {
                    #expect(Self.number(frame, key) >= 0, "\(display) \(scene) frame \(index): \(key)")
                }
                #expect(frame["fullFrame"] is Bool)
                // 1 + 9·(1 + n) + 1 bit-times per transaction: 10 µs each at 100 kHz, 2.5 µs at 400 kHz.
                let bitTimes = 9 * Self.number(frame, "payloadBytes") + 11 * Self.number(frame, "transactions")
                #expect(Self.wireMicroseconds(frame, "100kHz") == Double(bitTimes) * 10)
                #expect(Self.wireMicroseconds(frame, "400kHz") == Double(bitTimes) * 2.5)
            }
            // Every scene draws something on a panel that was blank after the start.
            #expect(Self.number(frames[1], "transactions") >= 1 && Self.number(frames[1], "dataBytes") > 0, "\(display) \(scene)")
        }
    }

    // MARK: - The minute tick (docs/design/measurements.md#targets)

    @Test("clock-tick on the SSD1306 128×64: the first frame costs no more than a full frame, the tick ≤ 64 bytes")
    func testSnapshot_ClockTickSSD1306_MeetsTheBudget() throws {
        let frames = try Self.frames(try Self.snapshot(["--display", "ssd1306-128x64", "--scene", "clock-tick"]))
        try #require(frames.count == 3)
        // The start clears all 1,024 bytes of RAM (and sends the initialisation and display on).
        #expect(Self.number(frames[0], "dataBytes") == 1024)
        // The first frame goes to a blank panel: only what is not blank, never more than a full
        // frame (1,025 bytes of data with its control byte after one window command) on the wire.
        let first = frames[1]
        #expect(Self.number(first, "payloadBytes") <= 1032)
        #expect(Self.number(first, "dataBytes") <= 1024)
        let fullFrameBitTimes = (1 + 9 * (1 + 7) + 1) + (1 + 9 * (1 + 1025) + 1)
        #expect(Self.wireMicroseconds(first, "100kHz") <= Double(fullFrameBitTimes) * 10)
        let tick = frames[2]
        #expect(Self.number(tick, "payloadBytes") <= 64, "\(tick)")
        #expect(Self.number(tick, "transactions") <= 2)
        #expect(tick["fullFrame"] as? Bool == false)
    }

    @Test("clock-tick: the minute tick is ≤ 64 payload bytes on every display", arguments: displays)
    func testSnapshot_ClockTick_IsSmallOnEveryDisplay(display: String) throws {
        let frames = try Self.frames(try Self.snapshot(["--display", display, "--scene", "clock-tick"]))
        try #require(frames.count == 3)
        let tick = frames[2]
        #expect(Self.number(tick, "payloadBytes") <= 64, "\(display): \(tick)")
        #expect(Self.number(tick, "payloadBytes") < Self.number(frames[1], "payloadBytes"))
        if display.hasPrefix("hd44780") {
            // One changed character: its DDRAM address and the character, in one transaction.
            #expect(Self.number(tick, "transactions") == 1)
            #expect(Self.number(tick, "dataBytes") == 1)
        }
    }

    // MARK: - Image files

    @Test("--pbm writes the glass at its size, not blank; --png is a PNG of the scaled size", arguments: displays)
    func testSnapshot_ImageFiles_HaveTheGlassSize(display: String) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let size = try #require(Self.glass[display])
        let pbm = dir.appending(path: "now.pbm")
        let png = dir.appending(path: "now.png")
        let png2 = dir.appending(path: "now-2.png")
        _ = try Self.snapshot(["--display", display, "--scene", "now", "--pbm", pbm.path, "--png", png.path])
        _ = try Self.snapshot(["--display", display, "--scene", "now", "--png", png2.path, "--scale", "2"])

        let image = try PanelImage(pbm: try Data(contentsOf: pbm))
        #expect(image.width == size.width && image.height == size.height)
        #expect(image.litCount > 0)
        #expect(image.litCount < image.width * image.height)

        for (file, scale) in [(png, 4), (png2, 2)] {
            let bytes = [UInt8](try Data(contentsOf: file))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            try #require(bytes.count > 24)
            #expect(Array(bytes[12..<16]) == Array("IHDR".utf8))
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == size.width * scale && height == size.height * scale, "\(file.lastPathComponent)")
            // The same picture as the PBM, scaled.
            #expect(bytes == image.png(scale: scale))
        }
    }

    @Test("a %d in the file name writes one file per frame; without it, the last frame")
    func testSnapshot_PercentD_WritesEveryFrame() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.snapshot([
            "--display", "ssd1306-128x64", "--scene", "clock-tick",
            "--pbm", dir.appending(path: "tick-%d.pbm").path, "--png", dir.appending(path: "tick-%d.png").path,
            "--scale", "1",
        ])
        _ = try Self.snapshot([
            "--display", "ssd1306-128x64", "--scene", "clock-tick", "--pbm", dir.appending(path: "last.pbm").path,
        ])
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(names == ["last.pbm", "tick-1.pbm", "tick-1.png", "tick-2.pbm", "tick-2.png"])
        let first = try PanelImage(pbm: try Data(contentsOf: dir.appending(path: "tick-1.pbm")))
        let second = try PanelImage(pbm: try Data(contentsOf: dir.appending(path: "tick-2.pbm")))
        let last = try PanelImage(pbm: try Data(contentsOf: dir.appending(path: "last.pbm")))
        #expect(last == second)
        // 14:05 → 14:06: a few pixels of the last digit of the clock.
        let changed = first.differingPixels(from: second)
        #expect(changed > 0 && changed < 40, "\(changed)")
        #expect([UInt8](try Data(contentsOf: dir.appending(path: "tick-1.png"))) == first.png())
    }

    // MARK: - The I²C log

    @Test("--i2c-log replays into a fresh panel model to the same images, with no errors", arguments: displays)
    func testSnapshot_I2CLog_ReplaysToTheSameImages(display: String) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let logFile = dir.appending(path: "bus.log")
        let object = try Self.snapshot([
            "--display", display, "--scene", "clock-tick", "--i2c-log", logFile.path,
            "--pbm", dir.appending(path: "frame-%d.pbm").path,
        ])
        let text = try String(contentsOf: logFile, encoding: .utf8)
        let log = try I2CTransactionLog(parsing: text)
        #expect(log.snapshotNames == ["frame1", "frame2"])
        // Every transaction the JSON counts is in the log, stamped with the virtual clock.
        let counted = try Self.frames(object).reduce(0) { $0 + Self.number($1, "transactions") }
        #expect(log.writeCount == counted)
        for entry in log {
            if case .write(_, _, let time) = entry { #expect(time != nil) }
        }
        #expect(text.split(separator: "\n").allSatisfy { $0.hasPrefix("t=") || $0.hasPrefix("# ") || $0.hasPrefix("!snapshot frame") })

        let clock = VirtualClock()
        let (panel, address) = try #require(Self.freshPanel(display, clock: clock))
        let replay = PanelLogReplay(log, into: panel, at: address, clock: clock)
        #expect(replay.unacknowledged.isEmpty && replay.issues.isEmpty, "\(replay.unacknowledged) \(replay.issues)")
        #expect(panel.errors.isEmpty, "\(panel.errors.prefix(3))")
        #expect(replay.snapshots.map(\.name) == ["frame1", "frame2"])
        for (index, snapshot) in replay.snapshots.enumerated() {
            let written = try PanelImage(pbm: try Data(contentsOf: dir.appending(path: "frame-\(index + 1).pbm")))
            #expect(snapshot.image == written, "\(display) frame \(index + 1)\n\(PanelImage.differenceArt(expected: written, actual: snapshot.image))")
            #expect(snapshot.errorCount == 0)
        }
    }

    // MARK: - Failures

    @Test("bad arguments exit 64 with one line and write nothing", arguments: [
        [String](),
        ["--scene", "now"],
        ["--display", "ssd1309-128x64", "--scene", "now"],
        ["--display", "ssd1306-128x64"],
        ["--display", "ssd1306-128x64", "--scene", "sunset"],
        ["--display", "ssd1306-128x64", "--scene", "now", "--png", "x.png", "--scale", "0"],
        ["--display", "ssd1306-128x64", "--scene", "now", "--png", "x.png", "--scale", "17"],
        ["--display", "ssd1306-128x64", "--scene", "now", "--png", "x.png", "--scale", "two"],
        ["--display", "ssd1306-128x64", "--scene", "now", "--pbm", "x.pbm", "--scale", "2"],
        ["--display", "ssd1306-128x64", "--scene", "now", "--png", ""],
        ["--display", "ssd1306-128x64", "--scene", "clock-tick", "--i2c-log", "bus-%d.log"],
    ])
    func testSnapshot_BadArguments_Fail(arguments: [String]) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Run in `dir`, so that a relative file name written by mistake would show up there.
        let run = try E2E.run(["snapshot"] + arguments, in: dir)
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("snapshot: ") && run.stderr.hasSuffix("\n"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test("an unknown option is refused by the parser with 64")
    func testSnapshot_UnknownOption_Fails() throws {
        let run = try E2E.run(["snapshot", "--display", "ssd1306-128x64", "--scene", "now", "--colour", "amber"])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Error: Unknown option '--colour'"), "\(run.stderr)")
    }

    @Test("an output file that cannot be created exits 73 with one line")
    func testSnapshot_UncreatableFile_Fails() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "missing/now.png").path
        let run = try E2E.run(["snapshot", "--display", "ssd1306-128x64", "--scene", "now", "--png", path])
        #expect(run.status == 73)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("snapshot: cannot create \(path): "), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test("a write that fails exits 74 with one line", .enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full")))
    func testSnapshot_WriteError_Fails() throws {
        let run = try E2E.run(["snapshot", "--display", "ssd1306-128x64", "--scene", "now", "--pbm", "/dev/full"])
        #expect(run.status == 74)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("snapshot: writing /dev/full failed: "), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }
}

import ArgumentParser
import Drivers
import HALSim
import Screens

/// `thunderstorm snapshot --display D --scene S`: a built-in sample scene drawn through the real
/// display driver onto the simulated panel, with what went over the bus (docs/reference/i2c-log.md).
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Draw a sample scene through the real display driver onto a simulated panel.",
        discussion: """
            The driver starts the panel from power-on on a simulated I²C bus, with a model of the panel's controller attached (OLEDs at 0x3C; the HD44780 at 0x27 behind a YwRobot-wired PCF8574, its timing checked at 100 kHz), then sends each frame of the scene. clock-tick has two frames, 14:05 and then 14:06 one minute later; every other scene has one.

            Prints one JSON object: {"display":…,"scene":…,"frames":[…],"modelErrors":[…]}. Frame 0 is the start (initialisation and clearing the controller's memory); frames 1… are the scene's frames, each with what the driver sent for it, e.g. the minute tick of clock-tick on ssd1306-128x64:
              {"frame":2,"what":"frame","transactions":2,"payloadBytes":13,…}

            Each frame also has dataBytes, windows, fullFrame and wireMicroseconds, e.g. {"100kHz":1390,"400kHz":347.5}. payloadBytes counts every byte after the address byte, control bytes included; dataBytes the display RAM bytes among them (LCD: characters and CGRAM rows); windows the OLED windows or LCD runs written; fullFrame whether the whole panel was sent; wireMicroseconds the time on the wire at 100 and 400 kHz, with no gaps between transactions (the PCF8574 is rated for 100 kHz only). modelErrors lists the protocol errors the controller model saw: none, unless the driver is wrong.

            --pbm and --png write what the glass shows after the last frame (the HD44780: 5×8 dots per character, one dark pixel between cells). A %d in either file name is replaced by the frame number, from 1, and one file is written per frame, e.g. --png tick-%d.png writes tick-1.png and tick-2.png. PBM is always one pixel per panel pixel; --scale N (1 to 16, default 4) draws each pixel of the PNG as N×N. --i2c-log writes every transaction from power-on in the transaction-log format (3C: 40 FF …, each line stamped with t=<seconds> of the virtual clock, # comments, !snapshot frameN after each frame) that replays into a fresh simulated panel (HALSim's PanelLogReplay) to the same images.

            Exit status: 0 done; 64 bad arguments; 70 the simulation failed (a bug); 73 an output file cannot be created; 74 write error.
            """
    )

    // Strings checked in `run`, so that a missing or wrong one is one line and exit 64 rather
    // than the parser's usage block.
    @Option(
        help: ArgumentHelp(
            "The panel: ssd1306-128x64, ssd1306-128x32, sh1106-128x64, hd44780-16x2 or hd44780-20x4.", valueName: "display"),
        completion: .list(SnapshotDisplay.allCases.map(\.rawValue)))
    var display: String?

    @Option(
        help: ArgumentHelp(
            "The sample: now, hours, days, days-south, indoor, barograph, storm, status, no-fix, error, clock-tick or rain-soon.", valueName: "scene"),
        completion: .list(SampleScene.allCases.map(\.rawValue)))
    var scene: String?

    @Option(help: ArgumentHelp("Write the glass as a binary PBM (P4) file.", valueName: "file"), completion: .file())
    var pbm: String?

    @Option(help: ArgumentHelp("Write the glass as a PNG file.", valueName: "file"), completion: .file())
    var png: String?

    @Option(help: ArgumentHelp("Pixels per panel pixel in the PNG, 1 to 16 (default 4).", valueName: "n"))
    var scale: String?

    @Option(
        name: .customLong("i2c-log"),
        help: ArgumentHelp("Write every I²C transaction from power-on to this file.", valueName: "file"),
        completion: .file())
    var i2cLog: String?

    static let displays = SnapshotDisplay.allCases.map(\.rawValue).joined(separator: ", ")
    static let scenes = SampleScene.allCases.map(\.rawValue).joined(separator: ", ")

    func run() throws {
        guard let display else {
            throw usage("snapshot: --display is missing; name the panel, one of \(Self.displays)")
        }
        guard let panel = SnapshotDisplay(rawValue: display) else {
            throw usage("snapshot: --display \(display) is not a panel this can draw; use one of \(Self.displays)")
        }
        guard let scene else {
            throw usage("snapshot: --scene is missing; name the sample, one of \(Self.scenes)")
        }
        guard let sample = SampleScene(rawValue: scene) else {
            throw usage("snapshot: --scene \(scene) is not a sample scene; use one of \(Self.scenes)")
        }
        var pngScale = 4
        if let scale {
            guard png != nil else {
                throw usage("snapshot: --scale only scales the --png image (PBM is always one pixel per pixel); add --png FILE")
            }
            guard let n = Int(scale), (1...16).contains(n) else {
                throw usage("snapshot: --scale \(scale) must be a whole number from 1 to 16")
            }
            pngScale = n
        }
        for (option, path) in [("--pbm", pbm), ("--png", png), ("--i2c-log", i2cLog)] {
            if let path, path.isEmpty { throw usage("snapshot: \(option) needs a file name") }
        }
        if let i2cLog, i2cLog.contains("%d") {
            throw usage("snapshot: --i2c-log \(i2cLog): the log is one file for all frames; leave out the %d")
        }

        let result: SnapshotRun
        do {
            result = try SnapshotRun(display: panel, scene: sample)
        } catch {
            switch error {
            case .bus(let failure, let during):
                throw ExitCode(70, printing: "snapshot: the simulated bus refused the \(during): \(failure); this is a bug, please report it")
            case .stuck(let what):
                throw ExitCode(70, printing: "snapshot: \(what); this is a bug, please report it")
            }
        }

        if let i2cLog {
            try SnapshotFiles.write(Array(result.log.render().utf8), to: i2cLog)
        }
        if let pbm {
            for (path, image) in SnapshotFiles.perFrame(pbm, result.images) {
                try SnapshotFiles.write(image.pbm(), to: path)
            }
        }
        if let png {
            for (path, image) in SnapshotFiles.perFrame(png, result.images) {
                try SnapshotFiles.write(image.png(scale: pngScale), to: path)
            }
        }
        print(SnapshotJSON.object(display: panel, scene: sample, result: result))
    }
}

import App
import ArgumentParser
import Graphics
import HAL
import HALSim

/// `thunderstorm glass LOG --display D`: a recorded I²C bus replayed into the panel's model, and
/// what its glass shows read back as text (issue: the virtual board's check that a real daemon
/// on a real kernel put the place, the weather and the time on the panel).
struct GlassCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glass",
        abstract: "Replay an I²C transaction log into a simulated panel and read back the text on its glass.",
        discussion: """
            LOG is in the transaction-log format (3C: 40 FF …, optional t=<seconds>, # comments; !snapshot lines are skipped). Every write to the panel's address (--address, default 0x3C for the OLEDs, 0x27 for the HD44780 backpack) goes into a fresh model of the panel's controller, from power-on; transactions to other addresses (a BME280 at 0x76) are counted and skipped. --until SECONDS stops at the first transaction stamped later, to read the glass as it was then. A PBM (P4) file instead of LOG (by its magic, or with --pbm-in FILE) is read as the glass itself, e.g. what `run --glass` writes.

            Prints one JSON object: {"display":…,"input":"log"|"pbm","transactions":…,"otherTransactions":…,"lastTime":…,"modelErrors":[…],"text":[…],…} (no transactions, lastTime or modelErrors for a PBM). On an OLED each string is {"text":"14:05","x":98,"y":-2,"font":"small"}: the project's fonts (small, medium, large) matched exactly against the lit pixels, each glyph's whole cell, at the x and y the screens draw it at (the clock's y is -2); words one space apart form one string; glyphs a font draws alike read as the first in Unicode order (the minus sign − as -). Weather icons are in "icons", and "unreadPixels" counts lit pixels that are part of no glyph or icon read. On an HD44780 each string is {"text":"Zürich","column":0,"row":0}, with the whole "rows" as shown; a custom CGRAM picture reads as � (U+FFFD), and "pictures" says which one each is; the degree picture reads as °.

            --pbm and --png write the glass (--scale N, 1 to 16, default 4, for the PNG).

            Exit status: 0 done; 64 bad arguments; 65 a malformed log line (its number is given) or PBM; 66 the input cannot be read; 73 an output file cannot be created; 74 write error.
            """
    )

    @Argument(help: ArgumentHelp("The I²C transaction log (or a PBM image of the glass).", valueName: "log"), completion: .file())
    var log: String?

    @Option(
        name: .customLong("pbm-in"), help: ArgumentHelp("Read this PBM (P4) image of the glass instead of a log.", valueName: "file"),
        completion: .file())
    var pbmIn: String?

    @Option(
        help: ArgumentHelp(
            "The panel: ssd1306-128x64, ssd1306-128x32, sh1106-128x64, hd44780-16x2 or hd44780-20x4.", valueName: "display"),
        completion: .list(SnapshotDisplay.allCases.map(\.rawValue)))
    var display: String?

    @Option(help: ArgumentHelp("The panel's I²C address in hex (default 0x3C, or 0x27 for the HD44780).", valueName: "address"))
    var address: String?

    @Option(help: ArgumentHelp("Replay only up to this t= time, in seconds.", valueName: "seconds"))
    var until: String?

    @Option(help: ArgumentHelp("Write the glass as a binary PBM (P4) file.", valueName: "file"), completion: .file())
    var pbm: String?

    @Option(help: ArgumentHelp("Write the glass as a PNG file.", valueName: "file"), completion: .file())
    var png: String?

    @Option(help: ArgumentHelp("Pixels per panel pixel in the PNG, 1 to 16 (default 4).", valueName: "n"))
    var scale: String?

    func run() throws {
        let options = try GlassOptions(self)
        let bytes: [UInt8]
        switch BoardFileReader.read(options.input, limit: GlassOptions.inputLimit) {
        case .success(let contents): bytes = contents
        case .failure(.unreadable(let reason)):
            throw ExitCode(66, printing: "glass: cannot read \(options.input): \(reason); check the path")
        case .failure(.tooLarge(let limit)):
            throw ExitCode(66, printing: "glass: \(options.input) is larger than \(limit >> 20) MiB; cut the log with --until or split it")
        }
        let glass: GlassOutput
        if options.isPBM || bytes.starts(with: Array("P4".utf8)) {
            guard options.address == nil, options.until == nil else {
                throw usage("glass: --address and --until apply to a log, and \(options.input) is a PBM image of the glass")
            }
            let image: PanelImage
            do {
                image = try PanelImage(pbm: bytes)
            } catch {
                throw ExitCode(65, printing: "glass: \(options.input): \(error); is it a PBM (P4) file?")
            }
            guard let output = GlassOutput(image: image, display: options.display) else {
                let (width, height) = options.display.glassSize
                throw ExitCode(
                    65, printing: "glass: \(options.input) is \(image.width)×\(image.height) pixels; the glass of \(options.display.rawValue) is \(width)×\(height)")
            }
            glass = output
        } else {
            let log: I2CTransactionLog
            do {
                log = try I2CTransactionLog(parsing: String(decoding: bytes, as: UTF8.self))
            } catch {
                throw ExitCode(65, printing: "glass: \(options.input) line \(error.line): \(error.message)")
            }
            glass = GlassOutput(replaying: log, display: options.display, address: options.address, until: options.until)
        }
        if let pbm { try SnapshotFiles.write(glass.image.pbm(), to: pbm, command: "glass") }
        if let png { try SnapshotFiles.write(glass.image.png(scale: options.pngScale), to: png, command: "glass") }
        print(glass.json)
    }
}

/// The arguments of `glass`, checked: every problem is one line and exit 64.
struct GlassOptions {
    /// A day of a busy bus is a few MiB of text; a gigabyte is a wrong file.
    static let inputLimit = 256 << 20

    var input: String
    var isPBM: Bool
    var display: SnapshotDisplay
    var address: UInt8?
    var until: Instant?
    var pngScale = 4

    init(_ command: GlassCommand) throws {
        switch (command.log, command.pbmIn) {
        case (let log?, nil): (input, isPBM) = (log, false)
        case (nil, let pbm?): (input, isPBM) = (pbm, true)
        case (nil, nil): throw usage("glass: name the log to replay (glass LOG --display D), or a PBM image with --pbm-in FILE")
        case (_?, _?): throw usage("glass: give either a LOG or --pbm-in FILE, not both")
        }
        guard !input.isEmpty else { throw usage("glass: the input needs a file name") }
        let displays = SnapshotCommand.displays
        guard let name = command.display else { throw usage("glass: --display is missing; name the panel, one of \(displays)") }
        guard let display = SnapshotDisplay(rawValue: name) else {
            throw usage("glass: --display \(name) is not a panel this can read; use one of \(displays)")
        }
        self.display = display
        if let text = command.address {
            guard let value = Self.hexAddress(text) else {
                throw usage("glass: --address \(text) is not a 7-bit I²C address in hex, such as 0x3C")
            }
            address = value
        }
        if let text = command.until {
            guard let instant = Self.seconds(text) else {
                throw usage("glass: --until \(text) is not a number of seconds, such as 12.5")
            }
            until = instant
        }
        if let scale = command.scale {
            guard command.png != nil else { throw usage("glass: --scale only scales the --png image; add --png FILE") }
            guard let n = Int(scale), (1...16).contains(n) else { throw usage("glass: --scale \(scale) must be a whole number from 1 to 16") }
            pngScale = n
        }
        for (option, path) in [("--pbm", command.pbm), ("--png", command.png)] {
            if let path, path.isEmpty { throw usage("glass: \(option) needs a file name") }
        }
    }

    /// `0x3C`, `3C` or `3c`: hex, as the log and i2cdetect write addresses; at most 0x7F.
    static func hexAddress(_ text: String) -> UInt8? {
        let digits = text.lowercased().hasPrefix("0x") ? text.dropFirst(2) : Substring(text)
        guard (1...2).contains(digits.count), let value = UInt8(digits, radix: 16), value <= 0x7F else { return nil }
        return value
    }

    /// `12`, `12.5`, `.5`, `-1.5`: exact to the nanosecond, as the log's `t=` is.
    static func seconds(_ text: String) -> Instant? {
        var rest = Substring(text)
        let negative = rest.first == "-"
        if negative { rest = rest.dropFirst() }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0], fraction = parts.count == 2 ? parts[1] : ""
        let isDigits = { (s: Substring) in s.unicodeScalars.allSatisfy { (0x30...0x39).contains($0.value) } }
        guard isDigits(whole), isDigits(fraction), whole.count <= 10, fraction.count <= 9,
              !whole.isEmpty || !fraction.isEmpty, parts.count == 1 || !fraction.isEmpty
        else { return nil }
        let seconds = Int64(whole) ?? 0
        let nanos = Int64(fraction + String(repeating: "0", count: 9 - fraction.count)) ?? 0
        let ns = seconds * 1_000_000_000 + nanos
        return Instant(nanoseconds: negative ? -ns : ns)
    }
}

import Graphics
import HAL
import HALSim
import JSON

/// What `glass` found, and the JSON object it prints (fields in a fixed order, written by hand
/// as `snapshot` does, so scripts and tests can rely on it).
struct GlassOutput {
    enum Reading {
        case oled(GlassReading)
        case lcd(CharacterGlassReading)
    }

    var display: SnapshotDisplay
    var image: PanelImage
    var replay: GlassReplay?
    var reading: Reading

    /// The custom pictures the LCD screens load into CGRAM (`CellGlyph`), the degree sign as °.
    static let pictures = CellGlyph.allCases.map {
        CharacterPicture(name: "\($0)", rows: $0.rows, text: $0 == .degree ? "°" : nil)
    }

    /// Replays `log` into a fresh model of `display`'s controller at `address` (or the panel's
    /// usual one), the HD44780 timed on the wire at 100 kHz as `snapshot` drives it.
    init(replaying log: I2CTransactionLog, display: SnapshotDisplay, address: UInt8?, until: Instant?) {
        self.display = display
        let clock = VirtualClock()
        switch display.panel {
        case .oled(_, let configuration):
            let model = OLEDControllerModel(configuration)
            let replay = GlassReplay(log, into: model, at: address ?? display.address, until: until, clock: clock)
            self.replay = replay
            image = replay.image
            reading = .oled(GlassReader().read(width: image.width, height: image.height, pixels: image.pixels))
        case .lcd(_, let geometry):
            let model = HD44780Backpack(
                geometry: geometry, pinMap: .ywRobot, clock: clock,
                portTiming: .wire(I2CWireTiming(clockHz: SnapshotDisplay.lcdBusClockHz)))
            let replay = GlassReplay(log, into: model, at: address ?? display.address, until: until, clock: clock)
            self.replay = replay
            image = replay.image
            reading = .lcd(model.lcd.readGlass(pictures: Self.pictures))
        }
    }

    /// Reads `image` as the glass of `display`; nil when it is not that glass's size.
    init?(image: PanelImage, display: SnapshotDisplay) {
        let (width, height) = display.glassSize
        guard image.width == width, image.height == height else { return nil }
        self.display = display
        self.image = image
        replay = nil
        switch display.panel {
        case .oled:
            reading = .oled(GlassReader().read(width: width, height: height, pixels: image.pixels))
        case .lcd(let geometry, _):
            guard let lcd = CharacterGlassReading(image: image, columns: geometry.columns, rows: geometry.rows, pictures: Self.pictures)
            else { return nil }
            reading = .lcd(lcd)
        }
    }

    var json: String {
        var out = #"{"display":"\#(display.rawValue)","input":"\#(replay == nil ? "pbm" : "log")""#
        if let replay {
            out += #","transactions":\#(replay.transactions),"otherTransactions":\#(replay.otherTransactions)"#
            out += #","lastTime":\#(replay.lastTime.map(Self.seconds) ?? "null")"#
            out += #","modelErrors":[\#(replay.modelErrors.map { JSONText.quoted($0.description) }.joined(separator: ","))]"#
        }
        switch reading {
        case .oled(let glass):
            out += #","text":["# + glass.text.map { text in
                #"{"text":\#(JSONText.quoted(text.text)),"x":\#(text.x),"y":\#(text.y),"font":"\#(text.font.rawValue)"}"#
            }.joined(separator: ",")
            out += #"],"icons":["# + glass.icons.map { icon in
                #"{"icon":"\#(icon.icon.rawValue)","night":\#(icon.night),"x":\#(icon.x),"y":\#(icon.y),"size":\#(icon.size.pixels)}"#
            }.joined(separator: ",")
            out += #"],"litPixels":\#(glass.litPixels),"unreadPixels":\#(glass.unreadPixels)}"#
        case .lcd(let lcd):
            out += #","text":["# + lcd.runs.map { run in
                #"{"text":\#(JSONText.quoted(run.text)),"column":\#(run.column),"row":\#(run.row)}"#
            }.joined(separator: ",")
            out += #"],"rows":["# + lcd.rows.map(JSONText.quoted).joined(separator: ",")
            out += #"],"pictures":["# + lcd.pictures.map { picture in
                #"{"column":\#(picture.column),"row":\#(picture.row),"picture":\#(picture.name.map(JSONText.quoted) ?? "null")}"#
            }.joined(separator: ",")
            out += "]}"
        }
        return out
    }

    /// A `t=` time as the log writes it: seconds with six decimals, nine when it is not a whole
    /// number of microseconds.
    static func seconds(_ time: Instant) -> String {
        let magnitude = time.nanoseconds.magnitude
        let fraction = magnitude % 1_000_000_000
        let digits = fraction % 1000 == 0 ? 6 : 9
        let text = String(digits == 6 ? fraction / 1000 : fraction)
        return "\(time.nanoseconds < 0 ? "-" : "")\(magnitude / 1_000_000_000).\(String(repeating: "0", count: digits - text.count))\(text)"
    }
}

extension SnapshotDisplay {
    /// The glass in pixels: the OLED's, or 5×8 dots per character one dark pixel apart.
    var glassSize: (width: Int, height: Int) {
        switch panel {
        case .oled(let profile, _): (profile.width, profile.height)
        case .lcd(let geometry, _): (geometry.columns * 6 - 1, geometry.rows * 9 - 1)
        }
    }
}

import CorpusTesting
import HAL
import HALSim

/// The display corpus (`../shared/corpus/displays`, next to the repository, or
/// `$THUNDERSTORM_CORPUS/displays`), read without Foundation: recorded I²C streams of luma.oled,
/// CircuitPython, u8g2 and luma.lcd with the images they must produce.
enum DisplayCorpus {
    static let directory = Corpus.path("displays")

    static let isPresent = Corpus.exists("displays")

    /// How many `*.log` streams the corpus holds.
    static let logCount = 9

    /// The `*.log` names, sorted, for `arguments:`: none when the corpus is absent, an error (a
    /// failed test, not zero cases) when it lists other than `logCount`.
    static func logs() throws -> [String] {
        try Corpus.names(in: "displays", endingWith: ".log", expecting: logCount)
    }

    /// The bytes of a corpus file, or nil when it cannot be read.
    static func bytes(_ name: String) -> [UInt8]? { try? Corpus.bytes("displays/" + name) }

    static func log(_ name: String) throws -> I2CTransactionLog {
        guard let bytes = bytes(name) else { throw CorpusFileMissing(name: name) }
        return try I2CTransactionLog(parsing: String(decoding: bytes, as: UTF8.self))
    }

    static func expectedImage(_ snapshot: String) throws -> PanelImage {
        let name = snapshot + "_expected.pbm"
        guard let bytes = bytes(name) else { throw CorpusFileMissing(name: name) }
        return try PanelImage(pbm: bytes)
    }

    struct CorpusFileMissing: Error, CustomStringConvertible {
        var name: String
        var description: String { "\(DisplayCorpus.directory)/\(name) cannot be read" }
    }

    /// The model a log was recorded for, by its name, with the address it was sent to.
    static func model(for log: String, clock: VirtualClock) -> (any PanelModel, UInt8) {
        if log.contains("hd44780") {
            return (HD44780Backpack(geometry: .lcd16x2, pinMap: .ywRobot, clock: clock), 0x27)
        }
        if log.contains("sh1106") { return (OLEDControllerModel(.sh1106_128x64(columnOffset: 2)), 0x3C) }
        if log.contains("128x32") { return (OLEDControllerModel(.ssd1306_128x32), 0x3C) }
        return (OLEDControllerModel(.ssd1306_128x64), 0x3C)
    }
}

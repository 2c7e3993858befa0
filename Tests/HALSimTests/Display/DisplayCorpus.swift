import HAL
import HALSim

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The display corpus (`../shared/corpus/displays`, next to the repository, or
/// `$THUNDERSTORM_CORPUS/displays`), read without Foundation: recorded I²C streams of luma.oled,
/// CircuitPython, u8g2 and luma.lcd with the images they must produce.
enum DisplayCorpus {
    static let directory: String = {
        if let root = getenv("THUNDERSTORM_CORPUS") { return String(cString: root) + "/displays" }
        // #filePath = …/<repo>/Tests/HALSimTests/Display/DisplayCorpus.swift → …/shared/corpus/displays
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(5)
        return parts.joined(separator: "/") + "/shared/corpus/displays"
    }()

    static let isPresent: Bool = {
        guard let dir = opendir(directory) else { return false }
        closedir(dir)
        return true
    }()

    /// The `*.log` names, sorted; empty when the corpus is absent.
    static let logs: [String] = {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".log") { names.append(name) }
        }
        return names.sorted()
    }()

    /// The bytes of a corpus file, or nil when it cannot be read.
    static func bytes(_ name: String) -> [UInt8]? {
        guard let file = fopen(directory + "/" + name, "rb") else { return nil }
        defer { fclose(file) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n == 0 { break }
            result += buffer[..<n]
        }
        return result
    }

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

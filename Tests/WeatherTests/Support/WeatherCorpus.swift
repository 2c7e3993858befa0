import Foundation
import HAL
import Weather

/// The weather fixtures of `../shared/corpus/weather` (or `$THUNDERSTORM_CORPUS/weather`) and
/// the project's own in `Tests/WeatherTests/Fixtures`. Tests that need the corpus carry
/// `.enabled(if: WeatherCorpus.isPresent)`, so without it they are reported skipped, not passed.
enum WeatherCorpus {
    static let directory: String = {
        if let root = ProcessInfo.processInfo.environment["THUNDERSTORM_CORPUS"] { return root + "/weather" }
        // #filePath = …/<repo>/Tests/WeatherTests/Support/WeatherCorpus.swift → …/shared/corpus/weather
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(5)
        return parts.joined(separator: "/") + "/shared/corpus/weather"
    }()

    static let fixtures: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/Fixtures"
    }()

    static var isPresent: Bool { FileManager.default.fileExists(atPath: directory + "/README.md") }

    static func corpus(_ name: String) throws -> [UInt8] { try read(directory + "/" + name) }

    static func fixture(_ name: String) throws -> [UInt8] { try read(fixtures + "/" + name) }

    /// A `*.headers.txt` of the corpus: the status line's code and the header lines.
    static func headers(_ name: String) throws -> (status: Int, headers: [HTTPHeader]) {
        let text = String(decoding: try corpus(name), as: UTF8.self)
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let statusLine = lines.removeFirst().split(separator: " ")
        let headers = lines.compactMap { line -> HTTPHeader? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return HTTPHeader(
                String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        return (Int(statusLine[1]) ?? 0, headers)
    }

    private static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw Missing(path: path) }
        return [UInt8](data)
    }

    struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String { "cannot read \(path)" }
    }
}

extension WallTime {
    /// `2026-01-15T08:15:00Z`-style literal for tests.
    static func utc(_ text: String) -> WallTime {
        ISO8601.parse(text)!.instant(offsetSeconds: 0)
    }
}

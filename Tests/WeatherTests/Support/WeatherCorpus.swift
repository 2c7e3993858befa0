import CorpusTesting
import Foundation
import HAL
import Weather

/// The weather fixtures of `../shared/corpus/weather` (or `$THUNDERSTORM_CORPUS/weather`). Tests that need the corpus carry
/// `.enabled(if: WeatherCorpus.isPresent)`, so without it they are reported skipped, not passed.
enum WeatherCorpus {
    static var isPresent: Bool { Corpus.exists("weather/README.md") }

    static func corpus(_ name: String) throws -> [UInt8] { try Corpus.bytes("weather/" + name) }

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
}

extension WallTime {
    /// `2026-01-15T08:15:00Z`-style literal for tests.
    static func utc(_ text: String) -> WallTime {
        ISO8601.parse(text)!.instant(offsetSeconds: 0)
    }
}

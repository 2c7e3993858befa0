/// The weather corpus (`../shared/corpus/weather`, or `$THUNDERSTORM_CORPUS/weather`): provider
/// bodies and recorded response heads (see its README.md), for WeatherTests and
/// WeatherHTTPTests. Tests that need it carry `.enabled(if: WeatherCorpus.isPresent)`, so
/// without it they are reported skipped, not passed.
public enum WeatherCorpus {
    public static var isPresent: Bool { Corpus.exists("weather") }

    /// How many `*.json` bodies the corpus holds.
    public static let jsonCount = 5

    /// The `*.json` bodies, sorted, for `arguments:`: none when the corpus is absent, and an
    /// error (a failed test) when the corpus lists other than `jsonCount` of them.
    public static func jsonFiles() throws(Corpus.UnexpectedListing) -> [String] {
        try Corpus.names(in: "weather", endingWith: ".json", expecting: jsonCount)
    }

    public static func bytes(_ name: String) throws(Corpus.Unreadable) -> [UInt8] {
        try Corpus.bytes("weather/" + name)
    }

    /// The text of a recorded response head (`*.headers.txt`).
    public static func head(_ name: String) throws(Corpus.Unreadable) -> String {
        String(decoding: try bytes(name), as: UTF8.self)
    }

    /// A recorded response head split into the status line's code (0 when it has none) and
    /// the header lines as name and value, the value without surrounding blanks.
    public static func headFields(_ name: String) throws(Corpus.Unreadable) -> (status: Int, fields: [(name: String, value: String)]) {
        var lines = try head(name).split(whereSeparator: \.isNewline)
        guard !lines.isEmpty else { return (0, []) }
        let statusLine = lines.removeFirst().split(separator: " ")
        let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
        let fields = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            return (String(line[..<colon]), String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed()))
        }
        return (status, fields)
    }
}

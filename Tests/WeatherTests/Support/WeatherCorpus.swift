import CorpusTesting
import HAL
import Weather

extension WeatherCorpus {
    /// A `*.headers.txt` of the corpus: the status line's code and the header lines.
    static func headers(_ name: String) throws -> (status: Int, headers: [HTTPHeader]) {
        let (status, fields) = try headFields(name)
        return (status, fields.map { HTTPHeader($0.name, $0.value) })
    }
}

extension WallTime {
    /// `2026-01-15T08:15:00Z`-style literal for tests.
    static func utc(_ text: String) -> WallTime {
        ISO8601.parse(text)!.instant(offsetSeconds: 0)
    }
}

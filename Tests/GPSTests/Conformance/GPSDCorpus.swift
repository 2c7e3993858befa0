import Board
import CorpusTesting
import GPS
import JSON

/// The gpsd regression captures (`../shared/corpus/nmea`, next to the repository, or
/// `$THUNDERSTORM_CORPUS/nmea`): each `X.log` of raw receiver bytes with gpsd's output `X.log.chk`.
enum GPSDCorpus {
    /// The capture names (`bu353s4.log`, …), sorted, for `arguments:`: none when the corpus is
    /// absent, an error (a failed test, not zero cases) when it lists other than 20.
    static func captures() throws -> [String] { try corpusLogNames() }

    /// What gpsd made of a capture: the sentences it echoed, in order, and per epoch time the
    /// last TPV it printed with that time (its state at the end of the epoch), as
    /// `chk_summary.py` computes them.
    struct Expectation {
        var accepted: [String] = []
        var epochs: [(time: String, tpv: [String: JSONValue])] = []
    }

    static func expectation(_ name: String) throws -> Expectation {
        var result = Expectation()
        var index: [String: Int] = [:]
        let chk = try Corpus.bytes("nmea/" + name + ".chk")
        for rawLine in chk.split(separator: 0x0A, omittingEmptySubsequences: true) {
            var line = Array(rawLine)
            while line.last == 0x0D { line.removeLast() }
            guard !line.isEmpty else { continue }
            guard line.first == UInt8(ascii: "{") else {
                result.accepted.append(String(decoding: line, as: UTF8.self))
                continue
            }
            guard case .success(.object(let object)) = JSONValue.parse(line),
                object["class"] == .string("TPV"), case .string(let time)? = object["time"]
            else { continue }
            if let i = index[time] {
                result.epochs[i].tpv = object
            } else {
                index[time] = result.epochs.count
                result.epochs.append((time, object))
            }
        }
        return result
    }
}

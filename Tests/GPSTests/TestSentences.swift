import HAL
import GPS
import HALSim

// Helpers for building NMEA test input and reading back what the framer, decoder and receiver
// made of it. Test code only: it allocates freely.

/// The NMEA checksum of `body`: the XOR of every byte after a leading `$` (or of every byte when
/// there is none) and before any `*`.
func nmeaChecksum(_ body: String) -> UInt8 {
    var sum: UInt8 = 0
    for (i, byte) in body.utf8.enumerated() {
        if i == 0, byte == UInt8(ascii: "$") { continue }
        if byte == UInt8(ascii: "*") { break }
        sum ^= byte
    }
    return sum
}

/// `body` (starting with `$`) with its correct `*hh` appended, upper-case hex unless asked.
func nmea(_ body: String, lowercaseHex: Bool = false) -> String {
    let digits: [Character] = Array(lowercaseHex ? "0123456789abcdef" : "0123456789ABCDEF")
    let sum = nmeaChecksum(body)
    return body + "*" + String(digits[Int(sum >> 4)]) + String(digits[Int(sum & 0x0F)])
}

/// `body` with a checksum that is wrong by construction (the right one XOR 0x01).
func nmeaWithWrongChecksum(_ body: String) -> String {
    let sum = nmeaChecksum(body) ^ 0x01
    let digits: [Character] = Array("0123456789ABCDEF")
    return body + "*" + String(digits[Int(sum >> 4)]) + String(digits[Int(sum & 0x0F)])
}

/// Decodes one sentence (`$` to the last checksum digit).
func decode(_ sentence: String) -> NMEADecoding {
    Array(sentence.utf8).withUnsafeBytes { NMEADecoder.decode($0) }
}

/// Decodes `body` after appending a correct checksum.
func decodeBody(_ body: String) -> NMEADecoding { decode(nmea(body)) }

extension NMEADecoding {
    var talker: NMEATalker? { if case .decoded(let t, _) = self { t } else { nil } }
    var message: NMEAMessage? { if case .decoded(_, let m) = self { m } else { nil } }
    var malformedField: Int? { if case .malformed(let i) = self { i } else { nil } }
    var isMalformed: Bool { malformedField != nil }
    var rmc: RMC? { if case .rmc(let m)? = message { m } else { nil } }
    var gga: GGA? { if case .gga(let m)? = message { m } else { nil } }
    var gns: GNS? { if case .gns(let m)? = message { m } else { nil } }
    var gll: GLL? { if case .gll(let m)? = message { m } else { nil } }
    var gsa: GSA? { if case .gsa(let m)? = message { m } else { nil } }
    var gsv: GSV? { if case .gsv(let m)? = message { m } else { nil } }
    var vtg: VTG? { if case .vtg(let m)? = message { m } else { nil } }
    var zda: ZDA? { if case .zda(let m)? = message { m } else { nil } }
    var txt: TXT? { if case .txt(let m)? = message { m } else { nil } }
}

extension GSV {
    var satelliteList: [SatelliteInView] { (0..<satelliteCount).map { satellites[$0] } }
    var prns: [UInt16] { satelliteList.map(\.prn) }
}

extension GSA {
    var prns: [UInt16] { (0..<satelliteCount).map { satellites[$0] } }
}

extension GNS {
    var modeText: String { String(decoding: (0..<modeCount).map { modes[$0] }, as: UTF8.self) }
}

extension NMEATalker {
    var text: String { description }
}

/// A latitude or longitude written as NMEA writes it: degrees, whole minutes, and the fraction of
/// a minute in nano-minutes (`4404.14063,N` is `dm(44, 4, 140_630_000)`).
func dm(_ degrees: Int, _ minutes: Int, _ nanominutes: Int64 = 0, negative: Bool = false) -> GeoAngle {
    GeoAngle(degrees: degrees, minutes: minutes, nanominutesFraction: nanominutes, negative: negative)
}

func dec(_ mantissa: Int64, _ scale: UInt8) -> NMEADecimal { NMEADecimal(mantissa: mantissa, scale: scale) }

func tod(_ h: Int, _ m: Int, _ s: Int, _ ms: Int = 0) -> TimeOfDay {
    TimeOfDay(hour: h, minute: m, second: s, millisecond: ms)!
}

func ymd(_ y: Int, _ m: Int, _ d: Int) -> CalendarDate { CalendarDate(year: y, month: m, day: d)! }

/// What a framer run produced: the accepted sentences, in order, and the final statistics.
struct FramerRun: Equatable {
    var sentences: [String] = []
    var statistics = NMEAStatistics()
}

/// Calls `body` with consecutive pieces of `bytes` of the given sizes (cycled; all of it in one
/// piece when `sizes` is empty), as serial reads would deliver them.
func forEachChunk(of bytes: [UInt8], sizes: [Int], _ body: (UnsafeRawBufferPointer) -> Void) {
    var offset = 0
    var k = 0
    while offset < bytes.count {
        let size = sizes.isEmpty ? bytes.count - offset : max(1, sizes[k % sizes.count])
        let end = min(bytes.count, offset + size)
        bytes[offset..<end].withUnsafeBytes(body)
        offset = end
        k += 1
    }
}

/// Feeds `bytes` to a fresh framer in chunks of the given sizes (cycled; the rest in one piece
/// when they run out), then calls `finish()`.
func frame(_ bytes: [UInt8], chunkSizes: [Int] = [], finish: Bool = true) -> FramerRun {
    var framer = NMEAFramer()
    var run = FramerRun()
    forEachChunk(of: bytes, sizes: chunkSizes) { chunk in
        framer.feed(chunk) { run.sentences.append(String(decoding: $0, as: UTF8.self)) }
    }
    if finish { framer.finish() }
    run.statistics = framer.statistics
    return run
}

func frame(_ text: String, finish: Bool = true) -> FramerRun { frame(Array(text.utf8), finish: finish) }

/// Feeds `bytes` to a fresh framer in random-sized chunks drawn from `generator`.
func frameRandomly(_ bytes: [UInt8], seed: UInt64, maximumChunk: Int) -> FramerRun {
    var generator = SplitMix64(seed: seed)
    var sizes: [Int] = []
    var total = 0
    while total < bytes.count {
        let size = Int.random(in: 1...maximumChunk, using: &generator)
        sizes.append(size)
        total += size
    }
    return frame(bytes, chunkSizes: sizes)
}

/// What a receiver run produced: every closed epoch, and the counters.
struct ReceiverRun {
    var fixes: [Fix] = []
    var decodings: [NMEADecoding] = []
    var statistics = NMEAStatistics()
}

/// Feeds `lines` (each already a complete sentence, or raw text) to a fresh receiver, CRLF after
/// each, then finishes it.
func receive(_ lines: [String], rules: GPSTimeRules = .archive) -> ReceiverRun {
    receive(bytes: Array(lines.map { $0 + "\r\n" }.joined().utf8), rules: rules)
}

func receive(bytes: [UInt8], rules: GPSTimeRules = .archive, chunkSizes: [Int] = []) -> ReceiverRun {
    var receiver = NMEAReceiver(rules: rules)
    var run = ReceiverRun()
    forEachChunk(of: bytes, sizes: chunkSizes) { chunk in
        receiver.consume(chunk) { event in
            switch event {
            case .fix(let fix): run.fixes.append(fix)
            case .sentence(_, let decoding): run.decodings.append(decoding)
            }
        }
    }
    receiver.finish { event in
        if case .fix(let fix) = event { run.fixes.append(fix) }
    }
    run.statistics = receiver.statistics
    return run
}

/// The text of a decoded TXT sentence.
func txtText(_ sentence: String) -> String? {
    guard let txt = decode(sentence).txt else { return nil }
    let bytes = Array(sentence.utf8)
    return String(decoding: bytes[txt.textRange], as: UTF8.self)
}

/// `sentence` (with its checksum) re-addressed to `talker`, with a fresh checksum.
func retalk(_ sentence: String, _ talker: String) -> String {
    let body = sentence.split(separator: "*", maxSplits: 1)[0]
    return nmea("$" + talker + body.dropFirst(3))
}

/// A satellite as plain values (the library's initialiser is internal).
struct Sat: Equatable, CustomStringConvertible {
    var prn: UInt16
    var elevation: Int?
    var azimuth: Int?
    var snr: Int?
    init(_ prn: UInt16, _ elevation: Int?, _ azimuth: Int?, _ snr: Int?) {
        (self.prn, self.elevation, self.azimuth, self.snr) = (prn, elevation, azimuth, snr)
    }
    init(_ s: SatelliteInView) {
        self.init(s.prn, s.elevation.map(Int.init), s.azimuth.map(Int.init), s.snr.map(Int.init))
    }
    var description: String { "\(prn)(\(elevation as Any),\(azimuth as Any),\(snr as Any))" }
}

extension GSV {
    var sats: [Sat] { satelliteList.map(Sat.init) }
}

/// An RMC date as the `ddmmyy` text it came from.
func ddmmyy(_ d: TwoDigitYearDate?) -> String? {
    guard let d else { return nil }
    func two(_ v: UInt8) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return two(d.day) + two(d.month) + two(d.yearOfCentury)
}

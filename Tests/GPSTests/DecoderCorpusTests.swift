import AllocationCounting
import CorpusTesting
import GPS
import Testing

/// The NMEA corpus (`../shared/corpus/nmea`, next to the repository, or
/// `$THUNDERSTORM_CORPUS/nmea`), when present.
let nmeaCorpusPresent = Corpus.exists("nmea")

/// How many `*.log` captures the corpus holds (each with its gpsd `.log.chk`).
let nmeaCorpusLogCount = 20

/// The bytes of one corpus log with its `#` comment lines removed, as gpsfake replays it.
func corpusStream(_ name: String) throws -> [UInt8] {
    var bytes = try Corpus.bytes("nmea/" + name)
    var comments = CaptureCommentFilter()
    let kept = bytes.withUnsafeMutableBytes { comments.strip($0) }
    return Array(bytes[..<kept])
}

/// The capture names (`bu353s4.log`, …), sorted: none when the corpus is absent, an error when
/// it holds other than `nmeaCorpusLogCount`.
func corpusLogNames() throws -> [String] {
    try Corpus.names(in: "nmea", endingWith: ".log", expecting: nmeaCorpusLogCount)
}

// MARK: - The corpus

/// Sentences that pass framing and the checksum but that the decoder rightly calls malformed,
/// with the reason. Anything else the framer accepts must decode (or be unknown) without
/// crashing.
let expectedMalformed: [String: String] = [
    // tn200 (SiRF-II, no fix): latitude "36000.0000" and longitude "72000.0000" are 360° and
    // 720°; gpsd drops these too.
    "tn200.log|RMC": "latitude 36000.0000 is 360°, out of range",
    // mtk-3301 cold start: latitude "8960.000000" has minute 60.
    "mtk-3301.log|GGA": "latitude 8960.000000 has minute 60",
    "mtk-3301.log|RMC": "latitude 8960.000000 has minute 60",
]

@Suite struct DecoderCorpusTests {
    @Test(.enabled(if: nmeaCorpusPresent, "needs ../shared/corpus/nmea beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here gpsd's regression captures of 20 receivers with gpsd's decoded fixes"))
    func corpusSentencesDecodeWithoutAllocatingAndOnlyKnownOnesAreMalformed() throws {
        var unexpected: [String] = []
        var seenExpected = Set<String>()
        var totals = (accepted: 0, decoded: 0, unknown: 0, malformed: 0)
        let names = try corpusLogNames()
        var streams: [(String, [UInt8])] = []
        for name in names { streams.append((name, try corpusStream(name))) }

        // The counter works: an array built at run time allocates.
        let control = countAllocations { keepAlive(Array(repeating: UInt8(7), count: streams.count + 3)) }
        #expect(control != .counted(0))
        if case .unavailable(let reason) = control { Issue.record("cannot count allocations: \(reason)") }

        for (name, stream) in streams {
            var counts = (decoded: 0, unknown: 0, malformed: 0)
            var statistics = NMEAStatistics()
            let feed = {
                counts = (0, 0, 0)
                var framer = NMEAFramer()
                stream.withUnsafeBytes { bytes in
                    framer.feed(bytes) { sentence in
                        switch NMEADecoder.decode(sentence) {
                        case .decoded: counts.decoded += 1
                        case .unknown: counts.unknown += 1
                        case .malformed: counts.malformed += 1
                        }
                    }
                }
                framer.finish()
                statistics = framer.statistics
            }
            let allocations = countAllocations(feed)
            #expect(allocations == .counted(0), "framing and decoding \(name): \(allocations)")
            #expect(counts.decoded + counts.unknown + counts.malformed == statistics.accepted)
            totals.accepted += statistics.accepted
            totals.decoded += counts.decoded
            totals.unknown += counts.unknown
            totals.malformed += counts.malformed
        }

        // Second pass, unmeasured: name every malformed sentence.
        for (name, stream) in streams {
            var framer = NMEAFramer()
            stream.withUnsafeBytes { bytes in
                framer.feed(bytes) { sentence in
                    guard case .malformed(let field) = NMEADecoder.decode(sentence) else { return }
                    let text = String(decoding: sentence, as: UTF8.self)
                    let type = String(text.dropFirst(3).prefix(3))
                    let key = "\(name)|\(type)"
                    if expectedMalformed[key] != nil {
                        seenExpected.insert(key)
                    } else {
                        unexpected.append("\(name): field \(field): \(text)")
                    }
                }
            }
        }
        #expect(unexpected.isEmpty, "unexpectedly malformed:\n\(unexpected.prefix(40).joined(separator: "\n"))")
        #expect(seenExpected == Set(expectedMalformed.keys), "an expected malformed sentence now decodes")
        // gpsd echoed 8,746 sentences over the 20 logs (chk_summary.py --stats).
        #expect(totals.accepted == 8_746)
        #expect(totals.malformed == 19 + 12)  // tn200's RMCs, mtk-3301's GGAs and RMCs
        #expect(totals.decoded + totals.unknown + totals.malformed == totals.accepted)
    }

    /// The sentences gpsd echoed in the `.chk`, in order (every non-JSON line, CR removed).
    func gpsdAccepted(_ name: String) throws -> [String] {
        let data = try Corpus.bytes("nmea/" + name + ".chk")
        return data.split(separator: 0x0A, omittingEmptySubsequences: false).compactMap { raw -> String? in
            var line = Array(raw)
            if line.last == 0x0D { line.removeLast() }
            guard !line.isEmpty, line.first != UInt8(ascii: "{") else { return nil }
            return String(decoding: line, as: UTF8.self)
        }
    }

    @Test(.enabled(if: nmeaCorpusPresent, "needs ../shared/corpus/nmea beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here gpsd's regression captures of 20 receivers with gpsd's decoded fixes"))
    func corpusFramerAcceptsExactlyWhatGpsdEchoedHoweverTheBytesAreSplit() throws {
        for (index, name) in try corpusLogNames().enumerated() {
            let stream = try corpusStream(name)
            let expected = try gpsdAccepted(name)
            let whole = frame(stream)
            #expect(whole.sentences == expected, "\(name): accepted set differs from gpsd's")
            #expect(whole.statistics.accepted == expected.count)
            let byteByByte = frame(stream, chunkSizes: [1])
            #expect(byteByByte == whole, "\(name): byte-by-byte feeding changed the result")
            let random = frameRandomly(stream, seed: 0x5EED_0000 + UInt64(index), maximumChunk: 97)
            #expect(random == whole, "\(name): random chunks changed the result")
        }
    }

    @Test(.enabled(if: nmeaCorpusPresent, "needs ../shared/corpus/nmea beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here gpsd's regression captures of 20 receivers with gpsd's decoded fixes"))
    func corpusDropsAreCountedByReason() throws {
        // firefly-II: all 23 GGA have a wrong checksum.
        #expect(frame(try corpusStream("firefly-II.log")).statistics.badChecksum == 23)
        // garmin-geko201: $GPBOD,,T,,M,,* has an empty checksum.
        let geko = frame(try corpusStream("garmin-geko201.log")).statistics
        #expect(geko.missingChecksum + geko.badChecksum + geko.garbage + geko.overlong == 1)
        #expect(geko.missingChecksum == 1)
        // mtk-3301: three $POLYN lines without a checksum.
        #expect(frame(try corpusStream("mtk-3301.log")).statistics.missingChecksum == 3)
        // ublox-8: a line of binary garbage with no "$" in it (ignored bytes, no sentence to
        // drop), and a last RMC cut off before its checksum but still ended by CR LF.
        let ublox = frame(try corpusStream("ublox-8.log")).statistics
        #expect(ublox.missingChecksum == 1)
        #expect(ublox.ignoredBytes > 100)
        #expect(ublox.badChecksum + ublox.garbage + ublox.overlong == 0)
    }
}

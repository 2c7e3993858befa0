import GPS
import Testing

/// Framing rules of `NMEAFramer` (docs/design/parts.md#the-gps-receiver).
@Suite struct FramerTests {
    static let rmc = "$GNRMC,171926.00,A,4404.14063,N,12118.85478,W,0.117,,180315,,,A*76"
    static let gga = "$GNGGA,171926.00,4404.14063,N,12118.85478,W,1,12,0.91,1147.2,M,-21.3,M,,*44"

    func statistics(accepted: Int = 0, badChecksum: Int = 0, missingChecksum: Int = 0, overlong: Int = 0,
                    garbage: Int = 0, ignoredBytes: Int = 0) -> NMEAStatistics {
        var s = NMEAStatistics()
        s.accepted = accepted
        s.badChecksum = badChecksum
        s.missingChecksum = missingChecksum
        s.overlong = overlong
        s.garbage = garbage
        s.ignoredBytes = ignoredBytes
        return s
    }

    @Test func theTestSentencesCarryTheirRealChecksums() {
        // The helper reproduces the corpus checksums, so tests built with it are meaningful.
        #expect(nmea(String(FramerTests.rmc.dropLast(3))) == FramerTests.rmc)
        #expect(nmea(String(FramerTests.gga.dropLast(3))) == FramerTests.gga)
        #expect(nmea("$GPRMC,,V,,,,,,,,,,N") == "$GPRMC,,V,,,,,,,,,,N*53")
        #expect(nmea("$GPGGA,,,,,,0,00,99.99,,,,,,") == "$GPGGA,,,,,,0,00,99.99,,,,,,*48")
    }

    @Test(arguments: ["\n", "\r\n", "\r\r\n", "\r"])
    func everyLineEndingEndsASentence(ending: String) {
        let run = frame(FramerTests.rmc + ending + FramerTests.gga + ending)
        #expect(run.sentences == [FramerTests.rmc, FramerTests.gga])
        #expect(run.statistics == statistics(accepted: 2))
    }

    @Test func theSentenceHandedOverSpansDollarToTheLastChecksumDigit() {
        let run = frame("noise " + FramerTests.rmc + "\r\n")
        #expect(run.sentences == [FramerTests.rmc])
        #expect(run.statistics == statistics(accepted: 1, ignoredBytes: 6))
    }

    @Test func aSentenceWithoutItsLineEndIsNotDeliveredAndFinishCountsItAsGarbage() {
        let unfinished = frame(FramerTests.rmc, finish: false)
        #expect(unfinished.sentences.isEmpty)
        #expect(unfinished.statistics == statistics())
        let finished = frame(FramerTests.rmc)
        #expect(finished.sentences.isEmpty)
        #expect(finished.statistics == statistics(garbage: 1))
    }

    @Test func theFramerWorksAgainAfterFinish() {
        var framer = NMEAFramer()
        var got: [String] = []
        Array("$GPGGA,1234".utf8).withUnsafeBytes { framer.feed($0) { _ in } }
        framer.finish()
        Array((FramerTests.gga + "\n").utf8).withUnsafeBytes {
            framer.feed($0) { got.append(String(decoding: $0, as: UTF8.self)) }
        }
        #expect(got == [FramerTests.gga])
        #expect(framer.statistics == statistics(accepted: 1, garbage: 1))
    }

    // MARK: Resynchronisation on "$"

    @Test(arguments: ["$", "$$", "$$$$"])
    func dollarPrefixesYieldTheSentenceFromTheLastDollar(prefix: String) {
        let run = frame(prefix + String(FramerTests.gga.dropFirst()) + "\r\n")
        #expect(run.sentences == [FramerTests.gga])
        // A lone "$" cut by another "$" held nothing worth counting.
        #expect(run.statistics == statistics(accepted: 1))
    }

    @Test func aSentenceInjectedMidLineIsAcceptedAndTheOneItCutIsDropped() {
        // The receiver (or a second writer) starts an RMC inside a GGA; the GGA's tail follows
        // the RMC's line end.
        let ggaHead = "$GPGGA,123519,4807.038,N"
        let ggaTail = ",01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"
        let injected = nmea("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
        let run = frame(ggaHead + injected + "\r\n" + ggaTail + "\r\n" + FramerTests.gga + "\r\n")
        #expect(run.sentences == [injected, FramerTests.gga])
        #expect(run.statistics == statistics(accepted: 2, garbage: 1, ignoredBytes: ggaTail.utf8.count))
    }

    @Test func aDollarInsideAnOverlongSentenceStartsANewOne() {
        let long = "$GPTXT," + String(repeating: "A", count: 300)
        let run = frame(long + FramerTests.gga + "\r\n")
        #expect(run.sentences == [FramerTests.gga])
        #expect(run.statistics == statistics(accepted: 1, overlong: 1))
    }

    // MARK: Checksum

    @Test(arguments: [false, true])
    func checksumHexComparesWithoutRegardToCase(lowercase: Bool) {
        // 0xAB-style checksums have letters: search for bodies whose checksum has two letters.
        let body = "$GPRMC,205150.00,V,,,,,,,,,,,V"
        let sentence = nmea(body, lowercaseHex: lowercase)
        #expect(sentence.hasSuffix(lowercase ? "*4a" : "*4A"))
        let run = frame(sentence + "\r\n")
        #expect(run.sentences == [sentence])
        #expect(run.statistics == statistics(accepted: 1))
    }

    @Test(arguments: 0xA...0xF)
    func everyHexLetterComparesWithoutRegardToCase(nibble: Int) throws {
        // The XOR of printable ASCII is below 0x80, so only the low digit can be a letter.
        var body = ""
        for c in UInt8(ascii: "A")...UInt8(ascii: "Z") {
            let candidate = "$GPTXT,01,01,02," + String(UnicodeScalar(c))
            if Int(nmeaChecksum(candidate) & 0xF) == nibble { body = candidate; break }
        }
        try #require(!body.isEmpty)
        let upper = nmea(body), lower = nmea(body, lowercaseHex: true)
        #expect(upper != lower)
        let run = frame(upper + "\n" + lower + "\n")
        #expect(run.sentences == [upper, lower])
        #expect(run.statistics == statistics(accepted: 2))
    }

    @Test func aWrongChecksumIsCountedAndDropped() {
        let bad = nmeaWithWrongChecksum("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        let run = frame(bad + "\r\n" + FramerTests.rmc + "\r\n")
        #expect(run.sentences == [FramerTests.rmc])
        #expect(run.statistics == statistics(accepted: 1, badChecksum: 1))
    }

    @Test(arguments: [
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",  // no "*hh" at all
        "$GPBOD,,T,,M,,*",  // garmin-geko201: an empty checksum
        "$GPBOD,,T,,M,,*4",  // one digit
        "$GPBOD,,T,,M,,*4G",  // not hex
        "$GPBOD,,T,,M,,*471",  // three digits
        "$GPBOD,,T,,M,,*47 ",  // trailing space
        "$POLYN,TIME,RESTART_OCCURRED",  // mtk-3301
        "$*00",  // no address at all
    ])
    func aSentenceWithoutAProperChecksumIsCountedAsMissing(line: String) {
        let run = frame(line + "\r\n" + FramerTests.gga + "\r\n")
        #expect(run.sentences == [FramerTests.gga])
        #expect(run.statistics == statistics(accepted: 1, missingChecksum: 1))
    }

    @Test func theEmptyChecksumSentenceIsRejectedButItsRepairedFormIsAccepted() {
        #expect(frame("$GPBOD,,T,,M,,*47\r\n").statistics == statistics(accepted: 1))
    }

    // MARK: Printable only

    @Test(arguments: [0x00, 0x07, 0x09, 0x1B, 0x7F, 0x80, 0xB5, 0xFF] as [UInt8])
    func aNonPrintableByteDropsTheSentence(byte: UInt8) {
        let head = Array("$GPGGA,123519,48".utf8)
        let tail = Array("07.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47".utf8)
        let bytes = head + [byte] + tail + Array("\r\n".utf8) + Array((FramerTests.rmc + "\r\n").utf8)
        let run = frame(bytes)
        #expect(run.sentences == [FramerTests.rmc])
        // The bad byte and the rest of its line are outside any sentence.
        #expect(run.statistics == statistics(accepted: 1, garbage: 1, ignoredBytes: 1 + tail.count))
    }

    @Test func binaryGarbageBetweenSentencesIsIgnoredAndCounted() {
        // A u-blox UBX frame (binary) between two sentences, as in ublox-8.log.
        let ubx: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x5C, 0x00, 0x80, 0x1B, 0x0D, 0xFF, 0x00]
        let bytes = Array((FramerTests.gga + "\r\n").utf8) + ubx + Array((FramerTests.rmc + "\r\n").utf8)
        let run = frame(bytes)
        #expect(run.sentences == [FramerTests.gga, FramerTests.rmc])
        #expect(run.statistics == statistics(accepted: 2, ignoredBytes: ubx.count - 1))  // the 0x0D is a line end
    }

    @Test func terminalEscapeGarbageInsideASentenceDropsIt() {
        let run = frame("$GPGGA,1\u{1B}[2J\u{1B}[H" + FramerTests.rmc + "\r\n")
        #expect(run.sentences == [FramerTests.rmc])
        #expect(run.statistics.garbage == 1)
        #expect(run.statistics.accepted == 1)
    }

    // MARK: Length bound

    /// A sentence of exactly `length` characters from "$" to the last checksum digit.
    func sentence(length: Int) -> String {
        let head = "$GPTXT,01,01,02,"
        let padding = String(repeating: "x", count: length - head.utf8.count - 3)
        let s = nmea(head + padding)
        precondition(s.utf8.count == length)
        return s
    }

    @Test func theBoundKeepsEveryRealSentenceLength() {
        // NMEA says 82; RTK GGA reaches 91, the corpus 105 (unicore) and 203 ($PMTK).
        #expect(NMEAFramer.maximumLength >= 203)
        #expect(NMEAFramer.maximumLength <= 255)
    }

    @Test(arguments: [82, 91, 105, 203, 254, 255])
    func sentencesUpToTheBoundAreAccepted(length: Int) {
        let s = sentence(length: length)
        let run = frame(s + "\r\n")
        #expect(run.sentences == [s])
        #expect(run.statistics == statistics(accepted: 1))
    }

    @Test(arguments: [256, 257, 400, 2000])
    func anOverlongSentenceIsCountedOnceAndTheRestOfItsLineSkipped(length: Int) {
        let run = frame(sentence(length: length) + "\r\n" + FramerTests.gga + "\r\n")
        #expect(run.sentences == [FramerTests.gga])
        #expect(run.statistics == statistics(accepted: 1, overlong: 1))
    }

    @Test func anUnterminatedOverlongRunIsOneOverlongSentence() {
        let run = frame("$" + String(repeating: "9", count: 5000) + "\n" + FramerTests.rmc + "\n")
        #expect(run.sentences == [FramerTests.rmc])
        #expect(run.statistics == statistics(accepted: 1, overlong: 1))
    }

    // MARK: Odd lines

    @Test func emptyLinesAndLoneDollarsCountNothing() {
        let run = frame("\r\n\n\r\r\n$\r\n$\n" + FramerTests.gga + "\n\n")
        #expect(run.sentences == [FramerTests.gga])
        #expect(run.statistics == statistics(accepted: 1))
    }

    @Test func textOutsideSentencesIsCountedAsIgnoredBytes() {
        let run = frame("hello\r\nworld\n" + FramerTests.gga + "\n")
        #expect(run.sentences == [FramerTests.gga])
        #expect(run.statistics == statistics(accepted: 1, ignoredBytes: 10))
    }

    @Test func rejectedSumsTheFramingDrops() {
        var s = statistics(badChecksum: 1, missingChecksum: 2, overlong: 3, garbage: 4, ignoredBytes: 100)
        s.unknown = 50
        s.malformed = 60
        #expect(s.rejected == 10)
    }

    // MARK: Chunk-split invariance

    /// A stream with every hazard: all line endings, `$$`, an injected sentence, lower-case hex,
    /// bad and missing checksums, binary bytes, an overlong line and an unterminated tail.
    static let hazardousStream: [UInt8] = {
        var text = ""
        text += FramerTests.rmc + "\r\n"
        text += "$$" + String(FramerTests.gga.dropFirst()) + "\n"
        text += "$GPGGA,123519,4807" + nmea("$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1") + "\r\r\n"
        text += nmea("$GPRMC,205150.00,V,,,,,,,,,,,V", lowercaseHex: true) + "\r\n"
        text += nmeaWithWrongChecksum("$GPZDA,201530.00,04,07,2002,00,00") + "\r\n"
        text += "$GPBOD,,T,,M,,*\r\n"
        text += "$GPTXT," + String(repeating: "y", count: 300) + "*00\r\n"
        var bytes = Array(text.utf8)
        bytes += [0xB5, 0x62, 0x00, 0xFF, 0x24, 0x47, 0x50, 0x01, 0x0A]
        bytes += Array((nmea("$GNVTG,286.35,T,,M,0.00,N,0.00,K,A") + "\r").utf8)
        bytes += Array((nmea("$GNGLL,4739.71890,N,12219.58362,W,055234.200,A,A") + "\n").utf8)
        bytes += Array("$GNRMC,001053.00,A,4404.14083,N".utf8)
        return bytes
    }()

    @Test func theHazardousStreamFramesAsExpected() {
        let run = frame(FramerTests.hazardousStream)
        #expect(run.sentences.count == 6)
        #expect(run.sentences.first == FramerTests.rmc)
        #expect(run.sentences.last?.hasPrefix("$GNGLL") == true)
        #expect(run.statistics.accepted == 6)
        #expect(run.statistics.badChecksum == 1)
        #expect(run.statistics.missingChecksum == 1)
        #expect(run.statistics.overlong == 1)
        #expect(run.statistics.garbage == 3)  // the cut GGA, "$GP" cut by 0x01, the unterminated RMC
        #expect(run.statistics.ignoredBytes == 4 + 1)  // B5 62 00 FF, then the 0x01 that cut "$GP"
    }

    @Test func byteByByteFeedingGivesTheSameSentencesAndStatistics() {
        let whole = frame(FramerTests.hazardousStream)
        #expect(frame(FramerTests.hazardousStream, chunkSizes: [1]) == whole)
        #expect(frame(FramerTests.hazardousStream, chunkSizes: [2]) == whole)
        #expect(frame(FramerTests.hazardousStream, chunkSizes: [255, 1, 256]) == whole)
    }

    @Test(arguments: [1, 2, 3, 42, 0xDEAD_BEEF, 0x1234_5678_9ABC] as [UInt64])
    func randomChunkSplitsGiveTheSameSentencesAndStatistics(seed: UInt64) {
        let whole = frame(FramerTests.hazardousStream)
        #expect(frameRandomly(FramerTests.hazardousStream, seed: seed, maximumChunk: 7) == whole)
        #expect(frameRandomly(FramerTests.hazardousStream, seed: seed, maximumChunk: 300) == whole)
    }
}

@Suite struct CaptureCommentFilterTests {
    @Test func testCommentFilter_CommentSplitAcrossReads_IsDroppedWholeAndOnlyAtLineStart() {
        let capture = Array("# Name: x\r\n$GPGSV,1,1,00*79\n#second\n$GPTXT,01,01,02,a#b*00\n".utf8)
        var filter = CaptureCommentFilter()
        var kept: [UInt8] = []
        forEachChunk(of: capture, sizes: [3, 1, 5]) { chunk in
            var copy = Array(chunk)
            let n = copy.withUnsafeMutableBytes { filter.strip($0) }
            kept += copy[..<n]
        }
        #expect(String(decoding: kept, as: UTF8.self) == "$GPGSV,1,1,00*79\n$GPTXT,01,01,02,a#b*00\n")
    }
}

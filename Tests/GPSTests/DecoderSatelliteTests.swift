import HAL
import GPS
import HALSim
import Testing

/// Satellite and text sentences (GSA, GSV, TXT), NMEA 4.10/4.11 system and signal IDs, talkers,
/// and what the decoder does with sentences it does not know.
@Suite struct DecoderSatelliteTests {
    // MARK: GSA

    @Test func gsaWithThe411SystemIDPerConstellation() throws {
        let gps = try #require(decode("$GNGSA,A,3,29,20,18,16,51,13,44,26,,,,,0.99,0.54,0.83,1*0E").gsa)
        #expect(gps.fixType == 3)
        #expect(gps.prns == [29, 20, 18, 16, 51, 13, 44, 26])
        #expect(gps.pdop == dec(99, 2))
        #expect(gps.hdop == dec(54, 2))
        #expect(gps.vdop == dec(83, 2))
        #expect(gps.system == .gps)
        let glonass = try #require(decode("$GNGSA,A,3,82,73,74,67,81,83,68,,,,,,0.99,0.54,0.83,2*08").gsa)
        #expect(glonass.system == .glonass)
        #expect(glonass.prns == [82, 73, 74, 67, 81, 83, 68])
        #expect(decode("$GNGSA,A,3,03,05,30,27,15,,,,,,,,0.99,0.54,0.83,3*0D").gsa?.system == .galileo)
        #expect(decode("$GNGSA,A,3,32,28,30,33,27,,,,,,,,0.99,0.54,0.83,4*03").gsa?.system == .beidou)
    }

    @Test func gsaBefore411HasNoSystem() throws {
        let m = try #require(decode("$GPGSA,A,3,27,15,09,28,18,08,,,,,,,3.33,2.51,2.20*04").gsa)
        #expect(m.system == nil)
        #expect(m.prns == [27, 15, 9, 28, 18, 8])
        #expect(m.pdop == dec(333, 2))
    }

    @Test func gsaWithNoFixAndNoSatellitesIsAllAbsent() throws {
        let m = try #require(decode("$GNGSA,A,1,,,,,,,,,,,,,,,*00").gsa)
        #expect(m.fixType == 1)
        #expect(m.satelliteCount == 0)
        #expect(m.pdop == nil)
        #expect(m.hdop == nil)
        #expect(m.vdop == nil)
        let tn200 = try #require(decode("$GPGSA,A,1,,,,,,,,,,,,,50.0,50.0,50.0*05").gsa)
        #expect(tn200.pdop == dec(500, 1))
    }

    @Test func gsaPRNsWithoutLeadingZerosAndWithThreeDigits() {
        #expect(decode("$GPGSA,A,1,29,2,30,,,,,,,,,,3.819,3.727,0.832*01").gsa?.prns == [29, 2, 30])
        #expect(decode("$BDGSA,A,3,214,,,,,,,,,,,,2.5,1.2,2.2*10").gsa?.prns == [214])
    }

    @Test(arguments: [
        ("$GPGSA,X,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1", 1),
        ("$GPGSA,A,4,04,05,,09,12,,,24,,,,,2.5,1.3,2.1", 2),
        ("$GPGSA,A,0,04,05,,09,12,,,24,,,,,2.5,1.3,2.1", 2),
        ("$GPGSA,A,3,00,05,,09,12,,,24,,,,,2.5,1.3,2.1", 3),
        ("$GPGSA,A,3,04,05,,09,12,,,24,,,,,-2.5,1.3,2.1", 15),
        ("$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1,X", 18),
    ])
    func gsaOutOfRangeFieldsAreMalformed(body: String, field: Int) {
        #expect(decodeBody(body) == .malformed(fieldIndex: field))
    }

    // MARK: GSV

    @Test func gsv411SignalIDIsNotASatellite() throws {
        let m = try #require(decode("$GLGSV,3,3,10,83,52,346,29,84,05,307,,1*72").gsv)
        #expect(m.totalMessages == 3)
        #expect(m.messageNumber == 3)
        #expect(m.satellitesInView == 10)
        #expect(m.satelliteCount == 2)
        #expect(m.sats == [
            Sat(83, 52, 346, 29),
            Sat(84, 5, 307, nil),
        ])
        #expect(m.signalID == 1)
        let galileo = try #require(decode("$GAGSV,3,3,10,30,14,215,16,36,08,098,,7*79").gsv)
        #expect(galileo.prns == [30, 36])
        #expect(galileo.signalID == 7)
    }

    @Test func gsv410WithFourSatellitesAndASignalID() throws {
        let m = try #require(decode("$GPGSV,4,1,13,02,07,310,,08,38,280,47,10,73,012,41,18,16,127,16,1*60").gsv)
        #expect(m.satelliteCount == 4)
        #expect(m.prns == [2, 8, 10, 18])
        #expect(m.satellites[0].snr == nil)
        #expect(m.signalID == 1)
        let bd = try #require(decode("$BDGSV,1,1,03,13,19,043,17,27,38,127,33,37,36,091,24,0*49").gsv)
        #expect(bd.prns == [13, 27, 37])
        #expect(bd.signalID == 0)
    }

    @Test func gsvSignalIDIsAHexDigit() throws {
        // NMEA 4.11 signal IDs run 1…F: u-blox F9 sends BeiDou B2I as "B".
        let m = try #require(decodeBody("$GBGSV,1,1,02,05,40,083,46,08,12,301,30,B").gsv)
        #expect(m.prns == [5, 8])
        #expect(m.signalID == 0xB)
        #expect(decodeBody("$GBGSV,1,1,02,05,40,083,46,08,12,301,30,b").gsv?.signalID == 0xB)
    }

    @Test func gsvWithOnlyASignalIDHasNoSatellites() throws {
        let m = try #require(decodeBody("$GPGSV,1,1,00,1").gsv)
        #expect(m.satelliteCount == 0)
        #expect(m.satellitesInView == 0)
        #expect(m.signalID == 1)
    }

    @Test func gsvBefore410HasNoSignalID() throws {
        let m = try #require(decode("$GPGSV,3,1,12,05,04,187,,08,11,078,29,09,43,270,37,12,03,212,*75").gsv)
        #expect(m.signalID == nil)
        #expect(m.prns == [5, 8, 9, 12])
        #expect(Sat(m.satellites[3]) == Sat(12, 3, 212, nil))
        let last = try #require(decodeBody("$GPGSV,3,3,09,27,10,200,33").gsv)
        #expect(last.prns == [27])
        #expect(last.signalID == nil)
    }

    @Test func gsvWithThreeDigitPRNsAndPRNsWithoutLeadingZeros() throws {
        let gb = try #require(decode("$GBGSV,2,1,05,201,00,000,44,202,14,089,35,204,00,000,42,205,27,091,*66").gsv)
        #expect(gb.prns == [201, 202, 204, 205])
        #expect(gb.satellites[3].snr == nil)
        let myguide = try #require(decode("$GPGSV,5,1,19,1,5,,23,2,28,73,24,4,19,40,24,9,3,137,29*40").gsv)
        #expect(myguide.sats == [
            Sat(1, 5, nil, 23),
            Sat(2, 28, 73, 24),
            Sat(4, 19, 40, 24),
            Sat(9, 3, 137, 29),
        ])
    }

    @Test func gsvEmptySlotsAreSkipped() throws {
        let m = try #require(decodeBody("$GPGSV,1,1,02,05,40,083,46,,,,,08,12,301,30").gsv)
        #expect(m.prns == [5, 8])
    }

    @Test(arguments: [
        ("$GPGSV,,1,03,05,40,083,46", 1),  // no total
        ("$GPGSV,0,1,03,05,40,083,46", 1),
        ("$GPGSV,2,3,03,05,40,083,46", 2),  // number > total
        ("$GPGSV,1,,03,05,40,083,46", 2),
        ("$GPGSV,1,1,03,05,91,083,46", 5),  // elevation 91
        ("$GPGSV,1,1,03,05,40,361,46", 6),  // azimuth 361
        ("$GPGSV,1,1,03,05,40,083,100", 7),  // SNR 100
        ("$GPGSV,1,1,03,,40,083,46", 4),  // data without a PRN
        ("$GPGSV,1,1,03,05,40,083,46,G", 8),  // not a hex signal ID
    ])
    func gsvOutOfRangeFieldsAreMalformed(body: String, field: Int) {
        #expect(decodeBody(body) == .malformed(fieldIndex: field))
    }

    // MARK: TXT

    @Test func txtTextRunsToTheChecksumCommasIncluded() {
        #expect(txtText("$GPTXT,01,01,02,u-blox ag - www.u-blox.com*50") == "u-blox ag - www.u-blox.com")
        #expect(txtText("$GPTXT,01,01,01,ANTENNA OK*35") == "ANTENNA OK")
        #expect(txtText("$GNTXT,01,01,01,0,500482,0000,80A0,80A0,-37.847,0*67") == "0,500482,0000,80A0,80A0,-37.847,0")
        let t = decode("$GPTXT,01,01,02,u-blox ag - www.u-blox.com*50").txt
        #expect(t?.totalMessages == 1)
        #expect(t?.messageNumber == 1)
        #expect(t?.textType == 2)
        #expect(txtText(nmea("$GPTXT,01,01,02")) == "")
    }

    // MARK: Talkers

    static let talkers = ["GP", "GN", "GL", "GA", "GB", "BD", "GQ", "GI", "QZ", "IN", "GY", "II"]

    static let oneOfEach = [
        "$GNRMC,171926.00,A,4404.14063,N,12118.85478,W,0.117,,180315,,,A*76",
        "$GNGGA,171926.00,4404.14063,N,12118.85478,W,1,12,0.91,1147.2,M,-21.3,M,,*44",
        "$GNGNS,053232.438,3114.8789,N,12135.2442,E,ANNA,07,1.2,153.8,8.3,,0000*5F",
        "$GNGLL,4739.71890,N,12219.58362,W,055234.200,A,A*5F",
        "$GNGSA,A,3,29,20,18,16,51,13,44,26,,,,,0.99,0.54,0.83,1*0E",
        "$GLGSV,3,3,10,83,52,346,29,84,05,307,,1*72",
        "$GNVTG,286.35,T,,M,0.00,N,0.00,K,A*29",
        "$GNZDA,223745.00,11,07,2020,00,00*7A",
        "$GPTXT,01,01,02,u-blox ag - www.u-blox.com*50",
    ]

    @Test(arguments: talkers)
    func everySentenceTypeDecodesFromAnyTalker(talker: String) {
        for original in DecoderSatelliteTests.oneOfEach {
            let expected = decode(original)
            let sentence = retalk(original, talker)
            let got = decode(sentence)
            #expect(got.talker?.text == talker, "\(sentence)")
            #expect(got.message == expected.message, "\(sentence)")
        }
    }

    @Test func talkersNameTheirConstellation() {
        #expect(NMEATalker("GP").system == .gps)
        #expect(NMEATalker("GL").system == .glonass)
        #expect(NMEATalker("GA").system == .galileo)
        #expect(NMEATalker("GB").system == .beidou)
        #expect(NMEATalker("BD").system == .beidou)
        #expect(NMEATalker("GQ").system == .qzss)
        #expect(NMEATalker("QZ").system == .qzss)
        #expect(NMEATalker("GI").system == .navic)
        #expect(NMEATalker("IN").system == .navic)
        #expect(NMEATalker("GN").system == nil)
        #expect(NMEATalker("II").system == nil)
        #expect(NMEATalker("GQ").description == "GQ")
        #expect(NMEATalker("GQ") == NMEATalker(UInt8(ascii: "G"), UInt8(ascii: "Q")))
    }

    // MARK: What is not decoded

    @Test(arguments: [
        "$GPRMB,A,,,,,,,,,,,,V*71",
        "$PGRME,9.1,M,15.0,M,12.0,M*21",
        "$PSTI,030,213121.000,A,4404.1295864,N,12118.8685453,W,1102.537,-0.01,0.01,0.03,070416,D,0.0,0.0*13",
        "$GPGST,213121.000,16.1,22.2,10.2,2.0,0.4,0.6,1.4*57",
        "$PMTK010,001*2E",
        "$GPBOD,,T,,M,,*47",
        "$SNRSTAT,1,1,0,0*5D",
        "$GPRM,1*00",
        "$X*58",
    ])
    func unknownAndProprietarySentencesAreUnknownNotMalformed(sentence: String) {
        #expect(decode(sentence) == .unknown)
    }

    @Test func aSentenceLongerThanTheFramerAllowsIsNotDecodedAndDoesNotCrash() {
        // The decoder keeps field offsets in bytes; it must refuse what the framer never hands
        // over rather than wrap an offset.
        var body = "$GPGSV,1,1,12"
        while body.utf8.count < 400 { body += ",05,40,083,46" }
        #expect(decode(nmea(body)) == .unknown)
    }

    @Test func manyFieldsBeyondTheFieldCapacityDoNotCrash() {
        let txt = nmea("$GPTXT,01,01,02," + String(repeating: ",", count: 100))
        #expect(decode(txt).txt != nil)
        let gsv = nmea("$GPGSV,1,1,03" + String(repeating: ",", count: 100))
        #expect(decode(gsv).gsv?.satelliteCount == 0)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomPrintableSentencesNeverCrashTheDecoder(seed: UInt64) {
        // Mutate real sentences byte by byte; every result must come back as some decoding.
        var random = SplitMix64(seed: seed)
        let alphabet = Array("0123456789.,-+*$ABCDEGKLMNPQRSTVWZaez ".utf8)
        var decoded = 0
        for original in DecoderSatelliteTests.oneOfEach + DecoderSatelliteTests.oneOfEach.map({ retalk($0, "GQ") }) {
            for _ in 0..<200 {
                var bytes = Array(original.utf8.dropLast(3))
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let i = Int.random(in: 1..<bytes.count, using: &random)
                    switch Int.random(in: 0...2, using: &random) {
                    case 0: bytes[i] = alphabet.randomElement(using: &random)!
                    case 1: bytes.remove(at: i)
                    default: bytes.insert(alphabet.randomElement(using: &random)!, at: i)
                    }
                }
                if case .decoded = decode(nmea(String(decoding: bytes, as: UTF8.self))) { decoded += 1 }
            }
        }
        #expect(decoded > 0)
    }
}

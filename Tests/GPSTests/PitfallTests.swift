import HAL
import GPS
import HALSim
import Testing

/// One test (at least) per pitfall of docs/design/parts.md#the-gps-receiver, end to end through `NMEAReceiver`
/// (framer, decoder, epoch assembler).
@Suite struct PitfallTests {
    /// A valid u-blox epoch at `hhmmss` (position from neo-m8n.log, 2015-03-18).
    static func validEpoch(_ hhmmss: String, date: String = "180315") -> [String] {
        [
            nmea("$GNRMC,\(hhmmss).00,A,4404.14063,N,12118.85478,W,0.117,,\(date),,,A"),
            nmea("$GNGGA,\(hhmmss).00,4404.14063,N,12118.85478,W,1,12,0.91,1147.2,M,-21.3,M,,"),
            nmea("$GNGSA,A,3,29,20,18,16,51,13,44,26,,,,,0.99,0.54,0.83,1"),
        ]
    }

    // MARK: §3.3 Empty sentences before a fix

    @Test func emptySentencesBeforeAFixGiveNoFixAndNeverZeroZero() {
        let lines = [
            "$GPRMC,,V,,,,,,,,,,N*53",
            "$GPGGA,,,,,,0,00,99.99,,,,,,*48",
            nmea("$GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99"),
            nmea("$GPGSV,1,1,00"),
            nmea("$GPVTG,,,,,,,,,N"),
            nmea("$GPGLL,,,,,,V,N"),
            "$GPRMC,,V,,,,,,,,,,N*53",
            "$GPGGA,,,,,,0,00,99.99,,,,,,*48",
        ]
        let run = receive(lines)
        #expect(run.statistics.accepted == lines.count)
        #expect(run.statistics.decoded == lines.count)
        #expect(run.statistics.malformed == 0)
        #expect(!run.fixes.isEmpty)
        for fix in run.fixes {
            #expect(!fix.isValid)
            #expect(fix.latitude == nil)
            #expect(fix.longitude == nil)
            #expect(fix.coordinate == nil)
            #expect(fix.altitudeMSL == nil)
            #expect(fix.time == nil)
            #expect(!fix.timeIsTrusted)
        }
    }

    @Test func aNoFixReceiverSendingZerosGivesNoPosition() {
        // tn200 (SiRF-II): GGA quality 0 with "0000.0000,N,00000.0000,E".
        let lines = [
            "$GPGGA,000416.984,0000.0000,N,00000.0000,E,0,00,50.0,0.0,M,0.0,M,0.0,0000*70",
            "$GPGSA,A,1,,,,,,,,,,,,,50.0,50.0,50.0*05",
            "$GPGGA,000417.984,0000.0000,N,00000.0000,E,0,00,50.0,0.0,M,0.0,M,0.0,0000*71",
            "$GPGSA,A,1,,,,,,,,,,,,,50.0,50.0,50.0*05",
        ]
        let run = receive(lines)
        #expect(run.fixes.count == 2)
        for fix in run.fixes {
            #expect(fix.mode == .noFix)
            #expect(fix.coordinate == nil)
        }
    }

    // MARK: §3.4 Sticky validity

    @Test func validityIsNotCarriedOverToAnEpochWhoseRMCSaysV() {
        var lines = PitfallTests.validEpoch("171926") + PitfallTests.validEpoch("171927")
        // The receiver loses the fix but keeps repeating its last position.
        lines += [
            nmea("$GNRMC,171928.00,V,4404.14063,N,12118.85478,W,0.117,,180315,,,N"),
            nmea("$GNGGA,171928.00,4404.14063,N,12118.85478,W,0,12,0.91,1147.2,M,-21.3,M,,"),
            nmea("$GNGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99,1"),
        ]
        let run = receive(lines)
        #expect(run.fixes.map(\.isValid) == [true, true, false])
        let last = run.fixes.last
        #expect(last?.mode == .noFix)
        #expect(last?.coordinate == nil)
        #expect(last?.altitudeMSL == nil)
        #expect(last?.timeIsTrusted == false)
    }

    @Test func validityIsNotCarriedOverToAnEpochWhoseGGAQualityIsZero() throws {
        var lines = PitfallTests.validEpoch("171926")
        lines += [nmea("$GNGGA,171927.00,4404.14063,N,12118.85478,W,0,12,0.91,1147.2,M,-21.3,M,,")]
        lines += PitfallTests.validEpoch("171928")
        let run = receive(lines)
        #expect(run.fixes.map(\.isValid) == [true, false, true])
        #expect(run.fixes[1].coordinate == nil)
        #expect(run.fixes[1].mode == .noFix)
        #expect(try run.fixes[2].coordinate == Coordinate(latitude: dm(44, 4, 140_630_000),
                                                          longitude: dm(121, 18, 854_780_000, negative: true)))
    }

    @Test func anEpochWithOnlySatelliteDataAfterAFixIsNotAFix() {
        var lines = PitfallTests.validEpoch("171926")
        lines += [nmea("$GNGGA,171927.00,,,,,,,,,,,,,")]
        let run = receive(lines)
        #expect(run.fixes.count == 2)
        #expect(run.fixes[1].isValid == false)
        #expect(run.fixes[1].coordinate == nil)
    }

    // MARK: §3.5 Bogus dates

    @Test func rmcVWithABogusDateDoesNotSetTheTime() {
        // mtk-3301 cold start: RMC V dated 1980 (here with a well-formed latitude).
        let lines = [
            nmea("$GPGGA,235946.005,8959.000000,N,00000.000000,E,0,0,,137.000,M,13.000,M,,"),
            nmea("$GPRMC,235946.005,V,8959.000000,N,00000.000000,E,0.000,0.00,050180,,,N"),
            nmea("$GPGGA,235947.004,8959.000000,N,00000.000000,E,0,0,,137.000,M,13.000,M,,"),
            nmea("$GPRMC,235947.004,V,8959.000000,N,00000.000000,E,0.000,0.00,050180,,,N"),
        ]
        for rules in [GPSTimeRules.live, .archive] {
            let run = receive(lines, rules: rules)
            #expect(run.statistics.decoded == 4)
            #expect(run.fixes.count == 2)
            for fix in run.fixes {
                #expect(fix.time == nil)
                #expect(!fix.timeIsTrusted)
                #expect(fix.timeOfDay != nil)
                #expect(!fix.isValid)
            }
        }
    }

    @Test func rmcVWithABogusDateAfterRealOnesKeepsTheRealDate() {
        // tn200: RMC V dated 2020-01 in a 2005 capture.
        var lines = PitfallTests.validEpoch("120000", date: "150605")
        lines += [nmea("$GPRMC,120001.00,V,,,,,,,260120,,,N")]
        let run = receive(lines)
        #expect(run.fixes.count == 2)
        #expect(run.fixes[0].time?.description == "2005-06-15T12:00:00.000Z")
        #expect(run.fixes[0].timeIsTrusted)
        #expect(run.fixes[1].time?.date.year != 2020)
        #expect(!run.fixes[1].timeIsTrusted)
    }

    @Test func timeIsTrustedOnlyFromAValidRMCOrZDAInAnEpochWithAFix() {
        // A ZDA in an epoch without a fix is not trusted; GGA alone brings no date.
        let noFix = [
            nmea("$GPGGA,202640.000,,,,,0,00,,,M,,M,,"),
            nmea("$GPZDA,202640.000,13,04,2015,,"),
        ]
        let run = receive(noFix)
        #expect(run.fixes.count == 1)
        #expect(run.fixes[0].time?.description == "2015-04-13T20:26:40.000Z")
        #expect(run.fixes[0].timeIsTrusted == false)
        let withFix = [
            nmea("$GPGGA,202640.000,4404.1306,N,12118.8515,W,2,10,0.98,1127.7,M,-19.6,M,0000,0000"),
            nmea("$GPZDA,202640.000,13,04,2015,,"),
        ]
        let trusted = receive(withFix)
        #expect(trusted.fixes.first?.timeIsTrusted == true)
        #expect(trusted.fixes.first?.time?.description == "2015-04-13T20:26:40.000Z")
    }

    @Test func aLeapSecondEpochKeepsSecondSixty() {
        let lines = [
            nmea("$GPRMC,235960.00,A,4404.14063,N,12118.85478,W,0.117,,311216,,,A"),
            nmea("$GPGGA,235960.00,4404.14063,N,12118.85478,W,1,12,0.91,1147.2,M,-21.3,M,,"),
        ]
        let run = receive(lines)
        #expect(run.fixes.count == 1)
        #expect(run.fixes.first?.time?.description == "2016-12-31T23:59:60.000Z")
        #expect(run.fixes.first?.isValid == true)
    }

    @Test func aWeekRolloverDateIsMovedForwardOnTheDevice() {
        // neo-m8n.log's 2015-03-18, read on a device released 2026-11-21: 1024 weeks later.
        let run = receive(PitfallTests.validEpoch("171926"), rules: .live)
        #expect(run.fixes.first?.time?.description == "2034-11-01T17:19:26.000Z")
        let archive = receive(PitfallTests.validEpoch("171926"), rules: .archive)
        #expect(archive.fixes.first?.time?.description == "2015-03-18T17:19:26.000Z")
    }

    // MARK: GSA "no fix" overrides a position (myguide-3100)

    @Test func gsaNoFixOverridesAnRMCPosition() {
        let myguide = [
            "$GPGGA,105027.80,5612.9956,N,00306.6983,W,,3,2.506,160.002,M,,M,,*6D",
            "$GPRMC,105027.80,V,5612.9956,N,00306.6983,W,,,081009,,W,N*08",
            "$GPGSA,A,1,29,30,9,,,,,,,,,,2.597,2.506,0.681*06",
        ]
        let run = receive(myguide)
        #expect(run.fixes.count == 1)
        #expect(run.fixes.first?.isValid == false)
        #expect(run.fixes.first?.coordinate == nil)
        // Even when the RMC says A, a GSA "no fix" (and nothing else) vetoes the position.
        let contradicting = [
            nmea("$GPRMC,105029.80,A,5612.9978,N,00306.7359,W,0.174,318.057,081009,,W"),
            nmea("$GPGSA,A,1,29,30,9,,,,,,,,,,2.597,2.506,0.681"),
        ]
        let veto = receive(contradicting)
        #expect(veto.fixes.count == 1)
        #expect(veto.fixes.first?.isValid == false)
        #expect(veto.fixes.first?.coordinate == nil)
    }

    @Test func oneGSAPerConstellationWithAFixIsAFixEvenIfAnotherSaysNoFix() {
        // 4.11: several GSAs per epoch; GLONASS may have no fix while GPS has one.
        var lines = PitfallTests.validEpoch("171926")
        lines.append(nmea("$GNGSA,A,1,,,,,,,,,,,,,0.99,0.54,0.83,2"))
        let run = receive(lines)
        #expect(run.fixes.count == 1)
        #expect(run.fixes.first?.isValid == true)
        #expect(run.fixes.first?.mode == .threeD)
    }

    // MARK: §3.6 Corruption

    @Test func dollarPrefixesAndInjectedSentencesReachTheDecoder() {
        let injected = nmea("$GNGGA,171926.00,4404.14063,N,12118.85478,W,1,12,0.91,1147.2,M,-21.3,M,,")
        let text = "$$GNRMC,171926.00,A,4404.14063,N,12118.85478,W,0.117,,180315,,,A*76\r\n"
            + "$GPGSV,3,1,12,05,04,187" + injected + "\r\n" + ",08,11,078,29*75\r\n"
        let run = receive(bytes: Array(text.utf8))
        #expect(run.statistics.accepted == 2)
        #expect(run.statistics.decoded == 2)
        #expect(run.statistics.garbage == 1)
        #expect(run.fixes.count == 1)
        #expect(run.fixes.first?.isValid == true)
        #expect(run.fixes.first?.altitudeMSL == dec(11472, 1))
    }

    @Test func lowerCaseChecksumsDecode() {
        // magellan-ec10.log
        let run = receive(["$GPRMC,205150.00,V,,,,,,,,,,,V*4a", "$GPRMC,205154.00,V,,,,,,,,,,,V*4e"])
        #expect(run.statistics.accepted == 2)
        #expect(run.statistics.decoded == 2)
    }

    @Test func theReceiverCountsUnknownAndMalformedSentences() {
        let lines = [
            "$GPRMB,A,,,,,,,,,,,,V*71",
            "$PGRME,9.1,M,15.0,M,12.0,M*21",
            nmea("$GPRMC,240000,A,4807.038,N,01131.000,E,022.4,084.4,230394,,"),
            "$GPBOD,,T,,M,,*",
            nmeaWithWrongChecksum("$GPZDA,201530.00,04,07,2002,00,00"),
            "$GNVTG,286.35,T,,M,0.00,N,0.00,K,A*29",
        ]
        let s = receive(lines).statistics
        #expect(s.accepted == 4)
        #expect(s.unknown == 2)
        #expect(s.malformed == 1)
        #expect(s.decoded == 1)
        #expect(s.missingChecksum == 1)
        #expect(s.badChecksum == 1)
    }

    // MARK: §3.1 NMEA 4.10/4.11

    @Test func gsvSignalIDsAreNotCountedAsSatellites() {
        let lines = [
            "$GLGSV,3,3,10,83,52,346,29,84,05,307,,1*72",
            "$GAGSV,3,3,10,30,14,215,16,36,08,098,,7*79",
        ]
        let run = receive(lines)
        let counts = run.decodings.compactMap { $0.gsv?.satelliteCount }
        #expect(counts == [2, 2])
    }

    // MARK: §3.7 Talker allow-lists

    @Test(arguments: ["GQ", "GI", "BD", "GB", "GA", "IN", "QZ"])
    func aFixFromAnyTalkerIsUsed(talker: String) {
        let lines = PitfallTests.validEpoch("171926").map { retalk($0, talker) }
        let run = receive(lines)
        #expect(run.statistics.decoded == 3)
        #expect(run.fixes.count == 1)
        #expect(run.fixes.first?.isValid == true)
    }

    @Test func ggaFromSeveralTalkersInOneEpochIsOneEpoch() {
        // sirfstarv sends $GPGGA and $GLGGA per epoch; multi-GNSS receivers may add others.
        let base = "$GPGGA,020935.000,4404.1351,N,12118.8556,W,1,08,0.9,1123.9,M,-19.6,M,,0000*5E"
        for talkers in [["GP", "GL"], ["GP", "GL", "GA", "GB"], ["GL", "GB"], ["GN", "BD", "GQ", "GI"]] {
            var lines = talkers.map { retalk(base, $0) }
            lines.append(nmea("$GNRMC,020935.000,A,4404.1351,N,12118.8556,W,0.04,359.11,050219,,,A"))
            let run = receive(lines)
            #expect(run.fixes.count == 1, "talkers \(talkers) split one epoch into \(run.fixes.count)")
        }
    }

    // MARK: Chunk-split invariance of the whole pipeline

    @Test(arguments: [7, 99] as [UInt64])
    func fixesDoNotDependOnHowTheBytesAreSplit(seed: UInt64) {
        var lines = PitfallTests.validEpoch("171926") + [nmea("$GNRMC,171927.00,V,,,,,,,,,,N")]
        lines += PitfallTests.validEpoch("171928") + PitfallTests.validEpoch("171929")
        let bytes = Array(lines.map { $0 + "\r\n" }.joined().utf8)
        let whole = receive(bytes: bytes)
        var random = SplitMix64(seed: seed)
        let sizes = (0..<200).map { _ in Int.random(in: 1...13, using: &random) }
        let split = receive(bytes: bytes, chunkSizes: sizes)
        #expect(split.fixes == whole.fixes)
        #expect(split.statistics == whole.statistics)
        #expect(receive(bytes: bytes, chunkSizes: [1]).fixes == whole.fixes)
        #expect(whole.fixes.count == 4)
    }
}

import GPS
import Testing

/// Position and time sentences (RMC, GGA, GNS, GLL, VTG, ZDA): exact values from real captures,
/// empty fields, range checks, missing and extra trailing fields.
@Suite struct DecoderFixTests {
    // MARK: RMC

    @Test func rmcFromNeoM8NDecodesExactly() throws {
        let d = decode("$GNRMC,171926.00,A,4404.14063,N,12118.85478,W,0.117,,180315,,,A*76")
        #expect(d.talker == NMEATalker("GN"))
        let m = try #require(d.rmc)
        #expect(m.time == tod(17, 19, 26))
        #expect(m.statusValid == true)
        // 44° 4.14063′ N exactly, 121° 18.85478′ W exactly.
        #expect(m.latitude == dm(44, 4, 140_630_000))
        #expect(m.latitude?.nanominutes == 2_644_140_630_000)
        #expect(m.longitude == dm(121, 18, 854_780_000, negative: true))
        #expect(m.speedKnots == dec(117, 3))
        #expect(m.course == nil)
        #expect(ddmmyy(m.date) == "180315")
        #expect(m.magneticVariation == nil)
        #expect(m.mode == .autonomous)
        #expect(m.navigationalStatus == nil)
    }

    @Test func rmcFromAnRTKReceiverKeepsEightDecimalMinutesAndEastVariation() throws {
        let m = try #require(
            decode("$GNRMC,132819.60,A,4134.49795459,N,09345.03431408,W,0.148,124.888,180320,11.5985,E,D*3F").rmc)
        #expect(m.time == tod(13, 28, 19, 600))
        #expect(m.latitude == dm(41, 34, 497_954_590))
        #expect(m.longitude == dm(93, 45, 34_314_080, negative: true))
        #expect(m.speedKnots == dec(148, 3))
        #expect(m.course == dec(124_888, 3))
        #expect(ddmmyy(m.date) == "180320")
        #expect(m.magneticVariation == dec(115_985, 4))
        #expect(m.mode == .differential)
    }

    @Test func rmcFromGarmin48HasNoTimeFractionSouthLatitudeAndPaddedNumbers() throws {
        let m = try #require(decode("$GPRMC,225308,A,4527.458,S,16709.165,E,000.0,094.5,060601,024.1,E*6D").rmc)
        #expect(m.time == tod(22, 53, 8))
        #expect(m.latitude == dm(45, 27, 458_000_000, negative: true))
        #expect(m.longitude == dm(167, 9, 165_000_000))
        #expect(m.speedKnots == dec(0, 1))
        #expect(m.course == dec(945, 1))
        #expect(ddmmyy(m.date) == "060601")
        #expect(m.magneticVariation == dec(241, 1))
        #expect(m.mode == nil)  // NMEA 2.0: no mode field at all
    }

    @Test func rmcWestVariationIsNegativeAndNavigationalStatusIsKept() throws {
        let m = try #require(decodeBody("$GPRMC,083559.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,3.1,W,A,V").rmc)
        #expect(m.magneticVariation == dec(-31, 1))
        #expect(m.navigationalStatus == UInt8(ascii: "V"))
        // Unicore sends the 4.10 status too.
        let u = try #require(decode("$GNRMC,000653.00,A,4404.12994,N,12118.84613,W,0.052,,090624,,,A,V*08").rmc)
        #expect(u.navigationalStatus == UInt8(ascii: "V"))
        #expect(u.statusValid == true)
    }

    @Test func theEmptyRMCBeforeAFixIsAllAbsentNeverZero() throws {
        let m = try #require(decode("$GPRMC,,V,,,,,,,,,,N*53").rmc)
        #expect(m.time == nil)
        #expect(m.statusValid == false)
        #expect(m.latitude == nil)
        #expect(m.longitude == nil)
        #expect(m.speedKnots == nil)
        #expect(m.course == nil)
        #expect(m.date == nil)
        #expect(m.magneticVariation == nil)
        #expect(m.mode == .notValid)
        // Magellan and beidou-gb variants.
        #expect(decode("$GPRMC,205150.00,V,,,,,,,,,,,V*4a").rmc?.latitude == nil)
        let b = try #require(decode("$GNRMC,053229.438,V,,,,,,,020315,,,N*56").rmc)
        #expect(b.latitude == nil)
        #expect(ddmmyy(b.date) == "020315")
    }

    // MARK: GGA

    @Test func ggaFromAnRTKReceiverDecodesExactly() throws {
        let d = decode("$GNGGA,132819.60,4134.49795459,N,09345.03431408,W,2,10,0.9,278.161,M,-31.442,M,6.6,0133*6A")
        let m = try #require(d.gga)
        #expect(m.time == tod(13, 28, 19, 600))
        #expect(m.latitude == dm(41, 34, 497_954_590))
        #expect(m.longitude == dm(93, 45, 34_314_080, negative: true))
        #expect(m.quality == .differential)
        #expect(m.satellitesUsed == 10)
        #expect(m.hdop == dec(9, 1))
        #expect(m.altitudeMSL == dec(278_161, 3))
        #expect(m.geoidSeparation == dec(-31_442, 3))
    }

    @Test func ggaWithAnEmptyGeoidFieldHasNoGeoidSeparation() throws {
        let m = try #require(decode("$GNGGA,000653.00,4404.12994,N,12118.84613,W,1,29,0.69,1109.2,M,,M,,*71").gga)
        #expect(m.altitudeMSL == dec(11092, 1))
        #expect(m.geoidSeparation == nil)
        #expect(m.satellitesUsed == 29)
        #expect(m.quality == .gps)
    }

    @Test func ggaWithANegativeAltitudeAndSevenDecimalMinutes() throws {
        let lea = try #require(decode("$GPGGA,083723.00,5155.55442,N,00434.65873,E,1,06,2.51,-4.0,M,46.0,M,,*70").gga)
        #expect(lea.altitudeMSL == dec(-40, 1))
        #expect(lea.longitude == dm(4, 34, 658_730_000))
        let sky = try #require(
            decode("$GPGGA,213121.000,4404.1295864,N,12118.8685453,W,2,07,1.2,1102.537,M,-20.300,M,,0000*5F").gga)
        #expect(sky.latitude == dm(44, 4, 129_586_400))
        #expect(sky.longitude == dm(121, 18, 868_545_300, negative: true))
        #expect(sky.geoidSeparation == dec(-20_300, 3))
    }

    @Test func theEmptyGGABeforeAFixIsAllAbsentNeverZero() throws {
        let m = try #require(decode("$GPGGA,,,,,,0,00,99.99,,,,,,*48").gga)
        #expect(m.time == nil)
        #expect(m.latitude == nil)
        #expect(m.longitude == nil)
        #expect(m.quality == .invalid)
        #expect(m.satellitesUsed == 0)
        #expect(m.hdop == dec(9999, 2))
        #expect(m.altitudeMSL == nil)
        #expect(m.geoidSeparation == nil)
        // beidou-gb: a time, no position, quality 0, geoid "0.0" present.
        let b = try #require(decode("$GPGGA,053229.438,,,,,0,00,,,M,0.0,M,,0000*56").gga)
        #expect(b.time == tod(5, 32, 29, 438))
        #expect(b.latitude == nil)
        #expect(b.hdop == nil)
        #expect(b.altitudeMSL == nil)
        #expect(b.geoidSeparation == dec(0, 1))
    }

    @Test func ggaWithAnEmptyQualityFieldHasNoQuality() throws {
        // myguide-3100
        let m = try #require(decode("$GPGGA,105027.80,5612.9956,N,00306.6983,W,,3,2.506,160.002,M,,M,,*6D").gga)
        #expect(m.quality == nil)
        #expect(m.satellitesUsed == 3)
        #expect(m.latitude == dm(56, 12, 995_600_000))
    }

    @Test(arguments: 0...8)
    func everyGGAQualityDecodes(quality: Int) {
        let m = decodeBody("$GPGGA,123519,4807.038,N,01131.000,E,\(quality),08,0.9,545.4,M,46.9,M,,").gga
        #expect(m?.quality == FixQuality(rawValue: UInt8(quality)))
    }

    // MARK: GNS, GLL, VTG, ZDA

    @Test func gnsFromBeidouGBDecodesModesPerSystem() throws {
        let fix = try #require(decode("$GNGNS,053232.438,3114.8789,N,12135.2442,E,ANNA,07,1.2,153.8,8.3,,0000*5F").gns)
        #expect(fix.time == tod(5, 32, 32, 438))
        #expect(fix.latitude == dm(31, 14, 878_900_000))
        #expect(fix.longitude == dm(121, 35, 244_200_000))
        #expect(fix.modeText == "ANNA")
        #expect(fix.saysNoFix == false)
        #expect(fix.satellitesUsed == 7)
        #expect(fix.hdop == dec(12, 1))
        #expect(fix.altitudeMSL == dec(1538, 1))
        #expect(fix.geoidSeparation == dec(83, 1))
        let none = try #require(decode("$GNGNS,053229.438,,,,,NNNN,00,,,0.0,,0000*63").gns)
        #expect(none.modeText == "NNNN")
        #expect(none.saysNoFix == true)
        #expect(none.latitude == nil)
        #expect(none.altitudeMSL == nil)
        #expect(none.geoidSeparation == dec(0, 1))
        #expect(decodeBody("$GNGNS,,,,,,,,,,,,").gns?.saysNoFix == nil)
    }

    @Test func gnsRejectsAnUnknownModeLetterOrTooManySystems() {
        #expect(decodeBody("$GNGNS,053232.438,3114.8789,N,12135.2442,E,AXNA,07,1.2,153.8,8.3,,").malformedField == 6)
        #expect(decodeBody("$GNGNS,053232.438,3114.8789,N,12135.2442,E,AAAAAAA,07,1.2,153.8,8.3,,").malformedField == 6)
        #expect(decodeBody("$GNGNS,053232.438,3114.8789,N,12135.2442,E,AAAAAA,07,1.2,153.8,8.3,,").gns?.modeCount == 6)
    }

    @Test func gllWithAndWithoutTheModeField() throws {
        let garmin = try #require(decode("$GPGLL,4527.458,S,16709.165,E,225309,A*3E").gll)
        #expect(garmin.latitude == dm(45, 27, 458_000_000, negative: true))
        #expect(garmin.longitude == dm(167, 9, 165_000_000))
        #expect(garmin.time == tod(22, 53, 9))
        #expect(garmin.statusValid == true)
        #expect(garmin.mode == nil)
        let quectel = try #require(decode("$GNGLL,4739.71890,N,12219.58362,W,055234.200,A,A*5F").gll)
        #expect(quectel.latitude == dm(47, 39, 718_900_000))
        #expect(quectel.longitude == dm(122, 19, 583_620_000, negative: true))
        #expect(quectel.time == tod(5, 52, 34, 200))
        #expect(quectel.mode == .autonomous)
        let void = try #require(decodeBody("$GPGLL,,,,,,V,N").gll)
        #expect(void.latitude == nil)
        #expect(void.time == nil)
        #expect(void.statusValid == false)
        #expect(void.mode == .notValid)
    }

    @Test func vtgWithUnitLettersEmptyTrackAndNMEA15Layout() throws {
        let q = try #require(decode("$GNVTG,286.35,T,,M,0.00,N,0.00,K,A*29").vtg)
        #expect(q.trackTrue == dec(28635, 2))
        #expect(q.trackMagnetic == nil)
        #expect(q.speedKnots == dec(0, 2))
        #expect(q.speedKilometresPerHour == dec(0, 2))
        #expect(q.mode == .autonomous)
        let lea = try #require(decode("$GPVTG,,T,,M,0.211,N,0.391,K,A*2A").vtg)
        #expect(lea.trackTrue == nil)
        #expect(lea.speedKnots == dec(211, 3))
        #expect(lea.speedKilometresPerHour == dec(391, 3))
        let old = try #require(decodeBody("$GPVTG,054.7,034.4,005.5,010.2").vtg)
        #expect(old.trackTrue == dec(547, 1))
        #expect(old.trackMagnetic == dec(344, 1))
        #expect(old.speedKnots == dec(55, 1))
        #expect(old.speedKilometresPerHour == dec(102, 1))
        #expect(old.mode == nil)
    }

    @Test func zdaWithAndWithoutTheZone() throws {
        let m9n = try #require(decode("$GNZDA,223745.00,11,07,2020,00,00*7A").zda)
        #expect(m9n.time == tod(22, 37, 45))
        #expect(m9n.date == ymd(2020, 7, 11))
        #expect(m9n.zoneHours == 0)
        #expect(m9n.zoneMinutes == 0)
        let mt = try #require(decode("$GPZDA,202640.000,13,04,2015,,*54").zda)
        #expect(mt.date == ymd(2015, 4, 13))
        #expect(mt.zoneHours == nil)
        #expect(mt.zoneMinutes == nil)
        let zone = try #require(decodeBody("$GPZDA,201530.00,04,07,2002,-05,30").zda)
        #expect(zone.zoneHours == -5)
        #expect(zone.zoneMinutes == 30)
        let empty = try #require(decodeBody("$GPZDA,,,,,,").zda)
        #expect(empty.time == nil)
        #expect(empty.date == nil)
    }

    @Test func aPartialZDADateIsMalformed() {
        #expect(decodeBody("$GPZDA,201530.00,04,07,,00,00").malformedField == 2)
        #expect(decodeBody("$GPZDA,201530.00,,07,2002,00,00").malformedField == 2)
    }

    // MARK: Range checks

    @Test(arguments: [
        ("$GPRMC,240000.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,,", 1),  // hour 24
        ("$GPRMC,126000.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,,", 1),  // minute 60
        ("$GPRMC,123461.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,,", 1),  // second 61
        ("$GPRMC,1235.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,,", 1),  // too short
        ("$GPRMC,12a519,A,4807.038,N,01131.000,E,022.4,084.4,230394,,", 1),  // a letter
        ("$GPRMC,123519x5,A,4807.038,N,01131.000,E,022.4,084.4,230394,,", 1),  // no point
        ("$GPRMC,123519,X,4807.038,N,01131.000,E,022.4,084.4,230394,,", 2),  // status
        ("$GPRMC,123519,A,9100.000,N,01131.000,E,022.4,084.4,230394,,", 3),  // |lat| > 90
        ("$GPRMC,123519,A,9000.001,N,01131.000,E,022.4,084.4,230394,,", 3),  // just over 90
        ("$GPRMC,123519,A,4860.000,N,01131.000,E,022.4,084.4,230394,,", 3),  // minute 60.0
        ("$GPRMC,123519,A,48a7.038,N,01131.000,E,022.4,084.4,230394,,", 3),  // a letter
        ("$GPRMC,123519,A,-4807.038,N,01131.000,E,022.4,084.4,230394,,", 3),  // a sign
        ("$GPRMC,123519,A,04807.038,N,01131.000,E,022.4,084.4,230394,,", 3),  // 5 digits
        ("$GPRMC,123519,A,48.038,N,01131.000,E,022.4,084.4,230394,,", 3),  // 2 digits
        ("$GPRMC,123519,A,4807.038,E,01131.000,E,022.4,084.4,230394,,", 4),  // hemisphere
        ("$GPRMC,123519,A,4807.038,,01131.000,E,022.4,084.4,230394,,", 4),  // no hemisphere
        ("$GPRMC,123519,A,,N,01131.000,E,022.4,084.4,230394,,", 4),  // hemisphere alone
        ("$GPRMC,123519,A,4807.038,N,18100.000,E,022.4,084.4,230394,,", 5),  // |lon| > 180
        ("$GPRMC,123519,A,4807.038,N,01160.000,W,022.4,084.4,230394,,", 5),  // minute 60.0
        ("$GPRMC,123519,A,4807.038,N,0011311.000,E,022.4,084.4,230394,,", 5),  // 7 digits
        ("$GPRMC,123519,A,4807.038,N,01131.000,N,022.4,084.4,230394,,", 6),  // hemisphere
        ("$GPRMC,123519,A,4807.038,N,01131.000,E,-22.4,084.4,230394,,", 7),  // negative speed
        ("$GPRMC,123519,A,4807.038,N,01131.000,E,1.2.3,084.4,230394,,", 7),  // two points
        ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,360.1,230394,,", 8),  // course > 360
        ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,310421,,", 9),  // 31 April
        ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,290223,,", 9),  // 29 Feb 2023
        ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,011326,,", 9),  // month 13
        ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,000126,,", 9),  // day 0
        ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,01012026,,", 9),  // 4-digit year
        ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,0101-1,,", 9),  // april6: year -1
        ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,3.1,X", 11),  // variation side
        ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,,,Q", 12),  // mode letter
        ("$GPGGA,123519,4807.038,N,01131.000,E,9,08,0.9,545.4,M,46.9,M,,", 6),  // quality 9
        ("$GPGGA,123519,4807.038,N,01131.000,E,1,100,0.9,545.4,M,46.9,M,,", 7),  // 100 satellites
        ("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,5z45.4,M,46.9,M,,", 9),  // pynmea2's '5z45.4'
        ("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,-,M,46.9,M,,", 9),  // sign alone
        ("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,.,M,46.9,M,,", 9),  // point alone
        // Altitude and geoid separation are range-checked: 100 km and 1 km.
        ("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,999999999999999999,M,46.9,M,,", 9),
        ("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,100000.1,M,46.9,M,,", 9),
        ("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,-1000.01,M,,", 11),
        ("$GNGNS,053232.438,3114.8789,N,12135.2442,E,AA,07,1.2,-100000.5,8.3,,", 9),
        ("$GNGNS,053232.438,3114.8789,N,12135.2442,E,AA,07,1.2,153.8,1000.5,,", 10),
        ("$GPGLL,4807.038,N,01131.000,E,246000,A,A", 5),  // hour 24
        ("$GPZDA,201530.00,31,04,2021,00,00", 2),  // 31 April
        ("$GPZDA,201530.00,29,02,2100,00,00", 2),  // 2100 is not a leap year
        ("$GPZDA,201530.00,04,07,2002,14,00", 5),  // zone hours 14
        ("$GPZDA,201530.00,04,07,2002,1.5,00", 5),  // zone hours with a fraction
        ("$GPZDA,201530.00,04,07,2002,00,60", 6),  // zone minutes 60
        ("$GPVTG,361.0,T,,M,0.00,N,0.00,K,A", 1),  // track > 360
    ])
    func outOfRangeOrGarbledFieldsMakeTheSentenceMalformed(body: String, field: Int) {
        #expect(decodeBody(body) == .malformed(fieldIndex: field))
    }

    @Test(arguments: [
        "$GPRMC,123519,A,9000.000,N,01131.000,E,022.4,084.4,230394,,",
        "$GPRMC,123519,A,9000.000,S,18000.000,W,022.4,084.4,230394,,",
        "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,360.0,230394,,",
        "$GPRMC,123519,A,0000.0000,N,00000.0000,E,0,0,290224,,",  // 29 Feb 2024, and 0°,0° is legal
        "$GPRMC,123519,A,4807.,N,01131,E,022.4,084.4,290200,,",  // 29 Feb 2000; no fraction
    ])
    func boundaryValuesAreAccepted(body: String) {
        #expect(decodeBody(body).rmc != nil)
    }

    @Test func extremeButPlausibleAltitudesAreAccepted() throws {
        let high = try #require(decodeBody("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,100000.0,M,-1000.0,M,,").gga)
        #expect(high.altitudeMSL == NMEADecimal(100_000))
        #expect(high.geoidSeparation == NMEADecimal(-1000))
        let precise = try #require(decodeBody("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,-0.00000000000000001,M,0,M,,").gga)
        #expect(precise.altitudeMSL == NMEADecimal(mantissa: -1, scale: 17))
    }

    @Test func secondSixtyIsALeapSecondAndAccepted() throws {
        let m = try #require(decodeBody("$GPRMC,235960.50,A,4807.038,N,01131.000,E,022.4,084.4,311216,,").rmc)
        #expect(m.time?.hour == 23)
        #expect(m.time?.minute == 59)
        #expect(m.time?.second == 60)
        #expect(m.time?.millisecond == 500)
        #expect(decodeBody("$GPZDA,235960,31,12,2016,00,00").zda?.time?.second == 60)
    }

    @Test func timeFractionsOfAnyLengthKeepMilliseconds() {
        #expect(decodeBody("$GPGLL,,,,,123519.,A,A").gll?.time == tod(12, 35, 19))
        #expect(decodeBody("$GPGLL,,,,,123519.5,A,A").gll?.time == tod(12, 35, 19, 500))
        #expect(decodeBody("$GPGLL,,,,,123519.05,A,A").gll?.time == tod(12, 35, 19, 50))
        #expect(decodeBody("$GPGLL,,,,,123519.123456,A,A").gll?.time == tod(12, 35, 19, 123))
    }

    @Test func minuteDigitsBeyondTheNinthAreTruncatedNotRounded() {
        let m = decodeBody("$GPGLL,4807.0123456789,N,01131.9999999999,E,,A,A").gll
        #expect(m?.latitude == dm(48, 7, 12_345_678))
        #expect(m?.longitude == dm(11, 31, 999_999_999))
    }

    // MARK: Missing and extra trailing fields

    @Test func missingTrailingFieldsAreAbsent() throws {
        // NMEA 2.0 RMC (no mode), GGA cut after the quality, GSA without DOPs.
        let rmc = try #require(decodeBody("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394").rmc)
        #expect(ddmmyy(rmc.date) == "230394")
        #expect(rmc.magneticVariation == nil)
        #expect(rmc.mode == nil)
        let gga = try #require(decodeBody("$GPGGA,123519,4807.038,N,01131.000,E,1").gga)
        #expect(gga.quality == .gps)
        #expect(gga.latitude == dm(48, 7, 38_000_000))
        #expect(gga.satellitesUsed == nil)
        #expect(gga.altitudeMSL == nil)
        let short = try #require(decodeBody("$GPRMC,123519").rmc)
        #expect(short.time == tod(12, 35, 19))
        #expect(short.statusValid == nil)
        #expect(decodeBody("$GPZDA,201530.00").zda?.date == nil)
    }

    @Test func extraTrailingFieldsAreIgnored() {
        let base = "$GNRMC,171926.00,A,4404.14063,N,12118.85478,W,0.117,,180315,,,A"
        let plain = decodeBody(base)
        #expect(plain.rmc != nil)
        #expect(decodeBody(base + ",V,EXTRA,1,2,3") .rmc?.latitude == plain.rmc?.latitude)
        #expect(decodeBody(base + ",V,EXTRA,1,2,3").rmc?.date == plain.rmc?.date)
        let gga = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
        #expect(decodeBody(gga + ",extra,fields,x") == decodeBody(gga))
        #expect(decodeBody("$GPZDA,201530.00,04,07,2002,00,00,99,zz") == decodeBody("$GPZDA,201530.00,04,07,2002,00,00"))
    }
}

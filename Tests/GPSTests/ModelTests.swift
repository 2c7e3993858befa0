import GPS
import HAL
import Testing

/// Exact values and their one conversion to `Double` at the edge.
@Suite struct ModelTests {
    // MARK: GeoAngle

    @Test(arguments: [
        ("4404.14063", "N", 44.0690105),
        ("12118.85478", "W", -121.31424633333333),
        ("4134.49795459", "N", 41.574965909833333),
        ("09345.03431408", "W", -93.750571901333333),
        ("4527.458", "S", -45.457633333333333),
        ("17959.9999999", "E", 179.99999999833333),
        ("9000.0000", "S", -90.0),
        ("0000.0001", "N", 0.0000016666666666666667),
    ])
    func degreesMatchTheDecimalValueWithinOneTrillionth(field: String, hemisphere: String, degrees: Double) throws {
        let isLatitude = hemisphere == "N" || hemisphere == "S"
        let body = isLatitude ? "$GPGLL,\(field),\(hemisphere),,,,A" : "$GPGLL,,,\(field),\(hemisphere),,A"
        let gll = try #require(decodeBody(body).gll)
        let angle = try #require(isLatitude ? gll.latitude : gll.longitude)
        #expect(abs(angle.degrees - degrees) <= 1e-12)
    }

    @Test func angleFieldsAreExactNanoMinutes() {
        #expect(dm(44, 4, 140_630_000).nanominutes == (44 * 60 + 4) * 1_000_000_000 + 140_630_000)
        #expect(dm(44, 4, 140_630_000, negative: true).nanominutes == -2_644_140_630_000)
        #expect(GeoAngle(nanominutes: 180 * GeoAngle.nanominutesPerDegree).degrees == 180)
        #expect(dm(1, 0) > dm(0, 59, 999_999_999))
        #expect(dm(0, 30).degrees == 0.5)
    }

    @Test func degreesAreCorrectlyRoundedOverTheWholeRange() {
        // Every whole arc-minute from -180° to 180°: one division, so within half an ulp of the
        // exact quotient, which for minutes/60 means |error| < 1e-13° here.
        for minutes in stride(from: -10_800, through: 10_800, by: 7) {
            let angle = GeoAngle(nanominutes: Int64(minutes) * 1_000_000_000)
            #expect(abs(angle.degrees - Double(minutes) / 60) <= 1e-13)
        }
    }

    // MARK: NMEADecimal

    @Test(arguments: [
        (11472 as Int64, 1 as UInt8, 1147.2),
        (-21_300, 3, -21.3),
        (117, 3, 0.117),
        (49_795_459, 8, 0.49795459),
        (0, 2, 0.0),
        (999_999_999_999_999_999, 18, 0.999999999999999999),
        (42, 0, 42.0),
    ])
    func decimalToDoubleIsTheNearestDouble(mantissa: Int64, scale: UInt8, expected: Double) {
        #expect(NMEADecimal(mantissa: mantissa, scale: scale).doubleValue == expected)
    }

    @Test func decimalsCompareByValueWhateverTheirScale() {
        #expect(dec(10, 1) == dec(1, 0))
        #expect(dec(1000, 3) == NMEADecimal(1))
        #expect(dec(1, 1) != dec(1, 2))
        #expect(dec(-5, 1) != dec(5, 1))
        #expect(Set([dec(10, 1), dec(1, 0), dec(100, 2)]).count == 1)
        #expect(dec(0, 3).hashValue == dec(0, 0).hashValue)
    }

    @Test func decimalsWithEighteenDigitsCompareAtAnyScaleWithoutOverflow() {
        // Rescaling the first to 18 decimals needs 36 digits (this once trapped).
        let big = dec(999_999_999_999_999_999, 0), small = dec(999_999_999_999_999_999, 18)
        #expect(big != small)
        #expect(dec(.max, 0) != dec(.max, 1))
        #expect(dec(.min + 1, 0) != dec(-1, 18))
        #expect(dec(100_000_000_000_000_000, 0) == dec(100_000_000_000_000_000, 0))
        #expect(Set([big, small]).count == 2)
    }

    @Test func decimalRescalingSaturatesInsteadOfTrapping() {
        #expect(dec(999_999_999_999_999_999, 0).scaled(to: 18) == .max)
        #expect(dec(-999_999_999_999_999_999, 0).scaled(to: 18) == .min)
    }

    @Test func decimalRescalingTruncatesTowardZero() {
        #expect(dec(11472, 1).scaled(to: 3) == 1_147_200)
        #expect(dec(11479, 2).scaled(to: 1) == 1147)
        #expect(dec(-11479, 2).scaled(to: 1) == -1147)
    }

    @Test func decimalDescriptionIsTheTextTheReceiverSent() {
        #expect(dec(117, 3).description == "0.117")
        #expect(dec(-21_300, 3).description == "-21.300")
        #expect(dec(-5, 1).description == "-0.5")
        #expect(dec(1_147, 0).description == "1147")
        #expect(dec(5, 2).description == "0.05")
    }

    @Test func decimalFieldsWithManyDecimalsStayInRange() throws {
        // maximum × 10^scale overflows Int64 for 99 999 knots with 15 decimals.
        let rmc = try #require(decodeBody("$GPRMC,123519,A,,,,,1.000000000000000,0.00000000000000000,230394,,").rmc)
        #expect(rmc.speedKnots == NMEADecimal(1))
        #expect(rmc.course == NMEADecimal(0))
        #expect(decodeBody("$GPRMC,123519,A,,,,,100000.000000000000,,230394,,").malformedField == 7)
        #expect(decodeBody("$GPRMC,123519,A,,,,,1234567890123456789,,230394,,").malformedField == 7)  // 19 digits
    }

    // MARK: Calendar and time

    @Test func daysFromCivilRoundTripsOverTenThousandYears() {
        var previous = CalendarDate(daysSinceEpoch: -1_500_001)
        for days in -1_500_000...1_500_000 where days % 13 == 0 || (-800...800).contains(days) {
            let date = CalendarDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            #expect(CalendarDate(year: date.year, month: date.month, day: date.day) == date)
            #expect(previous < date)
            previous = date
        }
    }

    @Test func consecutiveDaysAreConsecutiveDates() {
        var date = ymd(1899, 12, 31)
        for _ in 0..<(366 * 210) {
            let next = date.adding(days: 1)
            let expected = date.day < CalendarDate.daysInMonth(date.month, year: date.year)
                ? ymd(date.year, date.month, date.day + 1)
                : date.month < 12 ? ymd(date.year, date.month + 1, 1) : ymd(date.year + 1, 1, 1)
            #expect(next == expected)
            date = next
        }
    }

    @Test(arguments: [
        (1970, 1, 1, 0), (2000, 3, 1, 11_017), (1999, 8, 22, 10_825), (1980, 1, 6, 3_657),
        (1969, 12, 31, -1), (2038, 1, 19, 24_855), (1600, 3, 1, -135_080), (2026, 11, 21, 20_778),
    ])
    func knownDaysSinceTheEpoch(year: Int, month: Int, day: Int, days: Int) {
        #expect(ymd(year, month, day).daysSinceEpoch == days)
        #expect(CalendarDate(daysSinceEpoch: days) == ymd(year, month, day))
    }

    @Test func onlyRealCalendarDatesExist() {
        #expect(CalendarDate(year: 2021, month: 4, day: 31) == nil)
        #expect(CalendarDate(year: 2023, month: 2, day: 29) == nil)
        #expect(CalendarDate(year: 2024, month: 2, day: 29) != nil)
        #expect(CalendarDate(year: 2000, month: 2, day: 29) != nil)
        #expect(CalendarDate(year: 1900, month: 2, day: 29) == nil)
        #expect(CalendarDate(year: 2026, month: 13, day: 1) == nil)
        #expect(CalendarDate(year: 2026, month: 0, day: 1) == nil)
        #expect(CalendarDate(year: 2026, month: 1, day: 0) == nil)
        #expect(CalendarDate(year: 2026, month: 12, day: 31) != nil)
        #expect(ymd(2026, 11, 21).description == "2026-11-21")
        #expect(ymd(999, 1, 2).description == "0999-01-02")
    }

    @Test func timeOfDayAcceptsTheLeapSecondAndNothingBeyond() {
        #expect(TimeOfDay(hour: 23, minute: 59, second: 60) != nil)
        #expect(TimeOfDay(hour: 23, minute: 59, second: 61) == nil)
        #expect(TimeOfDay(hour: 24, minute: 0, second: 0) == nil)
        #expect(TimeOfDay(hour: 0, minute: 60, second: 0) == nil)
        #expect(TimeOfDay(hour: 0, minute: 0, second: 0, millisecond: 1000) == nil)
        #expect(TimeOfDay(hour: -1, minute: 0, second: 0) == nil)
        let leap = tod(23, 59, 60, 250)
        #expect((leap.hour, leap.minute, leap.second, leap.millisecond) == (23, 59, 60, 250))
        #expect(leap.description == "23:59:60.250")
        #expect(tod(7, 5, 3, 9).description == "07:05:03.009")
        #expect(tod(0, 0, 0) < tod(0, 0, 0, 1))
    }

    @Test func utcTimeMillisecondsAndText() {
        let t = UTCTime(date: ymd(2015, 3, 18), timeOfDay: tod(17, 19, 26, 500))
        #expect(t.millisecondsSinceEpoch == 1_426_699_166_500)
        #expect(t.description == "2015-03-18T17:19:26.500Z")
        // The leap second folds onto the next minute's first second, as POSIX time does.
        let leap = UTCTime(date: ymd(2016, 12, 31), timeOfDay: tod(23, 59, 60))
        #expect(leap.millisecondsSinceEpoch == UTCTime(date: ymd(2017, 1, 1), timeOfDay: tod(0, 0, 0)).millisecondsSinceEpoch)
        #expect(leap < UTCTime(date: ymd(2017, 1, 1), timeOfDay: tod(0, 0, 0)))
    }

    @Test func fixSpeedInMetresPerSecondAndEmptyFixIsNotValid() {
        var fix = Fix()
        #expect(!fix.isValid)
        #expect(fix.coordinate == nil)
        #expect(fix.speedMetresPerSecond == nil)
        fix.speedKnots = dec(1, 0)
        #expect(abs(fix.speedMetresPerSecond! - 0.514444) < 1e-6)
        fix.mode = .twoD
        #expect(fix.isValid)
        fix.mode = .noFix
        #expect(!fix.isValid)
    }
}

extension ModelTests {
    @Test func secondSixtyIsOnlyALeapSecondAtTheEndOfTheUTCDay() {
        // Anywhere else it would read back as the next minute (12:34:60 == 12:35:00).
        #expect(TimeOfDay(hour: 12, minute: 34, second: 60) == nil)
        #expect(TimeOfDay(hour: 23, minute: 58, second: 60) == nil)
        #expect(decodeBody("$GPGLL,,,,,123460,A,A").malformedField == 5)
        #expect(tod(23, 59, 60) != tod(0, 0, 0))
        #expect(tod(23, 59, 59, 999) < tod(23, 59, 60))
    }
}

import GPS
import Testing

/// Two-digit year pivot and GPS week-rollover repair (docs/design/parts.md#the-gps-receiver).
@Suite struct GPSTimeRulesTests {
    @Test func theReleaseDateIsTheLiveReference() {
        #expect(GPSTimeRules.releaseDate == ymd(2026, 11, 21))
        #expect(GPSTimeRules.live.referenceDate == GPSTimeRules.releaseDate)
        #expect(GPSTimeRules.archive.referenceDate == ymd(1999, 8, 22))
    }

    @Test(arguments: [
        (80, 1980), (26, 2026), (46, 2046), (47, 1947), (0, 2000), (99, 1999), (15, 2015), (69, 1969), (45, 2045),
    ])
    func twoDigitYearsPivotOnTheReleaseYear(yy: Int, year: Int) {
        #expect(GPSTimeRules.live.year(forTwoDigitYear: yy) == year)
        // The archive rules read two-digit years the same way.
        #expect(GPSTimeRules.archive.year(forTwoDigitYear: yy) == year)
    }

    @Test func theWeekCounterRolloverIsOneThousandTwentyFourWeeks() {
        // GPS epoch + 1024 weeks = first rollover; + 2048 = second.
        #expect(ymd(1980, 1, 6).adding(days: 1024 * 7) == ymd(1999, 8, 22))
        #expect(ymd(1999, 8, 22).adding(days: 1024 * 7) == ymd(2019, 4, 7))
    }

    @Test func archiveRulesKeepEveryDateFromTheFirstRolloverOn() {
        for d in [ymd(1999, 8, 22), ymd(2005, 6, 15), ymd(2015, 3, 18), ymd(2019, 4, 6), ymd(2026, 11, 21)] {
            #expect(GPSTimeRules.archive.corrected(d) == d)
        }
    }

    @Test func archiveRulesRepairADateBeforeTheFirstRollover() {
        // A receiver whose counter rolled over on 2019-04-07 reports 1999-08-22 for that day.
        #expect(GPSTimeRules.archive.corrected(ymd(1999, 8, 21)) == ymd(2019, 4, 6))
        #expect(GPSTimeRules.archive.corrected(ymd(1980, 1, 6)) == ymd(1999, 8, 22))
    }

    @Test func liveRulesMoveA2015DateForwardTo2034() {
        // neo-m8n.log: 2015-03-18 on a device released 2026-11-21 (gpsd's .chk agrees).
        #expect(GPSTimeRules.live.corrected(ymd(2015, 3, 18)) == ymd(2034, 11, 1))
    }

    @Test func liveRulesMoveEveryEarlierDateToOnOrAfterTheRelease() {
        let release = GPSTimeRules.releaseDate.daysSinceEpoch
        for days in stride(from: ymd(1980, 1, 6).daysSinceEpoch, to: release, by: 97) {
            let date = CalendarDate(daysSinceEpoch: days)
            let corrected = GPSTimeRules.live.corrected(date)
            #expect(corrected != nil)
            guard let corrected else { continue }
            let moved = corrected.daysSinceEpoch - days
            #expect(corrected.daysSinceEpoch >= release)
            #expect(corrected.daysSinceEpoch - 1024 * 7 < release)  // the smallest step that works
            #expect(moved % (1024 * 7) == 0)
        }
    }

    @Test func liveRulesKeepDatesFromTheReleaseOn() {
        for d in [ymd(2026, 11, 21), ymd(2027, 1, 1), ymd(2040, 2, 29), ymd(2046, 11, 21)] {
            #expect(GPSTimeRules.live.corrected(d) == d)
        }
    }

    @Test(arguments: [GPSTimeRules.live, .archive])
    func datesMoreThanTwentyYearsAfterTheReleaseAreRejected(rules: GPSTimeRules) {
        #expect(rules.corrected(ymd(2046, 11, 21)) == ymd(2046, 11, 21))
        #expect(rules.corrected(ymd(2046, 11, 22)) == nil)
        #expect(rules.corrected(ymd(2046, 12, 6)) == nil)
        #expect(rules.corrected(ymd(2080, 1, 5)) == nil)  // MTK cold start
        #expect(rules.corrected(ymd(9999, 12, 31)) == nil)
    }

    @Test func aDateFarInThePastIsStillRepairedWithoutHanging() {
        // ZDA can carry any 4-digit year; year 1 needs ~100 steps, and lands after the reference.
        let corrected = GPSTimeRules.live.corrected(ymd(1, 1, 1))
        #expect(corrected.map { $0 >= GPSTimeRules.releaseDate } == true)
    }
}

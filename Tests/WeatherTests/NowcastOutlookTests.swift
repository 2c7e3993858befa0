import HAL
import Testing
@testable import Weather

/// The "next two hours" summariser on built nowcasts: each case a few steps around 14:05 UTC
/// on 22 May 2026, the data fetched at 14:00 unless a case says otherwise.
@Suite struct NowcastOutlookTests {
    /// 2026-05-22 14:00:00 UTC.
    static let base = WallTime(seconds: 1_779_458_400)
    static let now = at(5)

    static func at(_ minutes: Int) -> WallTime { base + .seconds(minutes * 60) }

    /// Quarter-hour steps from 14:00, one per value: mm of precipitation (rain), nil for null.
    static func quarters(_ amounts: [Double?], from start: Int = 0) -> [NowcastStep] {
        amounts.enumerated().map { index, amount in
            NowcastStep(
                start: at(start + index * 15), length: NowcastStep.quarterHour, precipitation: amount, rain: amount,
                snowfall: amount.map { _ in 0 }, windGusts: amount.map { _ in 8 },
                condition: amount.map { $0 > 0 ? Condition(wmo: 61, isNight: false)! : Condition(wmo: 3, isNight: false)! })
        }
    }

    static func summarise(
        _ steps: [NowcastStep], hours: [HourlyPoint] = [], now: WallTime = now, fetchedAt: WallTime = base
    ) -> NowcastOutlook? {
        NowcastOutlook.summarise(nowcast: steps, hours: hours, now: now, fetchedAt: fetchedAt)
    }

    @Test func testOutlook_NothingFallsForTwoHours_Dry() {
        #expect(Self.summarise(Self.quarters(Array(repeating: 0, count: 12))) == .dry)
    }

    @Test func testOutlook_RainFromTheThirdQuarter_StartsAt1430() {
        let steps = Self.quarters([0, 0, 0.4, 1.2, 0.8, 0, 0, 0, 0, 0, 0, 0])
        #expect(Self.summarise(steps) == .starts(.rain, at: Self.at(30), chance: nil))
    }

    @Test func testOutlook_TraceBelowAGaugesTenth_StaysDry() {
        // 0.05 mm is a trace (WMO-No. 8): not rain.
        #expect(Self.summarise(Self.quarters([0.05, 0.05, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])) == .dry)
    }

    @Test func testOutlook_RainingNow_UntilTheFirstDryQuarter() {
        let steps = Self.quarters([0.6, 0.4, 0.2, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(Self.summarise(steps) == .until(.rain, end: Self.at(45)))
    }

    @Test func testOutlook_RainingThroughTheWindow_NoEnd() {
        #expect(Self.summarise(Self.quarters(Array(repeating: 0.5, count: 12))) == .until(.rain, end: nil))
    }

    @Test func testOutlook_SnowfallOutweighsRain_SnowFrom() {
        var steps = Self.quarters(Array(repeating: 0, count: 12))
        // 0.7 cm = 7 mm of depth ≈ 1 mm of water, against 0.1 mm of rain: snow.
        steps[5] = NowcastStep(
            start: Self.at(75), length: NowcastStep.quarterHour, precipitation: 1.1, rain: 0.1, snowfall: 7,
            condition: Condition(wmo: 73, isNight: false))
        #expect(Self.summarise(steps) == .starts(.snow, at: Self.at(75), chance: nil))
    }

    @Test func testOutlook_ThunderCodeLaterOutranksRainNow() {
        var steps = Self.quarters(Array(repeating: 0.3, count: 12))
        steps[8].condition = Condition(wmo: 95, isNight: false)
        #expect(Self.summarise(steps) == .thunder(at: Self.at(120)))
    }

    @Test func testOutlook_GaleGust_StrongestWithItsTime() {
        var steps = Self.quarters(Array(repeating: 0, count: 12))
        steps[3].windGusts = 17.5
        steps[6].windGusts = 19.4
        steps[7].windGusts = 17.0
        #expect(Self.summarise(steps) == .gusts(metresPerSecond: 19.4, at: Self.at(90)))
    }

    @Test func testOutlook_GustBelowGale_NoWarning() {
        var steps = Self.quarters(Array(repeating: 0, count: 12))
        steps[3].windGusts = 17.1
        #expect(Self.summarise(steps) == .dry)
    }

    @Test func testOutlook_GustOutranksRainButNotThunder() {
        var steps = Self.quarters([0, 0.5, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        steps[4].windGusts = 20
        #expect(Self.summarise(steps) == .gusts(metresPerSecond: 20, at: Self.at(60)))
        steps[6].condition = Condition(wmo: 96, isNight: false)
        #expect(Self.summarise(steps) == .thunder(at: Self.at(90)))
    }

    @Test func testOutlook_NoQuarterHours_HourlyProbabilityDecides() {
        let hours = [
            HourlyPoint(time: Self.at(0), precipitationChance: 10, precipitation: 0),
            HourlyPoint(time: Self.at(60), precipitationChance: 70, precipitation: 1.4),
            HourlyPoint(time: Self.at(120), precipitationChance: 90, precipitation: 3),
        ]
        #expect(Self.summarise([], hours: hours) == .starts(.rain, at: Self.at(60), chance: 70))
        // Below "more likely than not": dry.
        var unlikely = hours
        unlikely[1].precipitationChance = 40
        unlikely[2].precipitationChance = 30
        #expect(Self.summarise([], hours: unlikely) == .dry)
    }

    @Test func testOutlook_NullQuarterHours_TheHourFillsTheGap() {
        // The first hour's quarters are all null: the hour's 80 % says rain from now on.
        let steps = Self.quarters([nil, nil, nil, nil, 0, 0, 0, 0, 0, 0, 0, 0])
        let hours = [HourlyPoint(time: Self.at(0), precipitationChance: 80, precipitation: 2)]
        #expect(Self.summarise(steps, hours: hours) == .starts(.rain, at: Self.now, chance: 80))
        // Without the hour the window is not covered: nothing to say, certainly not "dry".
        #expect(Self.summarise(steps) == nil)
    }

    @Test func testOutlook_ThunderInTheHourlyCode_WhenQuartersAreMissing() {
        let steps = Self.quarters([0, 0, 0, 0])
        let hours = [
            HourlyPoint(time: Self.at(60), precipitationChance: 40, condition: Condition(wmo: 95, isNight: false)),
            HourlyPoint(time: Self.at(120), precipitationChance: 20),
        ]
        #expect(Self.summarise(steps, hours: hours) == .thunder(at: Self.at(60)))
    }

    @Test func testOutlook_WindowPastTheData_NeverDry() {
        // 45 minutes of dry quarters and nothing after: nothing is said.
        #expect(Self.summarise(Self.quarters([0, 0, 0])) == nil)
    }

    @Test func testOutlook_StaleData_SaysItsAgeNotDry() {
        let steps = Self.quarters(Array(repeating: 0, count: 24), from: -120)
        // Fetched 12:00, 2 h 5 min ago: older than the hour in which the screens call it fresh.
        let outlook = Self.summarise(steps, fetchedAt: Self.at(-120))
        #expect(outlook == .unsure(age: .seconds(125 * 60)))
        // An hour old exactly is still fresh (RefreshPolicy.staleAfter).
        #expect(Self.summarise(steps, fetchedAt: Self.at(-55)) == .dry)
        // Older than the blanking age: silent.
        #expect(Self.summarise(steps, fetchedAt: Self.at(-200)) == nil)
    }

    @Test func testOutlook_StaleData_StillWarnsOfRain() {
        let steps = Self.quarters([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0])
        #expect(Self.summarise(steps, fetchedAt: Self.at(-90)) == .starts(.rain, at: Self.at(75), chance: nil))
    }

    @Test func testOutlook_StampInTheFuture_Silent() {
        #expect(Self.summarise(Self.quarters(Array(repeating: 0, count: 12)), fetchedAt: Self.at(30)) == nil)
    }

    @Test func testOutlook_METHours_NextHourPeriods() {
        // MET Norway's next_1_hours: amounts only, no split, no gusts; the symbol tells snow.
        let steps = [
            NowcastStep(start: Self.at(0), length: NowcastStep.hour, precipitation: 0, condition: Condition(metSymbol: "cloudy")),
            NowcastStep(start: Self.at(60), length: NowcastStep.hour, precipitation: 0.9, condition: Condition(metSymbol: "lightsnow")),
            NowcastStep(start: Self.at(120), length: NowcastStep.hour, precipitation: 0.2, condition: Condition(metSymbol: "lightsnow")),
        ]
        #expect(Self.summarise(steps) == .starts(.snow, at: Self.at(60), chance: nil))
    }

    @Test func testOutlook_CodeWithoutAmounts_Decides() {
        let steps = (0..<3).map {
            NowcastStep(start: Self.at($0 * 60), length: NowcastStep.hour, condition: Condition(metSymbol: $0 == 0 ? "rain" : "cloudy"))
        }
        #expect(Self.summarise(steps) == .until(.rain, end: Self.at(60)))
    }
}

extension NowcastOutlookTests {
    @Test func testOutlook_OnlyGustsInTheQuarters_NotDry() {
        let steps = (0..<12).map { NowcastStep(start: Self.at($0 * 15), length: NowcastStep.quarterHour, windGusts: 6) }
        #expect(Self.summarise(steps) == nil)
    }
}

extension NowcastOutlookTests {
    @Test func testOutlook_RainEndsInAnHourAfterTheQuarters_EndsWhereTheQuartersDo() {
        // Wet quarters until 14:45, then nothing short; the 14:00 hour says dry (10 %): the rain
        // ends at 14:45, where the scan enters the hour, not at the hour's start.
        let steps = Self.quarters([0.5, 0.5, 0.5])
        let hours = [
            HourlyPoint(time: Self.at(0), precipitationChance: 10),
            HourlyPoint(time: Self.at(60), precipitationChance: 10),
            HourlyPoint(time: Self.at(120), precipitationChance: 10),
        ]
        #expect(Self.summarise(steps, hours: hours) == .until(.rain, end: Self.at(45)))
    }
}

extension NowcastOutlookTests {
    @Test func testOutlookRules_Standard_TheRepositorysAges() {
        #expect(OutlookRules.standard.dryWithin == RefreshPolicy.standard.staleAfter)
        #expect(OutlookRules.standard.silentAfter == RefreshPolicy.standard.blankRealtimeAfter)
    }
}

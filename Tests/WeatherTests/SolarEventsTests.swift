import HAL
import Testing
import Weather

/// Sunrise and sunset (NOAA Solar Calculator / Meeus). Where each expected time comes from is
/// said next to it.
@Suite("Sunrise and sunset")
struct SolarEventsTests {
    /// The local clock time of `t` for a fixed offset, in seconds after midnight.
    private func clock(_ t: WallTime, offset: Int) -> Int {
        let local = CivilDateTime(t, offsetSeconds: offset)
        return local.hour * 3600 + local.minute * 60 + local.second
    }

    private func expectNear(
        _ t: WallTime, _ hour: Int, _ minute: Int, _ second: Int, offset: Int, within tolerance: Int = 120,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let got = clock(t, offset: offset), want = hour * 3600 + minute * 60 + second
        #expect(abs(got - want) <= tolerance,
                "got \(CivilDateTime(t, offsetSeconds: offset)), expected \(hour):\(minute):\(second) ± \(tolerance) s",
                sourceLocation: sourceLocation)
    }

    private func normal(_ day: SolarDay, sourceLocation: SourceLocation = #_sourceLocation) throws -> (WallTime, WallTime) {
        guard case .normal(let sunrise, let sunset) = day else {
            Issue.record("expected a sunrise and a sunset, got \(day)", sourceLocation: sourceLocation)
            throw SolarTestFailure()
        }
        return (sunrise, sunset)
    }

    struct SolarTestFailure: Error {}

    // Expected times, unless a test says otherwise, come from the Astronomical Almanac's "low
    // precision formulas for the Sun" (a different series from NOAA's Meeus equations used
    // here, good to 0.01° in 1950–2050), evaluated with python3 on this machine
    // (same −0.833° altitude, iterated at the event). The two agree within seconds, so these
    // tests allow 60 s; the published values allow the 2 minutes the brief asks for.

    @Test("Berlin, 2026-01-15 (CET, UTC+1)")
    func berlin() throws {
        let (rise, set) = try normal(SolarEvents.day(date: CivilDate(year: 2026, month: 1, day: 15), latitude: 52.52, longitude: 13.41))
        expectNear(rise, 8, 9, 50, offset: 3600, within: 60)  // AA: 08:09:50
        expectNear(set, 16, 22, 6, offset: 3600, within: 60)  // AA: 16:22:06
        // The Open-Meteo fixture (open-meteo-current-hourly-daily.json): 08:09 / 16:24.
        expectNear(rise, 8, 9, 0, offset: 3600)
        expectNear(set, 16, 24, 0, offset: 3600)
    }

    @Test("Berlin: the Planetarium's solstice and geoastro.de's extremes (published values)")
    func berlinPublished() throws {
        // Stiftung Planetarium Berlin via Tagesspiegel Checkpoint, 21 Dec 2024 (a Saturday):
        // 08:14:38 / 15:54:41 CET.
        let (rise, set) = try normal(SolarEvents.day(date: CivilDate(year: 2024, month: 12, day: 21), latitude: 52.52, longitude: 13.41))
        expectNear(rise, 8, 14, 38, offset: 3600, within: 60)
        expectNear(set, 15, 54, 41, offset: 3600, within: 60)
        // geoastro.de/planets/img/sun.html (52.51° N, 13.41° E, 2002): latest sunrise
        // 30 December 07:17.1 UT, earliest sunset 14 December 14:52.2 UT.
        let (late, _) = try normal(SolarEvents.day(date: CivilDate(year: 2002, month: 12, day: 30), latitude: 52.51, longitude: 13.41))
        let (_, early) = try normal(SolarEvents.day(date: CivilDate(year: 2002, month: 12, day: 14), latitude: 52.51, longitude: 13.41))
        expectNear(late, 7, 17, 6, offset: 0, within: 30)
        expectNear(early, 14, 52, 12, offset: 0, within: 30)
    }

    @Test("Denver, 2026-07-04 (MDT, UTC−6)")
    func denver() throws {
        let (rise, set) = try normal(SolarEvents.day(date: CivilDate(year: 2026, month: 7, day: 4), latitude: 39.7461, longitude: -104.9836))
        expectNear(rise, 5, 37, 19, offset: -21600, within: 60)  // AA: 05:37:19
        expectNear(set, 20, 31, 20, offset: -21600, within: 60)  // AA: 20:31:20
        // The Open-Meteo Denver fixture (open-meteo-imperial-forecast-hours.json) says 05:35 /
        // 20:31; its numbers are constructed (corpus README) and its sunrise is 2 min 19 s
        // earlier than both methods, so it gets 3 minutes here.
        expectNear(rise, 5, 35, 0, offset: -21600, within: 180)
        expectNear(set, 20, 31, 0, offset: -21600)
    }

    @Test("Oslo, 2026-01-15 (CET)")
    func oslo() throws {
        let (rise, set) = try normal(SolarEvents.day(date: CivilDate(year: 2026, month: 1, day: 15), latitude: 59.9139, longitude: 10.7522))
        expectNear(rise, 9, 3, 58, offset: 3600, within: 60)  // AA: 09:03:58
        expectNear(set, 15, 49, 21, offset: 3600, within: 60)  // AA: 15:49:21
    }

    @Test("Sydney, 2026-12-21 (AEDT, UTC+11): southern summer")
    func sydney() throws {
        let (rise, set) = try normal(SolarEvents.day(date: CivilDate(year: 2026, month: 12, day: 21), latitude: -33.8688, longitude: 151.2093))
        expectNear(rise, 5, 40, 39, offset: 39600, within: 60)  // AA: 05:40:39
        expectNear(set, 20, 5, 24, offset: 39600, within: 60)  // AA: 20:05:24
        // The day chosen by longitude is the local one: sunrise is on 21 December in Sydney.
        #expect(CivilDateTime(rise, offsetSeconds: 39600).date == CivilDate(year: 2026, month: 12, day: 21))
    }

    @Test("the equator at the March equinox: about 12 h 6.5 min of daylight")
    func equator() throws {
        let (rise, set) = try normal(SolarEvents.day(date: CivilDate(year: 2026, month: 3, day: 20), latitude: 0, longitude: 0))
        expectNear(rise, 6, 4, 12, offset: 0, within: 60)  // AA: 06:04:12 UTC
        expectNear(set, 18, 10, 43, offset: 0, within: 60)  // AA: 18:10:43 UTC
    }

    @Test("Tromsø: polar night on 21 December, midnight sun on 21 June")
    func tromso() {
        // Tromsø's polar night runs from late November to mid-January, the midnight sun from
        // about 20 May to 22 July (the Almanac formulas agree on both days).
        #expect(SolarEvents.day(date: CivilDate(year: 2026, month: 12, day: 21), latitude: 69.65, longitude: 18.96) == .polarNight)
        #expect(SolarEvents.day(date: CivilDate(year: 2026, month: 6, day: 21), latitude: 69.65, longitude: 18.96) == .midnightSun)
        #expect(SolarEvents.day(date: CivilDate(year: 2026, month: 6, day: 21), latitude: -69.65, longitude: 18.96) == .polarNight)
        if case .normal = SolarEvents.day(date: CivilDate(year: 2026, month: 3, day: 20), latitude: 69.65, longitude: 18.96) {} else {
            Issue.record("Tromsø has a sunrise at the equinox")
        }
    }

    @Test("the poles and the date line do not trap")
    func extremes() throws {
        #expect(SolarEvents.day(date: CivilDate(year: 2026, month: 6, day: 21), latitude: 90, longitude: 0) == .midnightSun)
        #expect(SolarEvents.day(date: CivilDate(year: 2026, month: 6, day: 21), latitude: -90, longitude: 0) == .polarNight)
        // Chatham (176.5° W, UTC+12:45): by longitude the "day" is the neighbouring solar day;
        // with the clock's offset it is the local one.
        let date = CivilDate(year: 2026, month: 1, day: 15)
        let (rise, _) = try normal(SolarEvents.day(date: date, latitude: -43.95, longitude: -176.56, utcOffsetSeconds: 49_500))
        #expect(CivilDateTime(rise, offsetSeconds: 49_500).date == date)
    }

    @Test("sunrise comes before sunset, every day of 2026 in Berlin, within 24 hours")
    func wholeYear() throws {
        for day in CivilDate(year: 2026, month: 1, day: 1).daysSinceEpoch...CivilDate(year: 2026, month: 12, day: 31).daysSinceEpoch {
            let date = CivilDate(daysSinceEpoch: day)
            let (rise, set) = try normal(SolarEvents.day(date: date, latitude: 52.52, longitude: 13.41))
            #expect(rise < set)
            #expect(CivilDateTime(rise, offsetSeconds: 3600).date == date)
            #expect(set.seconds - rise.seconds < 17 * 3600 && set.seconds - rise.seconds > 7 * 3600)
        }
    }
}

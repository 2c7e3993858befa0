import HAL

/// What the next two hours hold, in one statement: the "next two hours" line of the now screen.
///
/// Decided by `NowcastOutlook.summarise`, a pure function of the report's arrays and two
/// instants; it walks the arrays in place and returns this fixed value, so the minute tick can
/// call it without allocating (`Benchmarks/` counts the tick).
public enum NowcastOutlook: Sendable, Equatable {
    public enum Precipitation: Sendable, Equatable {
        case rain, snow
    }

    /// No precipitation, thunder or gale gust anywhere in the window, from data fresh enough
    /// to say so and covering all of it.
    case dry
    /// Dry now; it starts at `at` (≥ now). `chance` is the hourly probability, %, when the
    /// start comes from the hourly forecast rather than from the short steps.
    case starts(Precipitation, at: WallTime, chance: Int?)
    /// Falling now; it stops at `end`, or later than the window when nil.
    case until(Precipitation, end: WallTime?)
    /// A thunderstorm code (WMO 4677 91–99, which Open-Meteo sends as 95, 96, 99; MET's
    /// `…andthunder` symbols) in the period starting at `at` (≤ now: now).
    case thunder(at: WallTime)
    /// The strongest gust of the window, m/s, at or above the gale threshold, in the period
    /// starting at `at` (≤ now: now).
    case gusts(metresPerSecond: Double, at: WallTime)
    /// The data covers the window and shows nothing, but it is too old to promise a dry
    /// window: the line says its age instead ("Dry? data 2 h old").
    case unsure(age: Duration)
}

/// The thresholds of the outlook, each with where it comes from.
public struct OutlookRules: Sendable, Equatable {
    /// How far ahead the line speaks: "the next two hours".
    public var window: Duration = .seconds(2 * 3600)
    /// The least amount in a period that counts as precipitation, mm. A standard gauge reads
    /// to 0.1 mm (or 0.2 mm); less is reported as a "trace" (WMO-No. 8, *Guide to Instruments
    /// and Methods of Observation*, Vol. I ch. 6 "Measurement of precipitation"; the Met Office
    /// likewise counts a "rain day" only from 0.2 mm). Open-Meteo states its 15-minute sums to
    /// 0.1 mm, so this is "any precipitation it reports": 0.1 mm in 15 minutes is 0.4 mm/h,
    /// the Met Office's "slight rain" (< 0.5 mm/h), which a person outdoors does notice.
    public var wetAmount: Double = 0.1
    /// An hourly probability, %, from which a period without short steps counts as wet: more
    /// likely than not. Open-Meteo's `precipitation_probability` is the share of ensemble
    /// members with more than 0.1 mm in the hour, the same threshold as `wetAmount`.
    public var likelyChance: Int = 50
    /// Gusts from which the line warns, m/s: Beaufort force 8, "gale", 17.2–20.7 m/s (WMO
    /// Beaufort table; on land "twigs break off trees, progress generally impeded"). Higher than
    /// DWD's lowest gust warning (Bft 7, 50 km/h, common on a breezy day), lower than its
    /// "Sturmböen" (Bft 9, 75 km/h): the level where cycling and small boats get dangerous.
    public var galeGust: Double = 17.2
    /// The oldest data that may still say "dry": the repository's `staleAfter` (an hour: four
    /// missed refreshes), the age from which the screens mark the values stale. Older data,
    /// still covering the window, gives `.unsure(age)`, never `.dry`.
    public var dryWithin: Duration = .seconds(3600)
    /// Beyond this age the line says nothing at all: the screens blank realtime values at the
    /// same age (`RefreshPolicy.blankRealtimeAfter`), and a short-range guess that old is noise.
    public var silentAfter: Duration = .seconds(3 * 3600)

    public init() {}

    public static let standard = OutlookRules()
}

extension NowcastOutlook {
    /// One outlook for `[now, now + window)` from the short steps (`nowcast`), with the hourly
    /// forecast (probability, amount, code) wherever the short steps are missing or empty, or
    /// nil when there is nothing honest to say (no data for the window, data from the future,
    /// or data older than `silentAfter`).
    ///
    /// Priority, most urgent first: thunder (lightning gives the least warning and is the one
    /// danger to life here: "when thunder roars, go indoors"), gale gusts (falling branches,
    /// cyclists, boats; the current conditions icon already shows rain that is falling), then
    /// precipitation (falling now before starting later; snow before rain within one period,
    /// for it disrupts travel more), then dry or its doubt.
    public static func summarise(
        nowcast: [NowcastStep], hours: [HourlyPoint], now: WallTime, fetchedAt: WallTime, rules: OutlookRules = .standard
    ) -> NowcastOutlook? {
        let age = now - fetchedAt
        // A stamp in the future: the clock stepped back, so how old the data is is unknown.
        guard age >= .seconds(-60), age <= rules.silentAfter else { return nil }
        let windowEnd = now + rules.window
        var scan = PeriodScan(nowcast: nowcast, hours: hours)
        var covered = true
        var thunderAt: WallTime?
        var strongest: (speed: Double, at: WallTime)?
        var falling: Precipitation?
        var fallingEnd: WallTime?
        var fallingEnded = false
        var start: (kind: Precipitation, at: WallTime, chance: Int?)?
        var time = now
        while time < windowEnd {
            guard let period = scan.period(at: time, rules: rules) else {
                covered = false
                time = scan.nextStart(after: time) ?? windowEnd
                continue
            }
            if period.thunder, thunderAt == nil { thunderAt = period.start }
            if let gust = period.gust, gust >= rules.galeGust, gust > (strongest?.speed ?? 0) {
                strongest = (gust, period.start)
            }
            if time == now, period.wet, period.chance == nil {
                falling = period.snow ? .snow : .rain
            } else if falling != nil, !fallingEnded, !period.wet {
                // `time`, not the period's start: an hour taken up where the short steps end
                // began before the scan reached it.
                fallingEnd = time
                fallingEnded = true
            } else if falling == nil, start == nil, period.wet {
                start = (period.snow ? .snow : .rain, time, period.chance)
            }
            time = period.end
        }
        if let thunderAt { return .thunder(at: thunderAt) }
        if let strongest { return .gusts(metresPerSecond: strongest.speed, at: strongest.at) }
        if let falling { return .until(falling, end: fallingEnd) }
        if let start { return .starts(start.kind, at: start.at, chance: start.chance) }
        guard covered else { return nil }
        return age <= rules.dryWithin ? .dry : .unsure(age: age)
    }
}

/// What one period says, from a short step or, where there is none, an hourly point.
struct OutlookPeriod {
    var start: WallTime
    var end: WallTime
    var wet: Bool
    var snow: Bool
    var thunder: Bool
    var gust: Double?
    /// The hourly probability the period was judged by, nil for a short step.
    var chance: Int?
}

/// Walks the two sorted arrays forward in step with the window, by index (no copies).
struct PeriodScan {
    let nowcast: [NowcastStep]
    let hours: [HourlyPoint]
    private var step = 0
    private var hour = 0

    init(nowcast: [NowcastStep], hours: [HourlyPoint]) {
        self.nowcast = nowcast
        self.hours = hours
    }

    /// The period holding `time`: the short step if it has data, else the hour, else nil. A
    /// period taken from an hour ends where the next short step with data begins.
    mutating func period(at time: WallTime, rules: OutlookRules) -> OutlookPeriod? {
        while step < nowcast.count, nowcast[step].end <= time { step += 1 }
        while hour < hours.count, hours[hour].time + NowcastStep.hour <= time { hour += 1 }
        if step < nowcast.count, nowcast[step].start <= time, let period = Self.period(nowcast[step], rules) {
            return period
        }
        guard hour < hours.count, hours[hour].time <= time, var period = Self.period(hours[hour], rules) else {
            return nil
        }
        var next = step
        while next < nowcast.count, nowcast[next].start < period.end {
            if nowcast[next].start > time, Self.period(nowcast[next], rules) != nil {
                period.end = nowcast[next].start
                break
            }
            next += 1
        }
        return period
    }

    /// The first period start of either array after `time`, to skip a gap in the data.
    func nextStart(after time: WallTime) -> WallTime? {
        var best: WallTime?
        if let next = nowcast.first(where: { $0.start > time }) { best = next.start }
        if let next = hours.first(where: { $0.time > time }), best.map({ next.time < $0 }) ?? true { best = next.time }
        return best
    }

    static func period(_ step: NowcastStep, _ rules: OutlookRules) -> OutlookPeriod? {
        // Open-Meteo's 7 cm of fresh snow ≈ 10 mm of water (its docs), so depth / 7 is water.
        let snowWater = step.snowfall.map { $0 / 7 }
        let amount = step.precipitation ?? Self.sum(step.rain, snowWater)
        let group = step.condition?.group
        let wet: Bool
        if let amount {
            wet = amount >= rules.wetAmount - 1e-9
        } else if let group {
            wet = Self.isWet(group)
        } else {
            // Nothing about precipitation (every value null, or only gusts asked for): the hour
            // speaks instead, rather than a gust reading that passes for "dry".
            return nil
        }
        let snow = snowWater.map { $0 > (step.rain ?? 0) } ?? (group == .snow)
        return OutlookPeriod(
            start: step.start, end: step.end, wet: wet, snow: wet && snow, thunder: group == .thunderstorm,
            gust: step.windGusts, chance: nil)
    }

    static func period(_ point: HourlyPoint, _ rules: OutlookRules) -> OutlookPeriod? {
        let group = point.condition?.group
        let wet: Bool
        if let chance = point.precipitationChance {
            wet = chance >= rules.likelyChance
        } else if let amount = point.precipitation {
            wet = amount >= rules.wetAmount - 1e-9
        } else if let group {
            wet = Self.isWet(group)
        } else {
            return nil
        }
        return OutlookPeriod(
            start: point.time, end: point.time + NowcastStep.hour, wet: wet, snow: wet && group == .snow,
            thunder: group == .thunderstorm, gust: nil, chance: point.precipitationChance)
    }

    private static func sum(_ a: Double?, _ b: Double?) -> Double? {
        guard a != nil || b != nil else { return nil }
        return (a ?? 0) + (b ?? 0)
    }

    /// A code that says something falls, for a period without amounts (MET's symbols).
    private static func isWet(_ group: ConditionGroup) -> Bool {
        switch group {
        case .drizzle, .rain, .showers, .snow, .thunderstorm: true
        case .clear, .partlyCloudy, .cloudy, .fog: false
        }
    }
}

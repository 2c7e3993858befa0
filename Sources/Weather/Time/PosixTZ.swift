import HAL

/// One local time type: RFC 8536 §3.2 `ttinfo` (utoff, isdst, abbreviation), or the standard or
/// daylight half of a POSIX TZ string.
struct LocalTimeType: Sendable, Equatable {
    /// Seconds east of UTC (TZif `utoff`; the negation of a POSIX offset).
    var offset: Int
    var isDaylight: Bool
    var abbreviation: String
}

/// A POSIX TZ string (POSIX XBD §8.3, with the RFC 8536 §3.3.1 extensions): the rule a TZif
/// footer gives for every instant after the file's last transition. On Debian 12 the files are
/// "fat" (transitions written out to 2037), but a "slim" file leaves current years to this rule,
/// so it must be right, not a fallback.
///
/// All arithmetic is on integers and allocates nothing: `offset(at:)` runs on every clock redraw.
struct PosixTZ: Sendable, Equatable {
    /// A `start` or `end` rule: a day of the year and a local time on it.
    struct Rule: Sendable, Equatable {
        enum Day: Sendable, Equatable {
            /// `Jn`, 1–365: February 29 is never counted, so `J60` is always March 1.
            case julian(Int)
            /// `n`, 0–365: February 29 is counted in leap years.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1–4, 5 = the last) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        var day: Day
        /// Seconds after local midnight, −167 h … +167 h (RFC 8536 §3.3.1); POSIX's default is
        /// 02:00. "Local" means the time in effect *before* the change.
        var time: Int
    }

    struct Daylight: Sendable, Equatable {
        var type: LocalTimeType
        /// When daylight time starts (given in standard local time).
        var start: Rule
        /// When it ends (given in daylight local time).
        var end: Rule
    }

    var standard: LocalTimeType
    /// Nil for a zone without daylight saving time (`IST-5:30`, `<-03>3`, `UTC0`).
    var daylight: Daylight?

    /// Whether daylight time is in effect at `seconds` since the epoch.
    ///
    /// Rather than reasoning about hemispheres, it takes the latest start or end at or before
    /// the instant among the neighbouring years: that handles rules crossing new year (Sydney,
    /// and Dublin's "negative" DST whose winter GMT is the daylight half), rule times past 24 h
    /// (Jerusalem's `M3.4.4/26`) and before 0 h (Nuuk's `M3.5.0/-1`) alike. A start that falls on
    /// the same instant as an end wins, which is how RFC 8536 §3.3.1 writes all-year DST
    /// (`EST5EDT,0/0,J365/25`).
    func isDaylight(at seconds: Int64) -> Bool {
        guard let daylight else { return false }
        let year = PosixTZ.year(of: seconds, offset: standard.offset)
        var latest = Int64.min
        var latestIsStart = false
        for y in year - 1...year + 1 {
            let end = instant(of: daylight.end, year: y, offset: daylight.type.offset)
            if end <= seconds && end > latest { latest = end; latestIsStart = false }
        }
        for y in year - 1...year + 1 {
            let start = instant(of: daylight.start, year: y, offset: standard.offset)
            if start <= seconds && start >= latest { latest = start; latestIsStart = true }
        }
        return latestIsStart
    }

    /// The earliest start or end strictly after `seconds` (whether or not it changes anything;
    /// the caller checks), or nil without daylight rules.
    func nextRuleInstant(after seconds: Int64) -> Int64? {
        guard let daylight else { return nil }
        let year = PosixTZ.year(of: seconds, offset: standard.offset)
        var best = Int64.max
        for y in year - 1...year + 2 {
            let start = instant(of: daylight.start, year: y, offset: standard.offset)
            let end = instant(of: daylight.end, year: y, offset: daylight.type.offset)
            if start > seconds && start < best { best = start }
            if end > seconds && end < best { best = end }
        }
        return best == Int64.max ? nil : best
    }

    /// The instant at which `rule` fires in `year`, for a clock `offset` seconds east of UTC.
    func instant(of rule: Rule, year: Int, offset: Int) -> Int64 {
        let day: Int64
        switch rule.day {
        case .julian(let n):
            let leap = CivilDate.daysIn(month: 2, year: year) == 29
            day = CivilDate(year: year, month: 1, day: 1).daysSinceEpoch + Int64(n - 1 + (leap && n >= 60 ? 1 : 0))
        case .zeroBased(let n):
            day = CivilDate(year: year, month: 1, day: 1).daysSinceEpoch + Int64(n)
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilDate(year: year, month: month, day: 1)
            var dayOfMonth = 1 + (weekday - first.weekday + 7) % 7 + (week - 1) * 7
            if dayOfMonth > CivilDate.daysIn(month: month, year: year) { dayOfMonth -= 7 }
            day = first.daysSinceEpoch + Int64(dayOfMonth - 1)
        }
        return day * 86_400 + Int64(rule.time - offset)
    }

    /// The calendar year of `seconds` on a clock `offset` east of UTC. Instants are clamped to
    /// about ±142 million years first so that no arithmetic can overflow on a hostile input.
    static func year(of seconds: Int64, offset: Int) -> Int {
        let limit: Int64 = 1 << 52
        let local = min(max(seconds, -limit), limit) + Int64(offset)
        let (days, _) = CivilDateTime.floorDivide(local, 86_400)
        return CivilDate(daysSinceEpoch: days).year
    }
}


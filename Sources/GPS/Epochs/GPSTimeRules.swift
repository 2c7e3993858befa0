/// When a receiver's date can be believed, and how to repair the ones that cannot.
///
/// - Two-digit RMC years are pivoted on the build's release year: the century window ends 20
///   years after it (1947…2046 for 2026), not on a fixed 1980 or 1969 pivot that expires.
/// - A receiver whose firmware's GPS week counter rolled over (every 1,024 weeks: 1999-08-22,
///   2019-04-07) reports dates 1,024 weeks early. A date before `referenceDate` is moved forward
///   in 1,024-week steps until it is not; a date more than 20 years after this build's release
///   cannot be right and is dropped (docs/design/parts.md#the-gps-receiver).
///
/// The reference is the earliest date the caller knows the data cannot precede. On the device it
/// is the release date of this build (the clock cannot be earlier than the software); decoding an
/// old capture uses an older reference, since a 2009 capture really is from 2009.
public struct GPSTimeRules: Sendable, Equatable {
    public var referenceDate: CalendarDate

    public init(referenceDate: CalendarDate) { self.referenceDate = referenceDate }

    /// The release this build belongs to. Raise it with each release: it bounds how wrong a
    /// receiver with a rolled-over week counter can make the date look.
    public static let releaseDate = CalendarDate(year: 2026, month: 11, day: 21)!

    /// For the running device: nothing before this build's release date is believed.
    public static let live = GPSTimeRules(referenceDate: releaseDate)

    /// For replaying captures of any age: only dates before the first GPS week rollover
    /// (1999-08-22) are repaired, as they can only come from a rolled-over receiver.
    public static let archive = GPSTimeRules(referenceDate: CalendarDate(year: 1999, month: 8, day: 22)!)

    static let weekRolloverDays = 1024 * 7

    /// Exactly 20 years after the release (not 20 × 366 days, which overshoots by up to 15).
    static let latestBelievableDate: CalendarDate = {
        let r = releaseDate
        return CalendarDate(year: r.year + 20, month: r.month, day: min(r.day, CalendarDate.daysInMonth(r.month, year: r.year + 20)))!
    }()

    /// The four-digit year for a two-digit RMC year: the one in the 100-year window that ends
    /// 20 years after this build's release (1947…2046 for a 2026 release), whatever the
    /// reference date, so an archive replay and the device read "26" the same way.
    public func year(forTwoDigitYear yy: Int) -> Int {
        let latest = GPSTimeRules.releaseDate.year + 20
        let candidate = latest - latest % 100 + yy
        return candidate > latest ? candidate - 100 : candidate
    }

    /// The date corrected for week rollover, or nil when it is too far in the future to trust.
    public func corrected(_ date: CalendarDate) -> CalendarDate? {
        var days = date.daysSinceEpoch
        let reference = referenceDate.daysSinceEpoch
        while days < reference { days += GPSTimeRules.weekRolloverDays }
        // The latest believable date does not depend on the reference: 20 years after this
        // release, the same bound the two-digit year window has.
        guard days <= GPSTimeRules.latestBelievableDate.daysSinceEpoch else { return nil }
        return days == date.daysSinceEpoch ? date : CalendarDate(daysSinceEpoch: days)
    }
}

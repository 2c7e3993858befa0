import HAL

/// A UTC time of day to the millisecond, as NMEA sends it (`hhmmss.sss`).
///
/// Second 60 is allowed at 23:59 only, where UTC inserts leap seconds: receivers report the leap
/// second itself (docs/design/parts.md#the-gps-receiver). It is stored as 86 400 000 ms and reads back as
/// 23:59:60; a second 60 at any other minute would read back as the next minute and is refused.
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 00:00:00.000, 0 … 86 400 999 (the top second is a leap second).
    public var milliseconds: Int32

    public init(milliseconds: Int32) { self.milliseconds = milliseconds }

    public init?(hour: Int, minute: Int, second: Int, millisecond: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            (0...999).contains(millisecond), second < 60 || (hour == 23 && minute == 59)
        else { return nil }
        milliseconds = Int32(((hour * 60 + minute) * 60 + second) * 1000 + millisecond)
    }

    /// Whether this is the leap second 23:59:60.
    private var isLeapSecond: Bool { milliseconds >= 86_400_000 }
    public var hour: Int { isLeapSecond ? 23 : Int(milliseconds) / 3_600_000 }
    public var minute: Int { isLeapSecond ? 59 : Int(milliseconds) / 60_000 % 60 }
    /// 0…60: a leap second stays second 60 of minute 59.
    public var second: Int { isLeapSecond ? 60 : Int(milliseconds) / 1000 % 60 }
    public var millisecond: Int { Int(milliseconds) % 1000 }

    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.milliseconds < b.milliseconds }

    public var description: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let ms = millisecond
        let msText = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(two(hour)):\(two(minute)):\(two(second)).\(msText)"
    }
}

/// A proleptic Gregorian calendar date.
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Nil unless the date exists (month 1…12, day within the month, leap years included).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1,
            day <= CalendarDate.daysInMonth(month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public static func isLeap(_ year: Int) -> Bool { CivilDays.isLeap(year) }

    public static func daysInMonth(_ month: Int, year: Int) -> Int { CivilDays.daysInMonth(month, year: year) }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int { CivilDays.daysSinceEpoch(year: year, month: month, day: day) }

    /// The date `days` days after 1970-01-01.
    public init(daysSinceEpoch days: Int) {
        let date = CivilDays.date(daysSinceEpoch: days)
        self.init(unchecked: date.year, date.month, date.day)
    }

    public func adding(days: Int) -> CalendarDate { CalendarDate(daysSinceEpoch: daysSinceEpoch + days) }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public var description: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let y = year
        let yearText = y >= 1000 ? "\(y)" : y >= 100 ? "0\(y)" : y >= 10 ? "00\(y)" : "000\(y)"
        return "\(yearText)-\(two(month))-\(two(day))"
    }
}

/// A UTC instant as the receiver reported it: a date and a time of day.
public struct UTCTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var date: CalendarDate
    public var timeOfDay: TimeOfDay

    public init(date: CalendarDate, timeOfDay: TimeOfDay) {
        self.date = date
        self.timeOfDay = timeOfDay
    }

    /// Milliseconds since 1970-01-01T00:00:00Z. A leap second (:60) maps onto the first
    /// millisecond of the next minute's second, as POSIX time does (gpsd's `mkgmtime` folds
    /// :60 the same way).
    public var millisecondsSinceEpoch: Int64 {
        Int64(date.daysSinceEpoch) * 86_400_000 + Int64(timeOfDay.milliseconds)
    }

    public static func < (a: UTCTime, b: UTCTime) -> Bool {
        (a.date, a.timeOfDay) < (b.date, b.timeOfDay)
    }

    /// ISO 8601 with milliseconds, as gpsd prints it: `2014-12-31T03:07:19.000Z`.
    public var description: String { "\(date)T\(timeOfDay)Z" }
}

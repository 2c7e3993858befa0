import HAL

/// A date on the proleptic Gregorian calendar, as a wall calendar shows it.
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    /// 1–12
    public var month: Int
    /// 1–31
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01 (negative before).
    public var daysSinceEpoch: Int64 { Int64(CivilDays.daysSinceEpoch(year: year, month: month, day: day)) }

    /// The inverse of `daysSinceEpoch`.
    public init(daysSinceEpoch days: Int64) {
        let date = CivilDays.date(daysSinceEpoch: Int(days))
        self.init(year: date.year, month: date.month, day: date.day)
    }

    /// 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
    public var weekday: Int {
        let days = daysSinceEpoch
        return Int(((days % 7) + 11) % 7)
    }

    public var isValid: Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        return day <= CivilDate.daysIn(month: month, year: year)
    }

    public static func daysIn(month: Int, year: Int) -> Int { CivilDays.daysInMonth(month, year: year) }

    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `2026-01-15`
    public var description: String {
        "\(CivilDate.pad(year, 4))-\(CivilDate.pad(month, 2))-\(CivilDate.pad(day, 2))"
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// A date and a time of day with no zone attached: what a clock on the wall shows.
public struct CivilDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var date: CivilDate
    /// 0–23
    public var hour: Int
    /// 0–59
    public var minute: Int
    /// 0–59 (a leap second is read as 59)
    public var second: Int

    public init(date: CivilDate, hour: Int, minute: Int, second: Int = 0) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The civil time `offsetSeconds` east of UTC at the instant `time`. Instants outside the
    /// years 0001–9999 are read as the nearest end of that range: times reach here from files
    /// and servers, and a calendar beyond it is no use on a clock (and overflows on 32 bits).
    /// Real UTC offsets are within ±26 h; a larger one is cut to a week for the same reason.
    public init(_ time: WallTime, offsetSeconds: Int) {
        let offset = Int64(Swift.min(Swift.max(offsetSeconds, -604_800), 604_800))
        let local = Swift.min(Swift.max(time.seconds, Self.first), Self.last) + offset
        let (days, rest) = CivilDateTime.floorDivide(local, 86_400)
        date = CivilDate(daysSinceEpoch: days)
        hour = Int(rest / 3600)
        minute = Int(rest % 3600 / 60)
        second = Int(rest % 60)
    }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in seconds since the epoch.
    static let first: Int64 = -62_135_596_800
    static let last: Int64 = 253_402_300_799

    /// Seconds since the epoch as if this civil time were UTC.
    public var secondsAsUTC: Int64 {
        date.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The instant at which a clock `offsetSeconds` east of UTC shows this civil time.
    public func instant(offsetSeconds: Int) -> WallTime {
        WallTime(seconds: secondsAsUTC - Int64(offsetSeconds))
    }

    public static func < (a: CivilDateTime, b: CivilDateTime) -> Bool { a.secondsAsUTC < b.secondsAsUTC }

    /// `2026-01-15T08:15:00`
    public var description: String {
        "\(date)T\(CivilDate.pad(hour, 2)):\(CivilDate.pad(minute, 2)):\(CivilDate.pad(second, 2))"
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }
}

/// The ISO 8601 forms weather services send: Open-Meteo's local `2026-01-15T08:15` and
/// `2026-01-15`, MET Norway's UTC `2026-01-15T07:00:00Z`. Strict: anything else is nil, so a
/// garbled time is reported rather than guessed.
public enum ISO8601 {
    /// `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`, with an optional `Z` (the
    /// caller knows whether the service sends UTC or local time; `Z` is accepted, not required).
    public static func parse(_ text: String) -> CivilDateTime? {
        var bytes = Array(text.utf8)
        if bytes.last == UInt8(ascii: "Z") { bytes.removeLast() }
        guard bytes.count == 10 || bytes.count == 16 || bytes.count == 19 else { return nil }
        guard let year = number(bytes, 0, 4), bytes[4] == UInt8(ascii: "-"),
            let month = number(bytes, 5, 2), bytes[7] == UInt8(ascii: "-"),
            let day = number(bytes, 8, 2)
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid else { return nil }
        if bytes.count == 10 { return CivilDateTime(date: date, hour: 0, minute: 0) }
        guard bytes[10] == UInt8(ascii: "T"), let hour = number(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"),
            let minute = number(bytes, 14, 2), hour < 24, minute < 60
        else { return nil }
        var second = 0
        if bytes.count == 19 {
            guard bytes[16] == UInt8(ascii: ":"), let s = number(bytes, 17, 2), s <= 60 else { return nil }
            second = min(s, 59)
        }
        return CivilDateTime(date: date, hour: hour, minute: minute, second: second)
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<start + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

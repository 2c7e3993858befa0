import HAL

/// HTTP dates (RFC 9110 §5.6.7): MET Norway's `Date`, `Expires` and `Last-Modified`, and the
/// date form of `Retry-After` (api.met.no's Locationforecast documentation; docs/design/parts.md#the-weather-service: no new request before `Expires`).
///
/// Parsing is strict about syntax and case ("HTTP-date is case sensitive", §5.6.7): the three
/// forms below, nothing else. One leniency, on purpose: a day name that does not match the
/// date (`Fri, 15 Jan 2026…`, really a Thursday) is accepted and ignored. The date fields say
/// which instant is meant; §5.6.7 asks recipients to be robust in parsing timestamps, and
/// refusing would only make the device ignore a server's `Expires` and poll more often. (Go's
/// net/http and curl also ignore the day name.) The name must still be one of the seven.
public enum HTTPDate {
    /// Parses an IMF-fixdate (`Thu, 15 Jan 2026 07:18:05 GMT`) or one of the two obsolete forms
    /// recipients must accept: RFC 850 (`Thursday, 15-Jan-26 07:18:05 GMT`) and asctime
    /// (`Thu Jan 15 07:18:05 2026`, always UTC). Nil for anything else.
    ///
    /// RFC 850's two-digit year is read as §5.6.7 says, relative to `now`: a year more than 50
    /// years in the future is the most recent past year with those digits. Without `now` it
    /// falls back to the POSIX `%y` window (69–99 → 19xx, 00–68 → 20xx).
    /// A leap second (`:60`) is read as `:59`, as `CivilDateTime` does.
    public static func parse(_ text: String, now: WallTime? = nil) -> WallTime? {
        var text = text
        return text.withUTF8 { parse(bytes: $0, now: now) }
    }

    /// The IMF-fixdate for `t` (seconds; the fraction is dropped). IMF-fixdate has a four-digit
    /// year, so instants outside 0001–9999 are clamped to that range.
    public static func format(_ t: WallTime) -> String {
        let first = CivilDate(year: 1, month: 1, day: 1).daysSinceEpoch * 86_400
        let last = CivilDate(year: 10_000, month: 1, day: 1).daysSinceEpoch * 86_400 - 1
        let time = CivilDateTime(WallTime(seconds: min(max(t.seconds, first), last)), offsetSeconds: 0)
        let weekday = shortDays[time.date.weekday], month = months[time.date.month - 1]
        return "\(weekday), \(CivilDate.pad(time.date.day, 2)) \(month) \(CivilDate.pad(time.date.year, 4)) "
            + "\(CivilDate.pad(time.hour, 2)):\(CivilDate.pad(time.minute, 2)):\(CivilDate.pad(time.second, 2)) GMT"
    }

    /// How long a `Retry-After` value (RFC 9110 §10.2.3) asks to wait from `now`: delay-seconds
    /// (`120`) or an HTTP-date, zero if that date has passed. Nil if it is neither, or a number
    /// of seconds too large for 64 bits (the caller then uses its own backoff).
    public static func retryAfter(_ text: String, now: WallTime) -> Duration? {
        var trimmed = Substring(text)
        while let c = trimmed.first, c == " " || c == "\t" { trimmed.removeFirst() }
        while let c = trimmed.last, c == " " || c == "\t" { trimmed.removeLast() }
        if let first = trimmed.utf8.first, isDigit(first) {
            var seconds: Int64 = 0
            for byte in trimmed.utf8 {
                guard isDigit(byte) else { return nil }
                let (times10, o1) = seconds.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                if o1 || o2 { return nil }
                seconds = sum
            }
            return .seconds(seconds)
        }
        guard let date = parse(String(trimmed), now: now) else { return nil }
        guard now < date else { return .zero }
        return .seconds(date.seconds - now.seconds) - .nanoseconds(Int64(now.nanoseconds))
    }

    // MARK: Parsing

    private static func parse(bytes: UnsafeBufferPointer<UInt8>, now: WallTime?) -> WallTime? {
        guard bytes.count >= 24 else { return nil }
        if bytes[3] == UInt8(ascii: ",") { return imfFixdate(bytes) }
        if bytes[3] == UInt8(ascii: " ") { return asctime(bytes) }
        return rfc850(bytes, now: now)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    private static func imfFixdate(_ b: UnsafeBufferPointer<UInt8>) -> WallTime? {
        guard b.count == 29, index(of: b, 0, 3, in: shortDays) != nil, match(b, 3, ", "),
            let day = number(b, 5, 2), match(b, 7, " "), let month = index(of: b, 8, 3, in: months).map({ $0 + 1 }),
            match(b, 11, " "), let year = number(b, 12, 4), match(b, 16, " "), match(b, 25, " GMT")
        else { return nil }
        return instant(year: year, month: month, day: day, b, timeAt: 17)
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`
    private static func rfc850(_ b: UnsafeBufferPointer<UInt8>, now: WallTime?) -> WallTime? {
        guard let comma = b.firstIndex(of: UInt8(ascii: ",")), index(of: b, 0, comma, in: longDays) != nil,
            b.count == comma + 24, match(b, comma, ", "), let day = number(b, comma + 2, 2), match(b, comma + 4, "-"),
            let month = index(of: b, comma + 5, 3, in: months).map({ $0 + 1 }), match(b, comma + 8, "-"),
            let twoDigits = number(b, comma + 9, 2), match(b, comma + 11, " "), match(b, comma + 20, " GMT")
        else { return nil }
        return instant(year: fullYear(twoDigits, now: now), month: month, day: day, b, timeAt: comma + 12)
    }

    /// `Sun Nov  6 08:49:37 1994` (the day is space-padded)
    private static func asctime(_ b: UnsafeBufferPointer<UInt8>) -> WallTime? {
        guard b.count == 24, index(of: b, 0, 3, in: shortDays) != nil, match(b, 3, " "),
            let month = index(of: b, 4, 3, in: months).map({ $0 + 1 }), match(b, 7, " "),
            let day = b[8] == UInt8(ascii: " ") ? number(b, 9, 1) : number(b, 8, 2),
            match(b, 10, " "), match(b, 19, " "), let year = number(b, 20, 4)
        else { return nil }
        return instant(year: year, month: month, day: day, b, timeAt: 11)
    }

    /// `hh:mm:ss` at `timeAt`, combined with the date; nil for an impossible date or time.
    private static func instant(year: Int, month: Int, day: Int, _ b: UnsafeBufferPointer<UInt8>, timeAt t: Int) -> WallTime? {
        guard let hour = number(b, t, 2), match(b, t + 2, ":"), let minute = number(b, t + 3, 2), match(b, t + 5, ":"),
            let second = number(b, t + 6, 2), hour < 24, minute < 60, second <= 60
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid else { return nil }
        return CivilDateTime(date: date, hour: hour, minute: minute, second: min(second, 59)).instant(offsetSeconds: 0)
    }

    /// RFC 9110 §5.6.7's rule for two-digit years (see `parse`).
    private static func fullYear(_ twoDigits: Int, now: WallTime?) -> Int {
        guard let now else { return twoDigits >= 69 ? 1900 + twoDigits : 2000 + twoDigits }
        let thisYear = CivilDateTime(now, offsetSeconds: 0).date.year
        var year = thisYear - thisYear % 100 + twoDigits
        if year > thisYear + 50 { year -= 100 } else if year <= thisYear - 50 { year += 100 }
        return year
    }

    // MARK: Bytes

    private static let shortDays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let longDays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func index(of b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int, in names: [String]) -> Int? {
        guard start + count <= b.count else { return nil }
        let field = UnsafeBufferPointer(rebasing: b[start..<start + count])
        return names.firstIndex { $0.utf8.elementsEqual(field) }
    }

    private static func match(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard start + count <= b.count else { return false }
        return UnsafeBufferPointer(start: literal.utf8Start, count: count).elementsEqual(b[start..<start + count])
    }

    private static func number(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= b.count else { return nil }
        var value = 0
        for byte in b[start..<start + count] {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}

/// Reads a POSIX TZ string, `std offset [dst [offset] [,start[/time],end[/time]]]` (POSIX XBD
/// §8.3 "Other Environment Variables", TZ), with the two RFC 8536 §3.3.1 extensions TZif
/// version 3+ footers use: rule times may be negative and go up to 167 hours.
///
/// Strict: every byte must be consumed, names must be at least three characters, numbers must
/// be in range; anything else is nil. The implementation-defined `:characters` form is refused.
struct PosixTZParser {
    private let bytes: [UInt8]
    private var index = 0

    static func parse(_ text: String) -> PosixTZ? {
        var parser = PosixTZParser(bytes: Array(text.utf8))
        return parser.parseAll()
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func parseAll() -> PosixTZ? {
        guard let standardName = name(), let standardOffset = offset() else { return nil }
        let standard = LocalTimeType(offset: standardOffset, isDaylight: false, abbreviation: standardName)
        if atEnd { return PosixTZ(standard: standard, daylight: nil) }

        guard let daylightName = name() else { return nil }
        // "If no offset follows dst, the alternative time is assumed to be one hour ahead of
        // standard time" (POSIX).
        var daylightOffset = standardOffset + 3600
        if let byte = peek, byte != UInt8(ascii: ",") {
            guard let explicit = offset() else { return nil }
            daylightOffset = explicit
        }
        let type = LocalTimeType(offset: daylightOffset, isDaylight: true, abbreviation: daylightName)

        let start: PosixTZ.Rule, end: PosixTZ.Rule
        if atEnd {
            // POSIX leaves the rule implementation-defined; tzcode (and so glibc without a
            // "posixrules" file) uses the US rule `,M3.2.0,M11.1.0`. TZif footers always
            // spell the rule out, so this only serves hand-written strings.
            start = PosixTZ.Rule(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
            end = PosixTZ.Rule(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
        } else {
            guard consume(","), let s = rule(), consume(","), let e = rule(), atEnd else { return nil }
            start = s
            end = e
        }
        return PosixTZ(standard: standard, daylight: PosixTZ.Daylight(type: type, start: start, end: end))
    }

    // MARK: Pieces

    /// `std`/`dst`: three or more letters, or `<`, three or more of `A-Za-z0-9+-`, `>`.
    private mutating func name() -> String? {
        let quoted = consume("<")
        let from = index
        while let byte = peek, isNameByte(byte, quoted: quoted) { index += 1 }
        let to = index
        guard to - from >= 3 else { return nil }
        if quoted && !consume(">") { return nil }
        return String(decoding: bytes[from..<to], as: UTF8.self)
    }

    private func isNameByte(_ byte: UInt8, quoted: Bool) -> Bool {
        // ASCII letters only: setting bit 5 folds A–Z onto a–z and moves no other byte into it.
        let letter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        guard quoted else { return letter }
        return letter || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    /// A POSIX offset, `[+-]hh[:mm[:ss]]` with hh 0–24, positive *west* of Greenwich; returned
    /// as seconds *east*, the way TZif and the rest of this module count.
    private mutating func offset() -> Int? {
        guard let seconds = signedTime(maximumHours: 24) else { return nil }
        return -seconds
    }

    /// `date[/time]`.
    private mutating func rule() -> PosixTZ.Rule? {
        let day: PosixTZ.Rule.Day
        if consume("J") {
            guard let n = number(maximumDigits: 3), (1...365).contains(n) else { return nil }
            day = .julian(n)
        } else if consume("M") {
            guard let month = number(maximumDigits: 2), (1...12).contains(month), consume("."),
                let week = number(maximumDigits: 1), (1...5).contains(week), consume("."),
                let weekday = number(maximumDigits: 1), (0...6).contains(weekday)
            else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            guard let n = number(maximumDigits: 3), (0...365).contains(n) else { return nil }
            day = .zeroBased(n)
        }
        var time = 7200
        if consume("/") {
            guard let t = signedTime(maximumHours: 167) else { return nil }
            time = t
        }
        return PosixTZ.Rule(day: day, time: time)
    }

    /// `[+-]h[h[h]][:mm[:ss]]` in seconds.
    private mutating func signedTime(maximumHours: Int) -> Int? {
        var sign = 1
        if consume("-") { sign = -1 } else { _ = consume("+") }
        guard let hours = number(maximumDigits: 3), hours <= maximumHours else { return nil }
        var seconds = hours * 3600
        if consume(":") {
            guard let minutes = number(maximumDigits: 2), minutes < 60 else { return nil }
            seconds += minutes * 60
            if consume(":") {
                guard let s = number(maximumDigits: 2), s < 60 else { return nil }
                seconds += s
            }
        }
        return sign * seconds
    }

    private mutating func number(maximumDigits: Int) -> Int? {
        var value = 0, digits = 0
        while let byte = peek, isDigit(byte), digits < maximumDigits {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        if let byte = peek, isDigit(byte) { return nil }  // too many digits
        return digits == 0 ? nil : value
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
    private var atEnd: Bool { index == bytes.count }

    private mutating func consume(_ character: Unicode.Scalar) -> Bool {
        guard peek == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }
}

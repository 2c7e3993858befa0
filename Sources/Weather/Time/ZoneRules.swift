import HAL

/// The rules of one IANA time zone: which UTC offset and abbreviation a clock there shows at any
/// instant (docs/design/parts.md#the-weather-service: store UTC, render with the zone, so DST and the clock
/// stay right between fetches).
///
/// It holds what a TZif file holds (RFC 8536 §3.2): the transition instants, the local time type
/// each one switches to, and the footer's POSIX TZ rule for everything after the last
/// transition. Lookups are a binary search plus integer arithmetic and allocate nothing.
public struct ZoneRules: Sendable, Equatable {
    /// The IANA name (`Europe/Berlin`), or the TZ string for `parse(posix:)`.
    public let identifier: String
    /// Transition instants, seconds since the epoch, strictly ascending.
    let transitions: [Int64]
    /// `types` index that each transition switches to.
    let transitionTypes: [UInt8]
    /// At least one; `types[0]` is in effect before the first transition (RFC 9636 §3.2).
    let types: [LocalTimeType]
    /// Governs instants after the last transition, or all instants if there are none.
    let footer: PosixTZ?

    init(identifier: String, transitions: [Int64], transitionTypes: [UInt8], types: [LocalTimeType], footer: PosixTZ?) {
        precondition(!types.isEmpty && transitions.count == transitionTypes.count)
        self.identifier = identifier
        self.transitions = transitions
        self.transitionTypes = transitionTypes
        self.types = types
        self.footer = footer
    }

    /// Coordinated Universal Time.
    public static let utc = ZoneRules.fixed(offsetSeconds: 0, identifier: "UTC", abbreviation: "UTC")

    /// A zone that is always `offsetSeconds` east of UTC: the fallback when tzdata lacks the zone,
    /// using the `utc_offset_seconds` Open-Meteo sent. Its abbreviation is numeric (`+01`,
    /// `+0530`, `-03`), as tzdata writes zones without a customary one.
    public static func fixed(offsetSeconds: Int, identifier: String) -> ZoneRules {
        fixed(offsetSeconds: offsetSeconds, identifier: identifier, abbreviation: numericAbbreviation(offsetSeconds))
    }

    static func fixed(offsetSeconds: Int, identifier: String, abbreviation: String) -> ZoneRules {
        let type = LocalTimeType(offset: offsetSeconds, isDaylight: false, abbreviation: abbreviation)
        return ZoneRules(identifier: identifier, transitions: [], transitionTypes: [], types: [type], footer: nil)
    }

    /// The rules of a bare POSIX TZ string (`CET-1CEST,M3.5.0,M10.5.0/3`), nil if it is not one.
    public static func parse(posix: String) -> ZoneRules? {
        guard let rule = PosixTZParser.parse(posix) else { return nil }
        return ZoneRules(identifier: posix, transitions: [], transitionTypes: [], types: [rule.standard], footer: rule)
    }

    // MARK: Lookups

    /// Seconds east of UTC at `time` (3600 for CET, 7200 for CEST, −25200 for MST).
    public func offset(at time: WallTime) -> Int { localTimeType(at: time.seconds).offset }

    /// The abbreviation a clock shows at `time` ("CET", "CEST", "+0530").
    public func abbreviation(at time: WallTime) -> String { localTimeType(at: time.seconds).abbreviation }

    /// Whether daylight saving time is in effect (TZif `isdst`; note that Europe/Dublin marks its
    /// *winter* GMT as the daylight half, so this is not "is it summer").
    public func isDaylightSavingTime(at time: WallTime) -> Bool { localTimeType(at: time.seconds).isDaylight }

    /// The first instant after `time` at which the offset or the abbreviation changes: when to
    /// redraw the clock. Nil if the zone never changes again. Entries that change neither (tzdata
    /// has a few, e.g. where only `isdst` flips) are skipped.
    public func nextTransition(after time: WallTime) -> WallTime? {
        var cursor = time.seconds
        // The table, then the footer; at most a few dozen steps either way.
        if let last = transitions.last, cursor < last {
            var index = firstTransition(after: cursor)
            while index < transitions.count {
                let candidate = transitions[index]
                if changes(at: candidate) { return WallTime(seconds: candidate) }
                index += 1
            }
            cursor = last
        }
        guard let footer else { return nil }
        for _ in 0..<16 {
            guard let candidate = footer.nextRuleInstant(after: cursor) else { return nil }
            if changes(at: candidate) { return WallTime(seconds: candidate) }
            cursor = candidate
        }
        return nil  // all-year DST written as a rule: the rule instants change nothing
    }

    // MARK: Internals

    /// The local time type in effect at `seconds`: type 0 before the first transition, the
    /// table up to and including the last one, the footer after it; with no transitions at all,
    /// the footer if there is one (RFC 9636 §3.2, §3.3).
    func localTimeType(at seconds: Int64) -> LocalTimeType {
        if let footer, transitions.isEmpty || seconds > transitions[transitions.count - 1] {
            if let daylight = footer.daylight, footer.isDaylight(at: seconds) { return daylight.type }
            return footer.standard
        }
        let after = firstTransition(after: seconds)
        return after == 0 ? types[0] : types[Int(transitionTypes[after - 1])]
    }

    /// The index of the first transition strictly after `seconds` (`transitions.count` if none).
    private func firstTransition(after seconds: Int64) -> Int {
        var low = 0, high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func changes(at seconds: Int64) -> Bool {
        let before = WallTime(seconds: seconds - 1), after = WallTime(seconds: seconds)
        return offset(at: before) != offset(at: after) || abbreviation(at: before) != abbreviation(at: after)
    }

    /// Same rules, whatever the name (to check that /etc/timezone names /etc/localtime's zone).
    func hasSameRules(as other: ZoneRules) -> Bool {
        transitions == other.transitions && transitionTypes == other.transitionTypes && types == other.types
            && footer == other.footer
    }

    static func numericAbbreviation(_ offset: Int) -> String {
        let magnitude = abs(offset)
        let hours = magnitude / 3600, minutes = magnitude % 3600 / 60, seconds = magnitude % 60
        var text = (offset < 0 ? "-" : "+") + CivilDate.pad(hours, 2)
        if minutes != 0 || seconds != 0 { text += CivilDate.pad(minutes, 2) }
        if seconds != 0 { text += CivilDate.pad(seconds, 2) }
        return text
    }
}

/// What a clock in `zone` shows at the instant `t`.
public func localTime(_ t: WallTime, in zone: ZoneRules) -> CivilDateTime {
    CivilDateTime(t, offsetSeconds: zone.offset(at: t))
}

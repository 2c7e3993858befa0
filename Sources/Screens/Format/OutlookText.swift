import Store

/// The "next two hours" line as text, in three pieces drawn one after the other: the longest
/// form ("Thunder risk 16:00", up to 21 characters) is more than one `ShortText` holds, and
/// string literals and small strings allocate nothing, where a concatenation would.
public struct OutlookText: Sendable {
    /// How much room there is: `full` for 21 cells (128 px of the small font, 20-column LCD),
    /// `compact` for 14 (beside the temperature on a 128×32 OLED), `tiny` for 10 (16×2 LCD).
    /// A shorter form drops words first, then the time: the kind of weather is what matters.
    public enum Form: CaseIterable, Sendable {
        case full, compact, tiny
    }

    public var lead: String
    public var value: String
    public var trail: String

    init(_ lead: String, _ value: String = "", _ trail: String = "") {
        self.lead = lead
        self.value = value
        self.trail = trail
    }

    /// Characters, as cells of a character LCD.
    public var count: Int { lead.unicodeScalars.count + value.unicodeScalars.count + trail.unicodeScalars.count }

    public init(_ line: OutlookLine, _ settings: Settings, form: Form) {
        let time = settings.time
        func at(_ clock: ClockTime?, _ prefix: StaticString, now: String = " now") -> String {
            guard let clock else { return now }
            var text = ShortText(prefix)
            text.appendClock(clock, time, short: form != .full)
            return text.string
        }
        switch line {
        case .dry:
            self.init(form == .tiny ? "Dry 2 h" : "Dry for 2 h")
        case .startsIn(let kind, let minutes):
            var count = ShortText()
            count.append(minutes)
            switch form {
            case .full, .compact: self.init(Self.pick(kind, "Rain in ", "Snow in "), count.string, " min")
            case .tiny: self.init(Self.pick(kind, "Rain ", "Snow "), count.string, "min")
            }
        case .startsAt(let kind, let clock, let chance?):
            let percent = UnitFormat.percent(chance)
            switch form {
            case .full: self.init(Self.pick(kind, "Rain ", "Snow "), percent, at(clock, " at "))
            case .compact: self.init(Self.pick(kind, "Rain ", "Snow "), percent, at(clock, " "))
            case .tiny: self.init(Self.pick(kind, "Rain ", "Snow "), percent)
            }
        case .startsAt(let kind, let clock, nil):
            self.init(form == .full ? Self.pick(kind, "Rain from", "Snow from") : Self.pick(kind, "Rain", "Snow"), at(clock, " "))
        case .until(let kind, let end):
            guard let end else {
                self.init(form == .full ? Self.pick(kind, "Rain for next 2 h", "Snow for next 2 h") : Self.pick(kind, "Rain 2 h+", "Snow 2 h+"))
                return
            }
            switch form {
            case .full: self.init(Self.pick(kind, "Rain until", "Snow until"), at(end, " "))
            case .compact: self.init(Self.pick(kind, "Rain to", "Snow to"), at(end, " "))
            case .tiny: self.init(Self.pick(kind, "Rain", "Snow"), at(end, "-"))
            }
        case .thunder(let clock):
            switch form {
            case .full: self.init(clock == nil ? "Thunder" : "Thunder risk", at(clock, " "))
            case .compact: self.init("Thunder", at(clock, " "))
            case .tiny: self.init("Thunder")
            }
        case .gusts(let speed, let clock):
            switch form {
            case .full: self.init("Gusts ", UnitFormat.wind(speed, settings.units), at(clock, " "))
            case .compact: self.init("Gusts ", UnitFormat.wind(speed, settings.units, compact: true))
            case .tiny: self.init("Gust ", UnitFormat.wind(speed, settings.units, compact: true))
            }
        case .unsure(let minutes):
            var age = ShortText()
            let hours = minutes >= 120
            age.append(hours ? minutes / 60 : minutes)
            switch form {
            case .full:
                age.append(hours ? " h" : " min")
                self.init("Dry? data ", age.string, " old")
            case .compact, .tiny:
                age.append(hours ? "h" : "m")
                self.init("Dry? ", age.string, form == .compact ? " old" : "")
            }
        }
    }

    /// One of two literals: a concatenation of 16 bytes or more would allocate.
    private static func pick(_ kind: OutlookLine.Precipitation, _ rain: String, _ snow: String) -> String {
        kind == .snow ? snow : rain
    }
}

extension ShortText {
    /// "16:15", or "4:15 PM": a clock time, alone (`UnitFormat.clock`) or inside a longer
    /// text. `short` writes the 12-hour
    /// form as the hours screen's tight columns do: "4:15p", and "4p" on the hour.
    mutating func appendClock(_ time: ClockTime, _ notation: TimeNotation, short: Bool = false) {
        switch notation {
        case .twentyFourHour:
            append(time.hour, minimumDigits: 2)
            append(":")
            append(time.minute, minimumDigits: 2)
        case .twelveHour:
            append(UnitFormat.twelveHour(time.hour))
            if !short || time.minute != 0 {
                append(":")
                append(time.minute, minimumDigits: 2)
            }
            if short {
                append(time.hour < 12 ? "a" : "p")
            } else {
                append(time.hour < 12 ? " AM" : " PM")
            }
        }
    }
}

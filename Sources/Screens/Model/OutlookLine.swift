import HAL
import Weather

/// The "next two hours" line as the screens show it: `NowcastOutlook` with its instants turned
/// into the place's local time of day and minutes from now. A fixed value (no arrays, no
/// strings), so the minute tick can rebuild and compare it without allocating.
public enum OutlookLine: Sendable, Equatable {
    public typealias Precipitation = NowcastOutlook.Precipitation

    /// "Dry for 2 h".
    case dry
    /// "Rain in 20 min": a start from the short steps within the hour, in whole 5 minutes
    /// (the steps are 15 minutes long; a minute count would claim a precision they lack).
    case startsIn(Precipitation, minutes: Int)
    /// "Snow from 16:15", or with the hourly probability "Rain 60% at 16:00".
    case startsAt(Precipitation, ClockTime, chance: Int?)
    /// "Rain until 15:40"; nil: past the window ("Rain for next 2 h").
    case until(Precipitation, ClockTime?)
    /// "Thunder risk 16:00"; nil: now.
    case thunder(ClockTime?)
    /// "Gusts 70 km/h 15:00"; nil: now. m/s, converted by the settings when drawn.
    case gusts(metresPerSecond: Double, ClockTime?)
    /// "Dry? data 75 min old": nothing is coming, but the data is too old to promise it.
    case unsure(ageMinutes: Int)

    /// Starts further ahead than this many minutes are told by their clock time.
    static let countdownLimit = 60

    public init(_ outlook: NowcastOutlook, now: WallTime, zone: ZoneRules) {
        func clock(_ time: WallTime) -> ClockTime? { time <= now ? nil : Forecast.clock(time, zone) }
        switch outlook {
        case .dry: self = .dry
        case .starts(let kind, let at, let chance):
            let minutes = Int((at - now).components.seconds + 59) / 60
            if chance == nil, minutes <= Self.countdownLimit {
                self = .startsIn(kind, minutes: max(5, (minutes + 2) / 5 * 5))
            } else {
                self = .startsAt(kind, Forecast.clock(at, zone), chance: chance)
            }
        case .until(let kind, let end): self = .until(kind, end.flatMap(clock))
        case .thunder(let at): self = .thunder(clock(at))
        case .gusts(let speed, let at): self = .gusts(metresPerSecond: speed, clock(at))
        case .unsure(let age): self = .unsure(ageMinutes: Int(age.components.seconds / 60))
        }
    }
}

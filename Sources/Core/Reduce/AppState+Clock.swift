import HAL

extension AppState {
    /// Every event's moment passes here first. A new source of time, or a step of the wall
    /// clock (NTP stepping it, `date -s`, the first vouched GPS time), is seen at once: the
    /// weather fetched in this run is re-stamped under the new base (its age is monotonic
    /// time, whatever the clocks said), the clock and the panel are redrawn, and the kernel's
    /// synchronisation, which NTP daemons set just after stepping, is looked at again in 1 s.
    mutating func observeClock(_ moment: Moment, _ effects: inout [Effect]) {
        let base = moment.base
        let previousSource = clockSource
        clockSource = moment.source
        guard let previous = clockBase else {
            clockBase = base
            return
        }
        clockBase = base
        let step = base.offset(from: previous)
        guard moment.source != previousSource || step.magnitudeExceeds(TimeAuthority.stepTolerance) else { return }
        effects.append(.log(.text(Self.describeClockChange(from: previousSource, to: moment.source, step: step))))
        if weather.restamp(base) { effects.append(.saveWeatherCache(token: weatherToken)) }
        guard nextMinute != nil else { return }  // not started: `.start` draws the clock
        refreshTime(moment, &effects, force: true)
        nextMinute = Instant.earliest(nextMinute, moment.now + .seconds(1))
    }

    /// Whether `moment` has another source, or a wall clock stepped from the last event's.
    public func clockMoved(_ moment: Moment) -> Bool {
        guard let clockBase else { return false }
        return moment.source != clockSource || moment.base.offset(from: clockBase).magnitudeExceeds(TimeAuthority.stepTolerance)
    }

    static func describeClockChange(from old: ClockSource, to new: ClockSource, step: Duration) -> String {
        // A positive step: the time before was behind the new one.
        let by = step.magnitudeExceeds(TimeAuthority.stepTolerance)
            ? ", \(spokenStep(step)) \(step < .zero ? "ahead" : "behind")" : ""
        if old == new { return "clock: \(name(of: new)) stepped by \(step < .zero ? "−" : "+")\(spokenStep(step))" }
        return "clock: now \(name(of: new)), was \(name(of: old))\(by)"
    }

    static func name(of source: ClockSource) -> String {
        switch source {
        case .system: "the synchronised system clock"
        case .gps: "GPS time"
        case .unsure: "the unsynchronised system clock (unsure)"
        case .none: "no time (the system clock was never set)"
        }
    }

    /// "3 d 2 h", "1 h 0 min", "42 s": the size of a step, to the two largest units.
    public static func spokenStep(_ step: Duration) -> String {
        let seconds = Swift.abs(step.components.seconds)
        let days = seconds / 86_400, hours = seconds % 86_400 / 3600, minutes = seconds % 3600 / 60
        if days > 0 { return "\(days) d \(hours) h" }
        if hours > 0 { return "\(hours) h \(minutes) min" }
        if minutes > 0 { return "\(minutes) min \(seconds % 60) s" }
        return "\(seconds) s"
    }
}

extension Duration {
    /// Whether the duration is further from zero than `limit` either way.
    public func magnitudeExceeds(_ limit: Duration) -> Bool { self > limit || self < .zero - limit }
}

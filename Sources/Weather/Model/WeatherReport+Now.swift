import HAL

extension WeatherReport {
    /// The conditions to show as "now" at `time` (docs/design/parts.md#the-weather-service): the service's
    /// current values while they are under 45 minutes old, then the hourly forecast for the
    /// hour that contains `time`; nothing at all once the fetch is 3 hours old, because an old
    /// "now" misleads more than a blank one.
    public func conditions(at time: WallTime, policy: RefreshPolicy = .standard) -> CurrentConditions? {
        let age = time - fetchedAt
        guard age < policy.blankRealtimeAfter, age >= .zero - RefreshPolicy.futureTolerance else { return nil }
        if let current, time - current.time < policy.currentFallbackAfter { return current }
        if let hour = hours.last(where: { $0.time <= time }), time - hour.time < .seconds(3600) {
            return CurrentConditions(
                time: hour.time, temperature: hour.temperature, precipitation: hour.precipitation, condition: hour.condition)
        }
        return current
    }

    /// The hours after `time` (the first is the coming full hour), up to the forecast horizon
    /// of 48 hours after the fetch; past it there is nothing to show.
    public func upcomingHours(after time: WallTime, limit: Int, policy: RefreshPolicy = .standard) -> ArraySlice<HourlyPoint> {
        let horizon = fetchedAt + policy.horizon
        guard let first = hours.firstIndex(where: { $0.time > time }) else { return [] }
        var end = first
        while end < hours.count, end - first < limit, hours[end].time < horizon { end += 1 }
        return hours[first..<end]
    }
}

extension ZoneRules {
    /// The zone to show `report`'s times in: its IANA zone from tzdata when the service names
    /// one and the device has it, else the fixed offset the service used (right until the next
    /// DST change), else `fallback` (the device's own zone, for MET Norway).
    public static func forReport<Files: FileSystem>(_ report: WeatherReport, files: inout Files, fallback: ZoneRules) -> ZoneRules {
        if let name = report.timeZone {
            if case .success(let zone) = ZoneRules.load(identifier: name, files: &files) { return zone }
            return .fixed(offsetSeconds: report.utcOffsetSeconds, identifier: name)
        }
        guard report.provider == .openMeteo else { return fallback }
        return .fixed(offsetSeconds: report.utcOffsetSeconds, identifier: "UTC" + numericAbbreviation(report.utcOffsetSeconds))
    }
}

import HAL

/// The provider's own sea-level pressure read like a barograph's trace, so a device without a
/// sensor has a tendency too: every device has a trend.
///
/// Open-Meteo's `pressure_msl` is hourly and instantaneous; MET Norway's steps are hourly, then
/// 6-hourly. Between two points the pressure is taken as linear: the three readings of the
/// WMO characteristic (three hours ago, half-way, now) rarely fall on a point. A reading is only
/// taken between two points at most `maximumGap` apart, so a 6-hour step or a `null` is a gap,
/// not a straight line drawn through a front.
public enum ProviderPressure {
    public static let maximumGap = Duration.seconds(3 * 3600)

    /// The pressure at `time`, hPa, interpolated between the two points around it; nil outside
    /// the points, across a gap, or next to a missing value. `points` in time order (as both
    /// decoders give them). Walks by index: nothing is allocated.
    public static func hectopascals(at time: WallTime, in points: [PressurePoint]) -> Double? {
        var low = 0
        var high = points.count
        while low < high {
            let mid = (low + high) / 2
            if points[mid].time < time { low = mid + 1 } else { high = mid }
        }
        guard low < points.count else { return nil }
        let after = points[low]
        if after.time == time { return after.hectopascals }
        guard low > 0, let p1 = after.hectopascals, let p0 = points[low - 1].hectopascals else { return nil }
        let before = points[low - 1].time
        let span = after.time - before
        guard span <= maximumGap else { return nil }
        let fraction = Double((time - before).nanoseconds) / Double(span.nanoseconds)
        return p0 + (p1 - p0) * fraction
    }

    /// The three-hour tendency ending at `now` from the provider's points; nil when any of the
    /// three readings is missing. Modelled pressure has no sensor noise, but the same steady
    /// band is kept so a device with and without a sensor name the same trace alike.
    public static func tendency(at now: WallTime, in points: [PressurePoint]) -> PressureTendency? {
        guard let p0 = hectopascals(at: now, in: points),
            let p1 = hectopascals(at: now - .seconds(5_400), in: points),
            let p3 = hectopascals(at: now - .seconds(10_800), in: points)
        else { return nil }
        return PressureTendency(threeHoursAgo: p3, halfway: p1, now: p0)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HAL

/// The altitude the barograph reduces with, from GPS fixes: smoothed, and watched for
/// vertical moves.
///
/// A single fix's height is off by ±10 m or more (about ±1.2 hPa once reduced), and the error
/// wanders slowly, so the fixes are averaged exponentially over `timeConstant` (5 minutes:
/// long beside a fix's jitter, short beside the three hours of a tendency). A device that
/// climbs or descends changes the station pressure by as much as a front does (a van up 8 m
/// reads as a 1 hPa fall): when the smoothed height moved more than `stillWithin` during a
/// sampling interval, that interval's sample is marked `.moving`, and the tendency over it is
/// unsure rather than a storm.
public struct AltitudeTrack: Sendable {
    public var timeConstant: Duration
    /// The largest move of the smoothed height within an interval that still counts as still
    /// (8 m ≈ 1 hPa, `SeaLevelPressure.hectopascals(perMetres:)`).
    public var stillWithin: Double

    public private(set) var smoothed: Double?
    private var lastFix: Instant?
    private var low = Double.infinity
    private var high = -Double.infinity

    public init(timeConstant: Duration = .seconds(300), stillWithin: Double = 8) {
        self.timeConstant = timeConstant
        self.stillWithin = stillWithin
    }

    /// A fix's height above mean sea level, metres, at monotonic `instant`.
    public mutating func add(_ altitude: Double, at instant: Instant) {
        guard altitude.isFinite else { return }
        if let smoothed, let lastFix, instant > lastFix {
            let dt = Double((instant - lastFix).nanoseconds) / 1e9
            let weight = 1 - exp(-dt / (Double(timeConstant.nanoseconds) / 1e9))
            self.smoothed = smoothed + weight * (altitude - smoothed)
        } else if smoothed == nil {
            smoothed = altitude
        }
        lastFix = instant
        if let smoothed {
            low = min(low, smoothed)
            high = max(high, smoothed)
        }
    }

    /// Ends a sampling interval: the height to reduce with and whether the device stayed
    /// still since the previous call. Nil when no fix ever had a height.
    public mutating func closeInterval() -> (altitude: Double, still: Bool)? {
        defer {
            low = smoothed ?? .infinity
            high = smoothed ?? -.infinity
        }
        guard let smoothed else { return nil }
        return (smoothed, high - low <= stillWithin)
    }

    /// Forgets the heights (a receiver replaced, a place changed by hand).
    public mutating func reset() {
        smoothed = nil
        lastFix = nil
        low = .infinity
        high = -.infinity
    }
}

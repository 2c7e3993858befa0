#if canImport(Glibc)
import Glibc
#endif
import HAL

/// A deep low scripted into the simulated weather, so that the barograph's storm alarm shows in
/// a default `simulate` within minutes at `--speed 600`: the sea-level pressure falls into a
/// trough of `depth` hPa centred at `centre` and recovers behind it, a half cosine each way
/// over `halfWidth` (the shape of `SimulatedClimate.frontDip`, deeper and steeper).
///
/// The standard one (10 hPa, 8 hours each side, lowest 8 hours after the start) falls 4 hPa in
/// the three hours up to 3.5 hours after the start and at most 5.6 hPa in three hours: the Met
/// Office's "falling quickly" (3.6 to 6.0 hPa in 3 h, `PressureTendency.Rate`), past the storm
/// alarm's default threshold, as a gale's low brings. Both the forecast's `pressure_msl` and the
/// simulated BME280 see it.
public struct SimulatedStorm: Sendable, Equatable {
    public var centre: WallTime
    public var depth: Double
    public var halfWidth: Duration

    public init(centre: WallTime, depth: Double, halfWidth: Duration) {
        self.centre = centre
        self.depth = depth
        self.halfWidth = halfWidth
    }

    /// The standard storm of a simulation that starts at `start`.
    public static func standard(after start: WallTime) -> SimulatedStorm {
        SimulatedStorm(centre: start + .seconds(8 * 3_600), depth: 10, halfWidth: .seconds(8 * 3_600))
    }

    /// The sea-level pressure at `t` (Unix seconds) with the storm in `weather`, the pressure
    /// without it. Until the trough the weather's own pressure is held at its value where the
    /// storm begins, so the fall is the storm's alone; over the recovery it is eased (a half
    /// cosine) to the weather's own value where the storm ends, so the trace joins it smoothly.
    /// Added to the weather instead, a day whose own pressure rose (behind a front, or from one
    /// day's mean to the next) cancelled the storm's fall: 4 of 60 default simulations spread
    /// over a year raised no alarm.
    func pressure(at t: Double, weather: (Double) -> Double) -> Double {
        let width = Double(halfWidth.components.seconds)
        let middle = Double(centre.seconds)
        guard width > 0, abs(t - middle) < width else { return weather(t) }
        let before = weather(middle - width)
        guard t > middle else { return before - dip(at: t) }
        let after = weather(middle + width)
        return before + (after - before) * (1 - cos(Double.pi * (t - middle) / width)) / 2 - dip(at: t)
    }

    /// How far the storm pulls the sea-level pressure down at `t` (Unix seconds), hPa.
    func dip(at t: Double) -> Double {
        let width = Double(halfWidth.components.seconds)
        let distance = abs(t - Double(centre.seconds))
        guard width > 0, distance < width else { return 0 }
        return depth * (1 + cos(Double.pi * distance / width)) / 2
    }
}

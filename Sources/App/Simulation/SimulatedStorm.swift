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

    /// How far the storm pulls the sea-level pressure down at `t` (Unix seconds), hPa.
    func dip(at t: Double) -> Double {
        let width = Double(halfWidth.components.seconds)
        let distance = abs(t - Double(centre.seconds))
        guard width > 0, distance < width else { return 0 }
        return depth * (1 + cos(Double.pi * distance / width)) / 2
    }
}

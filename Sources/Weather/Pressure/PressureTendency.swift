/// The pressure tendency over the three hours before an observation, as synoptic reports give
/// it: the characteristic (how the pressure moved) and the amount (how far).
///
/// The characteristic is WMO code table 0200 ("a", Manual on Codes, WMO-No. 306, Vol. I.1).
/// The words for the amount are the ones the UK Met Office uses for station reports in the
/// shipping forecast: steady (under 0.1 hPa in three hours), slowly (0.1 to 1.5 hPa), plain
/// rising or falling (1.6 to 3.5), quickly (3.6 to 6.0) and very rapidly (more than 6.0).
public struct PressureTendency: Equatable, Sendable {
    /// WMO code table 0200: the code figure is the raw value.
    public enum Characteristic: Int, Sendable, CaseIterable {
        /// Increasing, then decreasing; the same or higher than three hours ago.
        case increasingThenDecreasing = 0
        /// Increasing, then steady; or increasing, then increasing more slowly.
        case increasingThenSteady = 1
        /// Increasing (steadily or unsteadily).
        case increasing = 2
        /// Decreasing or steady, then increasing; or increasing, then increasing more rapidly.
        case increasingMoreRapidly = 3
        /// Steady; the same as three hours ago.
        case steady = 4
        /// Decreasing, then increasing; the same or lower than three hours ago.
        case decreasingThenIncreasing = 5
        /// Decreasing, then steady; or decreasing, then decreasing more slowly.
        case decreasingThenSteady = 6
        /// Decreasing (steadily or unsteadily).
        case decreasing = 7
        /// Steady or increasing, then decreasing; or decreasing, then decreasing more rapidly.
        case decreasingMoreRapidly = 8
    }

    /// How fast, in the shipping forecast's words (by the size of the three-hour change).
    public enum Rate: Int, Sendable, Comparable {
        case steady, slowly, moderately, quickly, veryRapidly

        /// The class of a change of `hectopascals` (either sign) over three hours. The Met
        /// Office's bands are in tenths, as station reports give them: 1.54 hPa is reported as
        /// 1.5 and is "slowly"; 1.55 is reported as 1.6.
        public init(threeHourChange hectopascals: Double) {
            let tenths = (abs(hectopascals) * 10).rounded()
            self =
                switch tenths {
                case ..<1: .steady
                case ..<16: .slowly
                case ..<36: .moderately
                case ...60: .quickly
                default: .veryRapidly
                }
        }

        public static func < (a: Rate, b: Rate) -> Bool { a.rawValue < b.rawValue }
    }

    public var characteristic: Characteristic
    /// Now minus three hours ago, hPa (negative: falling).
    public var change: Double
    public var rate: Rate { Rate(threeHourChange: change) }

    public init(characteristic: Characteristic, change: Double) {
        self.characteristic = characteristic
        self.change = change
    }

    /// The tendency from the pressure three hours ago, an hour and a half ago and now (hPa).
    ///
    /// Code table 0200 describes the shape of the barograph's trace; with three points the
    /// shape is the two halves' changes. A half whose change is within `steadyWithin` is steady:
    /// the default is the BME280's relative accuracy, ±0.12 hPa (data sheet §1, "Relative
    /// accuracy pressure"), so sensor noise is never read as a turn. The net change decides
    /// between the figures that differ only in where the pressure ended (0 against 5, 1–3
    /// against 6–8).
    public init(threeHoursAgo p3: Double, halfway p1: Double, now p0: Double, steadyWithin: Double = 0.12) {
        let first = p1 - p3
        let second = p0 - p1
        let net = p0 - p3
        func sign(_ d: Double) -> Int { d > steadyWithin ? 1 : d < -steadyWithin ? -1 : 0 }
        let (a, b, n) = (sign(first), sign(second), sign(net))
        // Figures 1–3 are for a pressure now higher than three hours ago, 6–8 for lower, 0, 4
        // and 5 for the same: the net change picks the group, the two halves the figure.
        let characteristic: Characteristic
        switch (n, a, b) {
        case (0, 1, -1): characteristic = .increasingThenDecreasing
        case (0, -1, 1): characteristic = .decreasingThenIncreasing
        case (0, _, _): characteristic = .steady
        case (1, 1, -1): characteristic = .increasingThenDecreasing
        case (1, 1, 0): characteristic = .increasingThenSteady
        case (1, 1, 1):
            // The same pace is "increasing"; a clear change of pace is figure 3 or 1.
            characteristic = second - first > steadyWithin ? .increasingMoreRapidly : first - second > steadyWithin ? .increasingThenSteady : .increasing
        case (1, 0, 0): characteristic = .increasing
        case (1, _, _): characteristic = .increasingMoreRapidly  // decreasing or steady, then increasing
        case (_, -1, 1): characteristic = .decreasingThenIncreasing
        case (_, -1, 0): characteristic = .decreasingThenSteady
        case (_, -1, -1):
            characteristic = first - second > steadyWithin ? .decreasingMoreRapidly : second - first > steadyWithin ? .decreasingThenSteady : .decreasing
        case (_, 0, 0): characteristic = .decreasing
        default: characteristic = .decreasingMoreRapidly  // steady or increasing, then decreasing
        }
        // A net change within the noise is reported as none: "steady" is then the amount's word,
        // whatever the trace did in between (figures 0 and 5 keep their shape).
        self.init(characteristic: characteristic, change: n == 0 ? 0 : net)
    }
}

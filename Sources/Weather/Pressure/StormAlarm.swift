import HAL

/// The storm alarm: a fall of the sea-level pressure over three hours past a threshold.
///
/// Sailors read a fast fall of the glass before any forecast. The default threshold is the
/// Met Office's "falling quickly", 3.6 hPa in three hours (its station-report terms, see
/// `PressureTendency.Rate`); past 6.0 hPa ("very rapidly") the alarm is raised again even if
/// the first was acknowledged. Only a sure tendency raises it: a window with a sample taken
/// moving, or without a trusted altitude, never invents a storm.
///
/// One alarm per episode: once raised it stays until a button acknowledges it; an
/// acknowledged episode raises nothing more unless the fall reaches the next rate. The episode
/// ends when the three-hour change is back above half the threshold, so a fall that hovers at
/// the threshold does not raise, clear and raise again.
public struct StormAlarm: Equatable, Sendable {
    public struct Configuration: Equatable, Sendable {
        public var enabled: Bool
        /// The three-hour fall (hPa, positive) that raises the alarm.
        public var fall: Double

        public init(enabled: Bool = true, fall: Double = 3.6) {
            self.enabled = enabled
            self.fall = fall
        }
    }

    /// What an update changed.
    public enum Change: Equatable, Sendable {
        case raised(PressureTendency)
        case ended
    }

    public let configuration: Configuration
    /// The alarm shown (not yet acknowledged), with the tendency that raised it.
    public private(set) var raised: PressureTendency?
    /// The rate the episode's last alarm was raised at (nil: no episode).
    public private(set) var episodeRate: PressureTendency.Rate?

    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public var isShown: Bool { raised != nil }

    /// Takes the newest reading of the history; returns what changed, if anything.
    public mutating func update(_ reading: PressureHistory.Reading) -> Change? {
        guard configuration.enabled else { return nil }
        guard case .sure(let tendency) = reading else { return nil }  // unknown or unsure: no news
        let falling = -tendency.change
        if let rate = episodeRate {
            if falling < configuration.fall / 2 {
                episodeRate = nil
                raised = nil
                return .ended
            }
            if raised == nil, falling >= configuration.fall, tendency.rate > rate, tendency.rate == .veryRapidly {
                episodeRate = tendency.rate
                raised = tendency
                return .raised(tendency)
            }
            if raised != nil { raised = tendency }  // the banner shows the latest amount
            return nil
        }
        guard falling >= configuration.fall else { return nil }
        episodeRate = tendency.rate
        raised = tendency
        return .raised(tendency)
    }

    /// A button acknowledged the alarm: the banner goes; the episode goes on.
    public mutating func acknowledge() -> Bool {
        guard raised != nil else { return false }
        raised = nil
        return true
    }
}

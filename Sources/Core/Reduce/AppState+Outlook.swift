import HAL
import Screens
import Weather

extension AppState {
    /// The "next two hours" line at `moment`, from the report kept by the repository. Runs on
    /// every weather update and every minute tick ("Rain in 20 min" counts down, a stale report
    /// stops saying "dry"): it walks the report's arrays in place and stores a fixed value, so
    /// the tick allocates nothing; the frame is redrawn only when the line changes.
    mutating func refreshOutlook(_ moment: Moment) {
        var line: OutlookLine?
        if let report = weather.state.value {
            let outlook = NowcastOutlook.summarise(
                nowcast: report.nowcast, hours: report.hours, now: moment.wall, fetchedAt: report.fetchedAt,
                rules: Self.outlookRules(weather.policy))
            line = outlook.map { OutlookLine($0, now: moment.wall, zone: zone) }
        }
        if line != model.outlook {
            model.outlook = line
            frameDirty = true
        }
    }

    /// The outlook's ages are the repository's: "dry" only while the screens call the values
    /// fresh, nothing at all once they blank the realtime ones.
    static func outlookRules(_ policy: RefreshPolicy) -> OutlookRules {
        var rules = OutlookRules.standard
        rules.dryWithin = policy.staleAfter
        rules.silentAfter = policy.blankRealtimeAfter
        return rules
    }
}

import Core
import HAL
import Store
import Weather

extension SimulatedBoard {
    /// The line under the panel in `simulate`: GPS state and position, the weather's state and
    /// age, the store's health, and what the last frame cost the bus.
    public var statusLine: String {
        let state = device.state
        var gps: String
        switch state.gps.kind {
        case .fix: gps = "GPS \(state.gps.threeD ? "3D" : "2D") fix \(state.gps.position?.label ?? "")"
        case .stale: gps = "GPS fix lost"
        case .noFix: gps = "GPS no fix" + (state.gps.satellites.map { " (\($0) sat)" } ?? "")
        case .noDevice: gps = "GPS no receiver"
        case .noData: gps = "GPS silent"
        case .noValidSentences: gps = "GPS garbled"
        case .waiting: gps = "GPS starting"
        }
        let wall = device.moment.wall
        var weather = "weather "
        switch state.weather.state {
        case .idle: weather += "waiting for a position"
        case .loading(let last): weather += last == nil ? "asking" : "updating"
        case .success(let report): weather += "ok, \(Self.age(wall - report.fetchedAt)) old"
        case .failure(let error, let last):
            weather += error.shortText + (last.map { ", last \(Self.age(wall - $0.fetchedAt)) old" } ?? "")
        }
        let store = state.storeHealth.isHealthy ? "store ok" : state.storeHealth.description
        let bus = "last frame \(device.counters.lastFlushPayloadBytes) B"
        // The storm alarm first, where the line cannot cut it off (the panel's status screen
        // shows it too, but only when the rotation reaches it).
        let storm = state.stormAlarm.raised.map { tendency in
            let tenths = Int((abs(tendency.change) * 10).rounded())
            return "STORM ALARM \(tendency.change < 0 ? "\u{2212}" : "+")\(tenths / 10).\(tenths % 10) hPa/3h · "
        } ?? ""
        return "\(storm)\(gps) · \(weather) · \(store) · \(bus)"
    }

    static func age(_ duration: Duration) -> String {
        let seconds = max(0, duration.components.seconds)
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7200 { return "\(seconds / 60) min" }
        return "\(seconds / 3600) h"
    }
}

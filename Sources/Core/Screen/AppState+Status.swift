import HAL
import Screens
import Store
import Weather

/// The inputs of the status screen. Its lines are rebuilt (which allocates their text) only
/// when one of these changes, so a minute tick or a GPS epoch with nothing new builds nothing.
struct StatusKey: Equatable {
    var gps: GPSReport.Kind
    var satellites: Int?
    var threeD: Bool
    /// The weather state as the status line reads it: its kind, the fetch time and the
    /// failure, not the whole forecast (comparing that at every event would cost more than
    /// the line).
    var weatherKind: Int
    var weatherFetched: WallTime?
    var weatherFailure: WeatherError?
    var store: StoreHealth
    var saving: StoreSaving
    var places: Int
    var refusal: String?
    var notice: String?
    var display: DisplayHealth
    var clock: ClockSource
    var zone: String
    var zoneSource: ZoneSource
    var indoor: String?
    var droppedEdges: Int
    var noisyButtons: [String]
    var storm: PressureTendency?
    /// The storm line's unit follows the settings (hPa or inHg, as the banner).
    var units: UnitsNotation
}

extension AppState {
    var currentStatusKey: StatusKey {
        var indoorProblem: String?
        if case .failed(let why)? = indoor { indoorProblem = why }
        let kind: Int
        switch weather.state {
        case .idle: kind = 0
        case .loading: kind = 1
        case .success: kind = 2
        case .failure: kind = 3
        }
        return StatusKey(
            gps: gps.kind, satellites: gps.satellites, threeD: gps.threeD, weatherKind: kind,
            weatherFetched: weather.state.value?.fetchedAt, weatherFailure: weather.state.failure, store: storeHealth,
            saving: saving, places: store.locations.count, refusal: refusal, notice: notice, display: display, clock: clockSource,
            zone: zone.identifier, zoneSource: zoneSource, indoor: indoorProblem, droppedEdges: droppedEdges,
            noisyButtons: noisyButtons, storm: stormAlarm.raised, units: model.settings.units)
    }

    mutating func refreshStatus(_ moment: Moment) {
        let key = currentStatusKey
        guard key != statusKey else { return }
        statusKey = key
        model.statusLines = statusLines
        if screen == .status { frameDirty = true }
    }

    /// The status screen, one short line per part; `isProblem` lines come first on a panel
    /// with fewer rows than lines.
    public var statusLines: [StatusLine] {
        var lines: [StatusLine] = []
        lines.reserveCapacity(8)
        if let storm = stormAlarm.raised {
            // First: the one line a sailor must not miss ("Storm −4.2 hPa/3h", "Storm −0.12
            // inHg/3h"), in the unit of the banner and the barograph.
            lines.append(StatusLine("Storm", PressureText.change(storm.change, model.settings.units, form: .spacedUnit), isProblem: true))
        }
        lines.append(gpsLine)
        lines.append(StatusLine.weather(weather.state, zone: zone, provider: options.provider))
        lines.append(storeLine)
        lines.append(clockLine)
        switch display {
        case .ok: lines.append(StatusLine("Disp", "ok"))
        case .failing(let why): lines.append(StatusLine("Disp", why, isProblem: true))
        }
        if options.hasSensor {
            switch indoor {
            case .failed(let why)?: lines.append(StatusLine("Sens", why, isProblem: true))
            case .reading?: lines.append(StatusLine("Sens", "ok"))
            case nil: lines.append(StatusLine("Sens", "starting"))
            }
        }
        if !noisyButtons.isEmpty {
            // A line ignored for a minute or more says so before a passing notice.
            let names = noisyButtons.joined(separator: ", ")
            lines.append(StatusLine("Btn", "\(names) noisy line\(noisyButtons.count == 1 ? "" : "s")", isProblem: true))
        } else if let notice {
            lines.append(StatusLine("Btn", notice, isProblem: true))
        } else if droppedEdges > 0 {
            lines.append(StatusLine("Btn", "\(droppedEdges) edge\(droppedEdges == 1 ? "" : "s") lost", isProblem: true))
        }
        return lines
    }

    private var gpsLine: StatusLine {
        let satellites = gps.satellites.map { ", \($0) sat" } ?? ""
        switch gps.kind {
        case .fix: return StatusLine("GPS", "\(gps.threeD ? "3D" : "2D") fix\(satellites)")
        case .waiting: return StatusLine("GPS", "starting")
        case .noFix: return StatusLine("GPS", "no fix\(satellites)", isProblem: true)
        case .stale: return StatusLine("GPS", "fix lost", isProblem: true)
        case .noDevice: return StatusLine("GPS", "no receiver", isProblem: true)
        case .noData: return StatusLine("GPS", "silent: wiring?", isProblem: true)
        case .noValidSentences: return StatusLine("GPS", "garbled: baud?", isProblem: true)
        }
    }

    private var storeLine: StatusLine {
        if let refusal { return StatusLine("Store", "refused: \(refusal)", isProblem: true) }
        // A write that has not come back outranks the health: it is what the card does now.
        if saving.slow { return StatusLine("Store", "card not answering", isProblem: true) }
        if saving.waiting > 0, storeHealth.isHealthy { return StatusLine("Store", "saving…") }
        switch storeHealth {
        case .healthy:
            let n = store.locations.count
            return StatusLine("Store", "ok, \(n) place\(n == 1 ? "" : "s")")
        case .degraded(_, let pending): return StatusLine("Store", "not saving, \(pending) kept", isProblem: true)
        case .readOnly: return StatusLine("Store", "read-only", isProblem: true)
        case .damaged: return StatusLine("Store", "damaged, check", isProblem: true)
        }
    }

    private var clockLine: StatusLine {
        let zoneName = zoneSource == .utc ? "UTC, no zone" : zone.identifier
        switch clockSource {
        case .system: return StatusLine("Clock", "NTP, \(zoneName)")
        case .gps: return StatusLine("Clock", "GPS, \(zoneName)")
        case .unsure: return StatusLine("Clock", "unsure, no NTP/GPS", isProblem: true)
        case .none: return StatusLine("Clock", "not set yet", isProblem: true)
        }
    }
}

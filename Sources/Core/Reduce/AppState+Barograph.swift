import HAL
import Weather

/// The barograph: the indoor sensor's station pressure, averaged over 10 minutes, reduced to
/// sea level with the smoothed GPS height (else the board file's altitude, else the forecast's
/// elevation), kept for 48 hours;
/// its three-hour tendency; and the storm alarm on it.
extension AppState {
    /// How often a sample is taken, at whole 10 minutes of the civil time.
    static var barographInterval: Int64 { 600 }

    /// A sensor reading: added to the interval's mean, and the sample taken when the interval
    /// is over. Samples are stamped with civil time and taken only under a trusted clock (a
    /// history must compare now with three hours ago; an unsure clock could put a sample in
    /// the past of another).
    mutating func stationPressure(_ hectopascals: Double, _ moment: Moment, _ effects: inout [Effect]) {
        guard hectopascals.isFinite, hectopascals > 300, hectopascals < 1_100 else { return }  // BME280 §1: 300–1100 hPa
        guard moment.source.isTrusted else { return }
        let interval = Self.barographInterval
        let mark = moment.wall.seconds - moment.wall.seconds % interval
        if let due = nextBarographSample, moment.wall >= due {
            // The interval is over: its readings' mean is the sample, stamped at its end.
            if stationCount > 0 { takeBarographSample(stationSum / Double(stationCount), at: due, moment, &effects) }
            stationSum = 0
            stationCount = 0
            nextBarographSample = WallTime(seconds: mark + interval)
        } else if nextBarographSample == nil {
            nextBarographSample = WallTime(seconds: mark + interval)
        }
        stationSum += hectopascals
        stationCount += 1
    }

    private mutating func takeBarographSample(_ station: Double, at time: WallTime, _ moment: Moment, _ effects: inout [Effect]) {
        let report = weather.state.value
        var quality = PressureSample.Quality.good
        let altitude: Double
        if let (height, still) = altitudeTrack.closeInterval() {
            altitude = height
            if !still { quality = .moving }
        } else if let height = options.sensorAltitude {
            altitude = height  // the board file's: the sensor's own height, known to the user
        } else if let elevation = report?.elevation, elevation.isFinite {
            altitude = elevation  // the provider's terrain height at the place (a fixed device)
        } else {
            altitude = 0
            quality = .noAltitude
        }
        let outdoor = report?.current?.temperature
        let reduced = SeaLevelPressure.reduce(stationHectopascals: station, altitude: altitude, outdoorCelsius: outdoor)
        if let latest = barograph.latest, latest.time > time { dropFutureSamples(latest.time, now: time, &effects) }
        guard barograph.record(PressureSample(time: time, hectopascals: reduced, quality: quality)) else { return }
        pressureTendency = barograph.tendency(at: time)
        if barographSavedThrough.map({ time - $0 >= Self.barographSaveEvery }) ?? true {
            barographSavedThrough = time
            effects.append(.saveBarograph)
        }
        switch stormAlarm.update(pressureTendency) {
        case .raised(let tendency)?:
            effects.append(.log(.problem("storm alarm: \(Self.describe(tendency)); a button acknowledges it")))
            frameDirty = true
        case .ended?:
            effects.append(.log(.text("storm alarm over: the pressure has stopped falling fast")))
        case nil:
            break
        }
        refreshBarographPanel(time)
    }

    /// Rebuilds the barograph's part of the screen model for `now` (a sample's time, or the
    /// weather's arrival): 168 columns from the ring and the provider's points, on the stack.
    mutating func refreshBarographPanel(_ now: WallTime) {
        var panel = model.barograph
        let pressures = weather.state.value?.pressures ?? []
        // On the sampling grid, so a column always holds the same four samples.
        let mark = WallTime(seconds: now.seconds - now.seconds % Self.barographInterval)
        panel.update(history: barograph, reading: pressureTendency, pressures: pressures, now: mark)
        panel.alarm = stormAlarm.raised?.change
        guard panel != model.barograph else { return }
        // The banner is on every screen; the rest only on the barograph screen and beside the
        // indoor screen's pressure.
        if panel.alarm != model.barograph.alarm || screen == .barograph || screen == .indoor { frameDirty = true }
        model.barograph = panel
    }

    /// A button acknowledges the storm alarm (and does nothing else).
    mutating func acknowledgeStormAlarm(_ effects: inout [Effect]) -> Bool {
        guard stormAlarm.acknowledge() else { return false }
        effects.append(.log(.text("storm alarm acknowledged")))
        model.barograph.alarm = nil
        frameDirty = true
        return true
    }

    /// "−4.2 hPa in 3 h, falling quickly".
    static func describe(_ tendency: PressureTendency) -> String {
        "\(signedTenths(tendency.change)) hPa in 3 h, \(words(tendency))"
    }

    static func words(_ tendency: PressureTendency) -> String {
        let direction = tendency.change < 0 ? "falling" : "rising"
        switch tendency.rate {
        case .steady: return "steady"
        case .slowly: return "\(direction) slowly"
        case .moderately: return direction
        case .quickly: return "\(direction) quickly"
        case .veryRapidly: return "\(direction) very rapidly"
        }
    }

    /// `−4.2`, `+0.3`: one decimal, with its sign (U+2212 for minus, as the screens write it).
    static func signedTenths(_ value: Double) -> String {
        let tenths = Int((abs(value) * 10).rounded())
        return "\(value < 0 && tenths > 0 ? "\u{2212}" : "+")\(tenths / 10).\(tenths % 10)"
    }
}

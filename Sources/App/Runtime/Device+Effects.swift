import Core
import Drivers
import HAL
import Store
import SystemPackage
import Weather

extension Device {
    /// Carries out one effect. What it learns goes back to the logic as a follow-up event,
    /// handled in the same `send` after the effects of the event that asked.
    func perform(_ effect: Effect) {
        switch effect {
        case .commit(let change):
            commit(change)
        case .fetchWeather(let order, let token):
            counters.fetches += 1
            link.send(order, token: token)
        case .saveWeatherCache(let token):
            saveWeatherCache(token)
        case .saveBarograph:
            counters.historyWrites += 1
            store.submit(.saveHistory(BarographFile.encode(state.barograph)), now: moment.now)
            receiveStore()
        case .loadZone(let name, let source):
            switch dependencies.loadZone(name) {
            case .success(let rules): send(.zone(rules, source))
            case .failure(let error): send(.zoneFailed(name, source, reason: error.description))
            }
        case .measureIndoor:
            if sensorDue == nil { measure() }
        case .setDimmed(let dim):
            setDimmed(dim)
        case .log(let line):
            dependencies.log(moment.now, line)
        }
    }

    /// One atomic commit, handed to the writer: the logic hears the store's new content
    /// (`.store`) or the refusal when it answers (inline: at once; threaded: at a later wake-up).
    func commit(_ change: StoreChange) {
        counters.commits += 1
        store.submit(.commit(change), now: moment.now)
        receiveStore()
    }

    // MARK: Weather

    func delivered(_ delivery: WeatherDelivery) {
        if case .success(.report(let report, _)) = delivery.result.outcome, let response = delivery.result.response {
            pendingResponse = (delivery.token, WeatherCache(response: response, report: report, order: delivery.order))
        }
        send(.weather(token: delivery.token, delivery.result.outcome, receivedAt: delivery.result.receivedAt))
    }

    /// The last good answer to disk (temp file, sync, rename, directory sync), by the writer;
    /// a failure is logged when it answers, and the old copy stays.
    func saveWeatherCache(_ token: UInt64) {
        guard var pending = pendingResponse, pending.token == token else { return }
        pendingResponse = nil
        // The stamp the logic holds: the arrival under the time base it trusts now, not the
        // worker's reading of the clock.
        if let stamp = state.weather.state.value?.fetchedAt { pending.cache.fetchedAt = stamp }
        store.submit(.saveCache(pending.cache), now: moment.now)
        receiveStore()
    }

    /// The cache written by the last run, decoded by the same decoder as a fetch.
    func restoreWeatherCache() {
        switch WeatherCache.load(from: stateDirectory, files: &files) {
        case .success(let cache):
            switch decodeCache(cache) {
            case .success(let report):
                send(.weatherRestored(report, CacheValidators(lastModified: cache.lastModified)))
            case .failure(let error):
                dependencies.log(moment.now, .problem("weather cache not used: \(error)"))
            }
        case .failure(let error):
            if case .missing = error { return }
            dependencies.log(moment.now, .problem("weather cache not used: \(error)"))
        }
    }

    /// The barograph the last run saved (after a reload, the old device's trace); a damaged or foreign file is one line in the log and
    /// the trace starts again.
    func restoreBarograph() {
        if let trace = resumeFrom?.barograph, trace.count > 0 { return send(.barographRestored(trace)) }
        switch BarographFile.load(from: stateDirectory, files: &files) {
        case .success(let history):
            send(.barographRestored(history))
        case .failure(.missing):
            break
        case .failure(let error):
            dependencies.log(moment.now, .problem("barograph: \(error)"))
        }
    }

    // MARK: Sensor

    /// One step of the sensor's cycle (identify and calibrate once, trigger, read when the
    /// conversion is done); the sensor never sleeps the loop.
    func measure() {
        guard sensor != nil else { return }
        do throws(BME280Error) {
            switch try sensor!.measure(now: moment.now) {
            case .busy(let until):
                sensorDue = until
            case .done(let measurement):
                sensorDue = nil
                send(.indoor(Self.reading(measurement)))
            }
        } catch {
            sensorDue = nil
            if case .bus(let failure, _) = error, failure.kind == .adapterGone, sharesAdapter { adapterGoneUnderDisplay() }
            let problem = Self.shortSensorProblem(error, bus: state.options.sensorBus)
            if state.indoor != .failed(problem) {
                dependencies.log(moment.now, .problem("sensor: \(error.description(bus: state.options.sensorBus))"))
            }
            send(.indoor(.failed(problem)))
        }
    }

    static func reading(_ m: BME280Measurement) -> IndoorReading {
        .reading(temperature: m.temperatureCelsius, humidity: m.humidityPercent, pressure: m.pressureHectopascals)
    }

    /// The few words of the status screen; the log has the whole line.
    static func shortSensorProblem(_ error: BME280Error, bus: String?) -> String {
        switch error {
        case .bus(let failure, _) where failure.kind == .adapterGone: adapterProblem(bus: bus)
        case .noDevice: "no answer"
        case .wrongChip: "wrong chip"
        case .invalidCalibration: "bad calibration"
        case .stuck: "stuck"
        case .notMeasured: "no reading"
        case .bus: "bus error"
        }
    }
}

import HAL

/// What a call to a `BME280` achieved.
public enum BME280Progress<Value: Sendable & Equatable>: Sendable, Equatable {
    case done(Value)
    /// The part is resetting or converting; call again at or after this instant. Nothing
    /// sleeps: the event loop arms a timer (the CLI, which has no loop, sleeps until then).
    case busy(until: Instant)
}

/// One indoor measurement: the data-sheet integers and the values to show, with the user's
/// temperature offset applied (see `TemperatureOffset`).
public struct BME280Measurement: Sendable, Equatable {
    public var chip: BME280Chip
    public var raw: BME280RawSample
    /// The sensor's own result, before the offset.
    public var reading: BME280Reading
    /// °C, offset applied.
    public var temperatureCelsius: Double
    /// %RH recomputed for the corrected temperature; nil on a BMP280.
    public var humidityPercent: Double?
    public var pressurePascals: Double

    public var pressureHectopascals: Double { pressurePascals / 100 }
}

/// A Bosch BME280 (or BMP280) on an I²C bus, in forced mode, never sleeping.
///
/// The sequence (data sheet BST-BME280-DS002 rev. 1.6):
/// 1. `start`: read the chip id (§5.4.1; 0x60, or 0x56–0x58 for a BMP280 without humidity),
///    soft reset (0xB6 → 0xE0, §5.4.2), `.busy` for the 2 ms start-up time (§1.1 Table 1),
///    poll status.im_update (§5.4.4) until the NVM copy is done, then read the trimming words
///    twice (0x88, 26 bytes; 0xE1, 7 bytes; §4.2.2) and compare.
/// 2. `startMeasurement`: one write of register/data pairs (§6.2.1): `config` (filter off; the
///    part is asleep, where `config` writes are honoured, §5.4.6), `ctrl_hum` (×1), then
///    `ctrl_meas` forced ×1 ×1 (§3.3.3, §5.4.5), which also latches `ctrl_hum` (§5.4.3).
///    Everything is written every time, so a part that browned out and reset meanwhile is
///    configured again. It returns the §9.1 maximum measurement time (9.3 ms at ×1 ×1 ×1).
/// 3. `readMeasurement`: one read of 0xF3–0xFE, status and the data registers together: if
///    status.measuring is set the data are the previous result (shadowing, §4) and the call
///    says `.busy`; otherwise the raw values are checked for 0x80000/0x8000 and compensated
///    (§4.2.3).
/// `measure` runs all three as one state machine, one step per call.
///
/// Any error forgets the state: the next call starts again at the chip id. Nothing is
/// allocated after `init`; the buffers are tuples on the stack.
public struct BME280<Bus: I2CBus> {
    enum Phase: Sendable, Equatable {
        case unknown
        /// Reset sent; ask status at `pollAt`, give up at `giveUpAt`.
        case resetting(chip: BME280Chip, pollAt: Instant, giveUpAt: Instant)
        case idle
        case measuring(readyAt: Instant, giveUpAt: Instant)
    }

    public var bus: Bus
    public let address: BME280Address
    public var settings: BME280Settings
    /// Added to every temperature, in °C (e.g. −2.5 for a sensor the Pi warms); the relative
    /// humidity is recomputed for the corrected temperature.
    public var temperatureOffset: Double
    public internal(set) var chip: BME280Chip?
    public internal(set) var calibration: BME280Calibration?
    var phase = Phase.unknown

    /// §1.1 Table 1: start-up time after a power-on or soft reset, 2 ms.
    public static var startupTime: Duration { .milliseconds(2) }
    /// Interval between status polls when the part is still busy.
    public static var pollInterval: Duration { .milliseconds(1) }
    /// How long past the expected time a busy status is believed before `.stuck`.
    public static var patience: Duration { .milliseconds(50) }

    public init(
        bus: Bus, address: BME280Address = .primary, settings: BME280Settings = .weatherMonitoring,
        temperatureOffset: Double = 0
    ) {
        self.bus = bus
        self.address = address
        self.settings = settings
        self.temperatureOffset = temperatureOffset
    }

    /// Whether the part has been identified, reset and its calibration read.
    public var isStarted: Bool {
        switch phase {
        case .idle, .measuring: true
        case .unknown, .resetting: false
        }
    }

    /// Identifies, resets and calibrates the part (step 1 above); `.done` with the chip.
    public mutating func start(now: Instant) throws(BME280Error) -> BME280Progress<BME280Chip> {
        do throws(BME280Error) {
            return try startStep(now: now)
        } catch {
            forget()
            throw error
        }
    }

    /// Starts one forced measurement (step 2); returns when it is complete at the latest.
    /// The part must be started.
    public mutating func startMeasurement(now: Instant) throws(BME280Error) -> Instant {
        precondition(isStarted, "BME280.startMeasurement before start finished")
        let humidity = chip?.hasHumidity ?? false
        // [F5 config] [F2 ctrl_hum] [F4 ctrl_meas], ctrl_meas last; a BMP280 has no ctrl_hum.
        var pairs: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            humidity
            ? (BME280Register.config, settings.config, BME280Register.controlHumidity, settings.controlHumidity,
                BME280Register.controlMeasurement, settings.forcedControlMeasurement)
            : (BME280Register.config, settings.config, BME280Register.controlMeasurement,
                settings.forcedControlMeasurement, 0, 0)
        let count = humidity ? 6 : 4
        let address = address.rawValue
        do throws(BME280Error) {
            try withUnsafeBytes(of: &pairs) { (raw) throws(BME280Error) in
                let payload = UnsafeRawBufferPointer(rebasing: raw[0..<count])
                try checked { (bus) throws(I2CError) in try bus.write(address: address, payload) }
            }
        } catch {
            forget()
            throw error
        }
        let readyAt = now + settings.maximumMeasurementTime(humidity: humidity)
        phase = .measuring(readyAt: readyAt, giveUpAt: readyAt + Self.patience)
        return readyAt
    }

    /// Reads the measurement started by `startMeasurement` (step 3): `.busy` until it is
    /// complete, then `.done`, after which the part is idle again.
    public mutating func readMeasurement(now: Instant) throws(BME280Error) -> BME280Progress<BME280Measurement> {
        guard case .measuring(let readyAt, let giveUpAt) = phase else {
            preconditionFailure("BME280.readMeasurement without startMeasurement")
        }
        if now < readyAt { return .busy(until: readyAt) }
        do throws(BME280Error) {
            return try readStep(now: now, giveUpAt: giveUpAt)
        } catch {
            forget()
            throw error
        }
    }

    /// The whole cycle, one step per call: start when needed, trigger, read. The event loop
    /// calls it once a minute and again at each `.busy(until:)`.
    public mutating func measure(now: Instant) throws(BME280Error) -> BME280Progress<BME280Measurement> {
        switch phase {
        case .unknown, .resetting:
            if case .busy(let until) = try start(now: now) { return .busy(until: until) }
            return .busy(until: try startMeasurement(now: now))
        case .idle:
            return .busy(until: try startMeasurement(now: now))
        case .measuring:
            return try readMeasurement(now: now)
        }
    }

    /// Forgets the part: the next call identifies and resets it again.
    public mutating func forget() {
        phase = .unknown
        chip = nil
        calibration = nil
    }
}

import Core
import Drivers
import GPS
import Graphics
import HAL
import Screens
import Store
import SystemPackage
import Weather

/// The device: one `AppState`, the hardware it reads and drives, and the rules for turning the
/// one into the other (docs/design/architecture.md, "The loop").
///
/// The loop (virtual, or poll(2) on Linux) calls `service()` whenever something may have
/// happened (a descriptor is readable, `nextDeadline` passed) and nothing else. Each call reads
/// what the GPS, the buttons and the network edge have, turns it into `Event`s, runs Core's
/// reducer, carries out the `Effect`s, and draws a frame if the state says the screen changed.
/// Nothing here sleeps or reads a clock other than the injected one. Every buffer is allocated
/// in `init`: a wake-up with nothing new, an NMEA sentence, a minute tick and a button press
/// through the commit, the render and the flush allocate nothing (`AppTests`, `Benchmarks/`).
///
/// Generic over every part of the HAL, as the drivers are over the bus, so the same runtime
/// runs the simulated twins and the Linux backends.
public final class Device<Bus: I2CBus, Inputs: DigitalInputs, Serial: SerialDevices, Clock: DeviceClock, Files: FileSystem> {
    public let clock: Clock
    public internal(set) var state: AppState
    public let location: LocationService<Serial, Clock>
    public internal(set) var inputs: Inputs
    public internal(set) var gestures: ButtonGestures
    /// The store and the weather cache, written off the loop (or inline in simulation).
    public let store: StoreWriter<Files, Clock>
    /// Where the weather cache lives (the store's directory).
    public let stateDirectory: FilePath
    var files: Files
    /// The display's driver: exactly one of the two. Kept as optionals, not inside an enum,
    /// so that a flush mutates the driver in place: a driver copied out of an enum shares its
    /// buffers with the copy left behind, and the first write would copy them (an allocation
    /// per frame).
    public internal(set) var oled: OLEDDisplay<Bus>?
    public internal(set) var lcd: HD44780Display<Bus>?
    public internal(set) var sensor: BME280<Bus>?
    public let link: any WeatherLink
    /// Reads the disk cache with the provider's own decoder.
    let decodeCache: (WeatherCache) -> Result<WeatherReport, WeatherError>
    let dependencies: DeviceDependencies
    public internal(set) var counters = DeviceCounters()

    // Buffers, allocated once.
    var effects: [Effect] = []
    var followUps: [Event] = []
    let edges: UnsafeMutableBufferPointer<Edge>
    /// The frame on its way to the OLED, and the one the screens draw into before the orbit
    /// moves it (narrower by the orbit's reach, so the move never cuts anything off).
    var frame: Framebuffer
    var canvas: Framebuffer
    /// The canvas of the screens that move less sideways (hours, days, status).
    var wideCanvas: Framebuffer
    var characters: CharacterFrame

    // Bookkeeping between wake-ups.
    public internal(set) var moment: Moment
    var lastGPS = GPSReport.starting
    /// The GPS losses the last loss line covered, when it was written, and when the next may be.
    var reportedLosses = GPSLosses()
    var lossesReportedAt: Instant
    var nextLossLine = Instant.zero
    var sensorDue: Instant?
    /// When the next fix's height may go to the barograph.
    var nextAltitude = Instant.zero
    var displayRetryAt: Instant?
    var displayFailures = 0
    var lcdBusyUntil: Instant?
    var pendingResponse: (token: UInt64, cache: WeatherCache)?
    var started = false
    /// What the board before a reload showed, resumed right after `.start`.
    var resumeFrom: Resumption?
    /// The display's driver came from the device a reload replaced: the panel is running and
    /// shows that device's last frame, so `start()` does not initialise it again.
    var displayInherited = false
    /// The monotonic instant of the GPS time the last moment was read with: a newer one (the
    /// first vouched epoch) is read again in the same wake-up, so the clock appears at once.
    var vouchedAt: Instant?
    /// The system clock as the last wake-up read it, to see it step.
    var systemBase: TimeBase?
    /// When to read the kernel's synchronisation flag again after a step (capacity reserved).
    var syncChecks: [Instant] = []
    var sending = false

    public init<Service: WeatherService>(
        options: DeviceOptions, clock: Clock, location: LocationService<Serial, Clock>, inputs: Inputs,
        timing: [ButtonTiming], activeLow: [Bool], store: StoreWriter<Files, Clock>, stateDirectory: FilePath, files: Files,
        display: DisplayUnit<Bus>, sensor: BME280<Bus>?, link: any WeatherLink, service: Service,
        dependencies: DeviceDependencies, seed: UInt64
    ) {
        self.clock = clock
        self.location = location
        self.inputs = inputs
        gestures = ButtonGestures(activeLow: activeLow, timing: timing)
        self.store = store
        self.stateDirectory = stateDirectory
        self.files = files
        switch display {
        case .oled(let driver): oled = driver
        case .lcd(let driver): lcd = driver
        }
        self.sensor = sensor
        self.link = link
        decodeCache = { $0.report(using: service) }
        self.dependencies = dependencies
        state = AppState(options: options, store: store.state, storeHealth: store.health, seed: seed)
        effects.reserveCapacity(32)
        syncChecks.reserveCapacity(4)
        followUps.reserveCapacity(32)
        edges = .allocate(capacity: 64)
        switch display {
        case .oled(let driver):
            let profile = driver.profile
            frame = Framebuffer(width: profile.width, height: profile.height)
            let narrow = Orbit.canvas(for: .now, width: profile.width, height: profile.height)
            let wide = Orbit.canvas(for: .hours, width: profile.width, height: profile.height)
            canvas = options.orbit ? Framebuffer(width: narrow.width, height: narrow.height) : frame
            wideCanvas = options.orbit ? Framebuffer(width: wide.width, height: wide.height) : frame
            characters = CharacterFrame(columns: 1, rows: 1)
        case .lcd(let driver):
            frame = Framebuffer(width: 1, height: 1)
            canvas = frame
            wideCanvas = frame
            characters = CharacterFrame(columns: driver.geometry.columns, rows: driver.geometry.rows)
        }
        moment = Moment(now: clock.now(), wall: clock.wallTime(), source: .none)
        lossesReportedAt = moment.now
    }

    /// The device with a store whose writes run inline, inside the loop's turn (simulation
    /// and tests: everything on the virtual clock).
    public convenience init<Service: WeatherService>(
        options: DeviceOptions, clock: Clock, location: LocationService<Serial, Clock>, inputs: Inputs,
        timing: [ButtonTiming], activeLow: [Bool], store: DeviceStore<Files, Clock>, stateDirectory: FilePath, files: Files,
        display: DisplayUnit<Bus>, sensor: BME280<Bus>?, link: any WeatherLink, service: Service,
        dependencies: DeviceDependencies, seed: UInt64
    ) {
        self.init(
            options: options, clock: clock, location: location, inputs: inputs, timing: timing, activeLow: activeLow,
            store: StoreWriter(inline: store, directory: stateDirectory, files: files), stateDirectory: stateDirectory,
            files: files, display: display, sensor: sensor, link: link, service: service, dependencies: dependencies,
            seed: seed)
    }

    deinit { edges.deallocate() }

    /// Restores the weather cache, starts the display and draws the first frame.
    public func start() {
        guard !started else { return }
        started = true
        readMoment()
        if oled != nil, !displayInherited {
            do {
                let report = try oled!.start()
                account(report)
            } catch {
                displayFailed(error)
            }
        }
        restoreWeatherCache()
        restoreBarograph()
        send(.start)
        sendResumption()
        service()
    }

    /// When `service()` must run again even if no descriptor becomes readable: the earliest of
    /// the logic's deadlines, the GPS service's, a button's debounce or long-press threshold,
    /// the store's retry, the sensor's conversion, the display's retry or busy LCD, and (in
    /// simulation) the next network answer. Nil: only input can change anything.
    public var nextDeadline: Instant? {
        var next = Instant.earliest(state.nextDeadline, location.nextDeadline)
        next = Instant.earliest(next, gestures.nextDeadline)
        next = Instant.earliest(next, store.nextRetry)
        if !state.saving.slow, let since = store.waitingSince { next = Instant.earliest(next, since + Self.slowCard) }
        next = Instant.earliest(next, sensorDue)
        next = Instant.earliest(next, syncChecks.first)
        next = Instant.earliest(next, link.nextDelivery)
        if state.frameDirty {
            next = Instant.earliest(next, displayRetryAt)
            next = Instant.earliest(next, lcdBusyUntil)
        }
        return next
    }

    /// The time for this wake-up, from the one authority (`TimeAuthority`): the kernel's clock
    /// when it is synchronised, else GPS time the `ClockGate` vouched for carried on the
    /// monotonic clock, else the system clock, unsure.
    func readMoment() {
        let now = clock.now()
        // GPS time as the decoder repaired it (a week-number rollover moved on, `GPSTimeRules`).
        let gps = location.clockTime.map { vouched in
            let ms = vouched.time.millisecondsSinceEpoch
            return (time: WallTime(seconds: ms / 1000, nanoseconds: Int32(ms % 1000) * 1_000_000), at: vouched.at)
        }
        vouchedAt = location.clockTime?.at
        let system = clock.wallTime()
        noteSystemClockStep(TimeBase(anchor: now, wall: system, trusted: false))
        moment = TimeAuthority.moment(now: now, system: system, synchronised: dependencies.systemClockSynchronised(), gps: gps)
    }

    /// The system clock stepped (the loop was woken for it): NTP daemons step the clock, then
    /// tell the kernel it is synchronised (`adjtimex` clearing STA_UNSYNC), which wakes
    /// nothing; so the flag is read again 250 ms, 1 s and 5 s after any step.
    func noteSystemClockStep(_ system: TimeBase) {
        defer { systemBase = system }
        while let next = syncChecks.first, next <= system.anchor { syncChecks.removeFirst() }
        guard let systemBase, system.offset(from: systemBase).magnitudeExceeds(TimeAuthority.stepTolerance) else { return }
        syncChecks.removeAll(keepingCapacity: true)
        for delay in Self.syncCheckDelays { syncChecks.append(system.anchor + delay) }
    }

    static var syncCheckDelays: [Duration] { [.milliseconds(250), .seconds(1), .seconds(5)] }

    /// Runs the reducer on `event` and carries out what it asks, then whatever those effects
    /// report back, in order. Called again while an effect is being carried out (the store
    /// answering a commit, the display failing while dimming), it queues the event behind the
    /// one being handled instead of handling it inside it.
    func send(_ event: Event) {
        followUps.append(event)
        guard !sending else { return }
        sending = true
        var index = 0
        while index < followUps.count {
            let next = followUps[index]
            index += 1
            effects.removeAll(keepingCapacity: true)
            state.reduce(next, at: moment, into: &effects)
            // By index: an unoptimised `for … in` over an array allocates per element.
            for effectIndex in 0..<effects.count { perform(effects[effectIndex]) }
        }
        followUps.removeAll(keepingCapacity: true)
        sending = false
    }
}

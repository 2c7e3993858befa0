import Board
import Core
import Drivers
import GPS
import HAL
import HALLinux
import HALSim
import Store
import SystemPackage
import Weather

/// The machine's own file system, for tzdata and `--state-dir`.
public typealias HostFiles = LinuxFileSystem<LiveSystemCalls>

/// The device on the simulated board: every part of a board file replaced by its twin on one
/// `VirtualClock` — the panel's controller model on a simulated I²C bus, the BME280 model, a
/// GPS receiver on a simulated serial port, push buttons that bounce, the crashable medium, the
/// weather service's twin — and the same `Device` that runs on a Pi.
///
/// `advance(to:)` is the virtual loop: it wakes the device at every instant a real loop would
/// wake (a deadline, a GPS epoch arriving, a contact moving, a network answer) and nowhere
/// else, so a day runs as fast as the CPU allows and the wake-up count is the real one.
public final class SimulatedBoard {
    public typealias SimDevice = Device<SimulatedI2CBus, SimulatedButtons, SimulatedSerialDevices, VirtualClock, CrashableFileSystem>

    public enum Panel {
        case oled(OLEDControllerModel)
        case lcd(HD44780Backpack)
    }

    public let setup: SimulationSetup
    public let clock: VirtualClock
    public let bus: SimulatedI2CBus
    public let panel: Panel
    public let displayAddress: UInt8
    public let sensorModel: BME280Model?
    public let buttons: SimulatedButtons
    public let serial: SimulatedSerialDevices
    /// The receiver at the board's GPS path; nil with `--gps none`.
    public let receiver: SimulatedSerialDevices.Receiver?
    public var drive: GPSDrive?
    public let network: SimulatedWeatherLink<OpenMeteoService, SimulatedOpenMeteo, VirtualClock>?
    public let device: SimDevice
    /// What the device logged, with the virtual seconds since start.
    public private(set) var timeline: [(seconds: Double, text: String)] = []
    /// Whether `timeline` keeps the lines (tests read it). A long headless run turns it off and
    /// spools them (`TimelineSpool`), so the soak measures the device, not its log.
    public var keepsTimeline = true
    /// Called with each timeline entry as it is recorded (`simulate --verbose` prints them).
    public var onLog: ((_ seconds: Double, _ text: String) -> Void)?
    /// Stop virtual time while a fetch is out on a real network (headless runs); the
    /// interactive loop lets it run on and is woken when the answer comes.
    public var waitsForRealFetches = true
    /// Wake the device when a contact moves, as poll(2) does on the line's event descriptor.
    /// Off, edges wait in the kernel's buffer until the next wake-up: a device busy elsewhere.
    public var wakesOnEdges = true
    public let startInstant: Instant
    /// Whether the simulated kernel vouches for the system clock; script clock events set it
    /// (ignored with `SystemClock.host`, where the host's kernel answers).
    public var systemClockSynchronised: Bool
    /// CPU time spent inside the device's `service()` (the simulated parts excluded).
    public internal(set) var deviceCPUNanoseconds: Int64 = 0
    /// Per-pixel lit time of the OLED (nil on an LCD).
    public internal(set) var litMeter: LitMeter?
    /// The BME280 model follows the simulated weather (`SimulationSetup.sensorFollowsWeather`).
    var pressureTwin: PressureTwin?

    public init(_ setup: SimulationSetup) {
        self.setup = setup
        let board = setup.board
        // The system clock may start off the true time (`systemClockOffset`); the world (the
        // receiver's GPS time, the weather service's clock) keeps the true time.
        let clock = VirtualClock(start: .zero, wallTime: setup.start + setup.systemClockOffset)
        self.clock = clock
        startInstant = clock.now()
        systemClockSynchronised = setup.systemClock == .synchronised
        let bus = SimulatedI2CBus(clock: clock)
        self.bus = bus
        bus.isLogging = false

        // Display and sensor: their models on the bus, the drivers that talk to them.
        displayAddress = board.display.address.value
        panel = Self.attachPanel(board.display, to: bus, clock: clock)
        let display = DisplayUnit(board.display, bus: bus)
        sensorModel = board.sensor.map { Self.attachSensor($0, to: bus, clock: clock) }
        let sensor = board.sensor.map { BME280($0, bus: bus) }

        // Buttons and GPS
        buttons = SimulatedButtons(
            clock: clock, lines: board.buttons.map { $0.activeLow ? .activeLow : .activeHigh },
            eventBuffer: setup.buttonBuffer ?? .uAPIv2(lines: board.buttons.count), seed: setup.seed)
        buttons.names = board.buttons.map(\.name)
        serial = SimulatedSerialDevices(clock: clock)
        let baud: BaudRate = if case .fixed(let rate) = board.gps.baud { rate } else { .b9600 }
        // Whatever the board file names, the receiver here is the twin, and the status and the
        // log say so rather than naming a tty nothing opened.
        let gpsPath = FilePath(GPSConfig.simulatedReceiver)
        switch setup.gps {
        case .none:
            receiver = nil
        case .route:
            receiver = serial.attach(gpsPath, baudRate: baud)
            drive = GPSDrive.builtIn(
                latitude: board.defaultLocation.latitude, longitude: board.defaultLocation.longitude,
                startTime: setup.start, start: clock.now())
        case .capture(let bytes):
            receiver = serial.attach(gpsPath, baudRate: baud)
            drive = GPSDrive(source: .capture(NMEACaptureScript.epochs(bytes)), start: clock.now())
        }
        let location = LocationService(
            devices: serial, clock: clock, configuration: .init(path: gpsPath, baudRate: baud))

        // Store
        // As the daemon opens it: a store that cannot be opened at start is opened again later.
        let store: DeviceStore<CrashableFileSystem, VirtualClock>
        var reopen: StoreOpening<CrashableFileSystem, VirtualClock>.Reopen?
        let opening = StoreOpening(
            files: setup.disk, clock: clock,
            configuration: FileStoreConfiguration(directory: setup.stateDirectory, readOnly: setup.readOnlyStore))
        switch opening.start() {
        case .opened(let opened): store = .file(opened)
        case .inMemory(let memory, let reason, let again):
            store = .memory(memory, reason: reason)
            reopen = again
        case .locked(let error): store = .memory(InMemoryStore(), reason: error.description)
        }

        // Weather
        let service = OpenMeteoService(identity: ClientIdentity(contact: nil))
        let link: any WeatherLink
        switch setup.weather {
        case .sample, .offline, .rateLimited:
            nonisolated(unsafe) let sameThreadClock = clock
            let (trueStart, origin) = (setup.start, clock.now())
            let simulated = Self.weatherTwin(
                service: service, clock: clock, zone: setup.serviceZone, loadZone: setup.loadZone, seed: setup.seed,
                storm: setup.storm, trueTime: { trueStart + (sameThreadClock.now() - origin) })
            if case .offline = setup.weather { simulated.transport.isReachable = false }
            if case .rateLimited = setup.weather { simulated.transport.isRateLimited = true }
            network = simulated
            link = simulated
        case .live(let real):
            network = nil
            link = real
        }

        var options = DeviceOptions(board: board)
        if let orbit = setup.orbit { options.orbit = orbit && board.display.kind.isOLED }
        if let rotate = setup.rotateEvery { options.rotateEvery = rotate }
        var log: (Instant, LogLine) -> Void = { _, _ in }
        var synchronised: () -> Bool = { false }
        if setup.systemClock == .host {
            let kernel = KernelClock()
            synchronised = { kernel.isSynchronised() }
        }
        device = Device(
            options: options, clock: clock, location: location, inputs: buttons,
            timing: board.buttons.map { ButtonTiming(debounce: $0.debounce, longPress: $0.longPressDuration) },
            activeLow: board.buttons.map(\.activeLow),
            store: setup.writesOffTheLoop
                ? StoreWriter.threaded(store, directory: setup.stateDirectory, files: setup.disk, reopen: reopen, wake: {})
                : StoreWriter(inline: store, directory: setup.stateDirectory, files: setup.disk, reopen: reopen),
            stateDirectory: setup.stateDirectory,
            files: setup.disk, display: display, sensor: sensor, link: link, service: service,
            dependencies: DeviceDependencies(
                systemClockSynchronised: { synchronised() }, loadZone: setup.loadZone,
                log: { log($0, $1) }),
            seed: setup.seed)
        log = { [unowned self] instant, line in self.record(instant, line) }
        if setup.sensorFollowsWeather, sensorModel != nil {
            pressureTwin = PressureTwin(
                latitude: board.defaultLocation.latitude, longitude: board.defaultLocation.longitude, seed: setup.seed,
                storm: setup.storm)
        }
        if setup.systemClock != .host { synchronised = { [unowned self] in self.systemClockSynchronised } }
    }

    /// Starts the device (the first frame goes on the glass).
    public func start() {
        if case .oled(let model) = panel {
            litMeter = LitMeter(width: model.configuration.width, height: model.configuration.height, start: clock.now())
        }
        followWeather()
        measured { device.start() }
    }

    private func record(_ instant: Instant, _ line: LogLine) {
        let text = line.words
        let seconds = Double((instant - startInstant).nanoseconds) / 1e9
        if keepsTimeline { timeline.append((seconds, text)) }
        onLog?(seconds, text)
    }

    /// Adds a line of the simulation's own (a scripted fault, a key) to the timeline.
    public func note(_ text: String) {
        record(clock.now(), .text(text))
    }
}

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
import WeatherHTTP

/// One board file made real: every part on the Linux HAL or, where the board file says
/// `"simulated": true`, on its twin, and the `Device` that runs them. The daemon builds one at
/// start and another when SIGHUP brings a changed board file; the store outlives both.
///
/// The twins run on a `VirtualClock` that follows the real monotonic clock (advanced to it
/// before every wake-up), so a simulated GPS sends an epoch each real second, a simulated
/// button's edges carry real timestamps, and a simulated answer arrives 350 ms after the real
/// request, all on the same `Instant`s as the device's own `LinuxClock`.
public final class DaemonBoard {
    public typealias Runtime = Device<BoardBus, BoardButtons, BoardSerial, LinuxClock<LiveSystemCalls>, HostFiles>

    /// The simulated parts and the clock they share.
    struct Twins {
        let clock: VirtualClock
        let bus: SimulatedI2CBus
        var panel: SimulatedBoard.Panel?
        var buttons: SimulatedButtons?
        var receiver: SimulatedSerialDevices.Receiver?
        var drive: GPSDrive?
    }

    public let config: BoardConfig
    public let device: Runtime
    public let buttons: BoardButtons
    var twins: Twins
    /// The worker thread of a real network; nil when the weather is simulated.
    let worker: ThreadedWeatherLink?
    let realClock: LinuxClock<LiveSystemCalls>
    /// The kernel's I²C adapters by path, open or reopening (a reload's next board shares them).
    let adapters: [String: BoardBus]
    /// What this board took over from the one it replaced.
    public private(set) var kept = Runtime.KeptParts.none

    /// What the daemon gives every generation.
    public struct Context {
        public var store: StoreWriter<HostFiles, LinuxClock<LiveSystemCalls>>
        public var stateDirectory: FilePath
        public var clock: LinuxClock<LiveSystemCalls>
        /// Wakes the loop (its eventfd) when a real fetch is done.
        public var wake: @Sendable () -> Void
        public var dependencies: DeviceDependencies
        /// One line about a part (opening, failing, recovering), for the log.
        public var report: (String) -> Void
        public var seed: UInt64 = 1

        public init(
            store: StoreWriter<HostFiles, LinuxClock<LiveSystemCalls>>, stateDirectory: FilePath,
            clock: LinuxClock<LiveSystemCalls>, wake: @escaping @Sendable () -> Void, dependencies: DeviceDependencies,
            report: @escaping (String) -> Void
        ) {
            self.store = store
            self.stateDirectory = stateDirectory
            self.clock = clock
            self.wake = wake
            self.dependencies = dependencies
            self.report = report
        }
    }

    /// `previous`: the board a reload replaces (its device already closed). Every real part
    /// whose configuration did not change moves into this board with its state: the GPS
    /// service (the fix, the vouched GPS time, the open tty), the display's driver (no new
    /// initialisation, no blank flash), the sensor's driver, the GPIO request (the edge
    /// numbers, a press in progress, a quietened noisy line) and the weather worker; the open I²C
    /// adapters are shared by path. The previous board's other parts are released. Simulated
    /// parts are built again (their twins run on the previous board's clock). The new device
    /// resumes the place and screen.
    public init(_ board: BoardConfig, context: Context, replacing previous: DaemonBoard? = nil) {
        config = board
        realClock = context.clock
        let now = context.clock.now()
        let clock = VirtualClock(start: now, wallTime: context.clock.wallTime())
        var twins = Twins(clock: clock, bus: SimulatedI2CBus(clock: clock))
        twins.bus.isLogging = false
        let twinBus = twins.bus
        let report = context.report

        let kept = previous.map { Self.keptParts($0.config, board) } ?? .none
        // The lines of changed buttons are given up before the new request asks for them.
        if let previous, !kept.buttons { previous.buttons.close() }

        // Display and sensor: the kernel's adapters, one per bus path (the previous board's
        // still open), or the twins' bus.
        var adapters: [String: BoardBus] = [:]
        let simulatedBus = BoardBus(simulated: twinBus)
        func bus(_ path: I2CBusPath, simulated: Bool) -> BoardBus {
            if simulated { return simulatedBus }
            if let open = adapters[path.description] { return open }
            let opened = previous?.adapters[path.description] ?? BoardBus(kernelAdapter: FilePath(path.description), report: report)
            adapters[path.description] = opened
            return opened
        }
        if board.display.simulated { twins.panel = SimulatedBoard.attachPanel(board.display, to: twins.bus, clock: clock) }
        // A kept driver holds the previous board's adapter for its path; `bus` returns that one.
        let displayBus = bus(board.display.bus, simulated: board.display.simulated)
        let display = (kept.display ? previous?.device.surrenderDisplay() : nil) ?? DisplayUnit(board.display, bus: displayBus)
        let sensor = board.sensor.map { config in
            let sensorBus = bus(config.bus, simulated: config.simulated)
            if kept.sensor, let driver = previous?.device.surrenderSensor() { return driver }
            if config.simulated { _ = SimulatedBoard.attachSensor(config, to: twinBus, clock: clock) }
            return BME280(config, bus: sensorBus)
        }
        self.adapters = adapters

        // Buttons: the twins of the simulated ones (idle: nothing presses them), the rest
        // through the kernel's GPIO character device.
        let simulatedButtons = board.buttons.filter(\.simulated)
        if !simulatedButtons.isEmpty {
            twins.buttons = SimulatedButtons(
                clock: clock, lines: simulatedButtons.map { $0.activeLow ? .activeLow : .activeHigh },
                eventBuffer: .uAPIv2(lines: simulatedButtons.count), seed: context.seed)
        }
        let buttons =
            kept.buttons ? previous!.buttons : BoardButtons(board.buttons, simulated: twins.buttons, now: now, report: report)
        self.buttons = buttons
        let timing = board.buttons.indices.map { index in
            ButtonTiming(
                debounce: buttons.kernelDebounced[index] ? .zero : board.buttons[index].debounce,
                longPress: board.buttons[index].longPressDuration)
        }

        // GPS: the tty, or a receiver driving out of the default location.
        let baud: BaudRate = if case .fixed(let rate) = board.gps.baud { rate } else { .b9600 }
        let serial: BoardSerial
        if board.gps.simulated {
            let devices = SimulatedSerialDevices(clock: clock)
            twins.receiver = devices.attach(FilePath(board.gps.receiver), baudRate: baud)
            twins.drive = GPSDrive.builtIn(
                latitude: board.defaultLocation.latitude, longitude: board.defaultLocation.longitude,
                startTime: clock.wallTime(), start: now)
            serial = .simulated(devices)
        } else {
            serial = .kernel(LinuxSerialDevices())
        }
        let location =
            if let previous, previous.config.gps == board.gps, !board.gps.simulated {
                previous.device.location
            } else {
                LocationService(
                    devices: serial, clock: context.clock, configuration: .init(path: FilePath(board.gps.receiver), baudRate: baud))
            }

        self.twins = twins

        // Weather: the twin, or the provider over the daemon's own HTTP client on a worker.
        let parts = Parts(
            context: context, options: DeviceOptions(board: board), location: location, timing: timing, board: board,
            display: display, sensor: sensor, buttons: buttons)
        let weather = board.weather
        let identity = ClientIdentity(contact: weather.contact)
        if weather.simulated {
            let openMeteo = OpenMeteoService(identity: identity)
            let twin = SimulatedBoard.weatherTwin(
                service: openMeteo, clock: clock, zone: board.timeZone ?? "UTC", loadZone: context.dependencies.loadZone,
                seed: context.seed)
            worker = nil
            device = parts.device(openMeteo, link: twin)
        } else {
            // The same service as before a reload: the new device takes the worker over, so
            // the fetch in flight is never doubled by the new device's first order.
            let kept = previous.flatMap { $0.config.weather == weather ? $0.worker : nil }
            kept?.handOver()
            let threaded: ThreadedWeatherLink
            switch weather.provider {
            case .openMeteo:
                var service = OpenMeteoService(identity: identity)
                if let url = weather.baseURL { service.baseURL = url }
                (threaded, device) = parts.networked(service, reusing: kept)
            case .metNorway:
                var service = METNorwayService(identity: identity)
                if let url = weather.baseURL { service.baseURL = url }
                (threaded, device) = parts.networked(service, reusing: kept)
            }
            worker = threaded
        }
        if let previous { device.resume(after: previous.device, keeping: kept) }
        self.kept = kept
    }

    /// Which of the previous board's parts a board built from `next` takes over: the real ones
    /// whose configuration is the same.
    static func keptParts(_ previous: BoardConfig, _ next: BoardConfig) -> Runtime.KeptParts {
        Runtime.KeptParts(
            display: !next.display.simulated && previous.display == next.display,
            sensor: next.sensor.map { !$0.simulated && previous.sensor == $0 } ?? false,
            buttons: !next.buttons.isEmpty && !next.buttons.contains(where: \.simulated) && previous.buttons == next.buttons)
    }

    /// Everything a `Device` is made of but the weather service and its link.
    struct Parts {
        let context: Context
        let options: DeviceOptions
        let location: LocationService<BoardSerial, LinuxClock<LiveSystemCalls>>
        let timing: [ButtonTiming]
        let board: BoardConfig
        let display: DisplayUnit<BoardBus>
        let sensor: BME280<BoardBus>?
        let buttons: BoardButtons

        func device<Service: WeatherService>(_ service: Service, link: any WeatherLink) -> Runtime {
            Device(
                options: options, clock: context.clock, location: location, inputs: buttons, timing: timing,
                activeLow: board.buttons.map(\.activeLow), store: context.store, stateDirectory: context.stateDirectory,
                files: HostFiles(), display: display, sensor: sensor, link: link, service: service,
                dependencies: context.dependencies, seed: context.seed)
        }

        /// The device with `service` fetched on a worker thread that wakes the loop (`reusing`:
        /// the previous board's, for the same service).
        func networked<Service: WeatherService & Sendable>(_ service: Service, reusing: ThreadedWeatherLink?) -> (ThreadedWeatherLink, Runtime) {
            let worker = reusing ?? DaemonBoard.worker(service, wake: context.wake)
            return (worker, device(service, link: worker))
        }
    }

    /// A real fetch on a worker thread through the daemon's transport (CA certificates from
    /// /etc/ssl/certs), waking the loop when done.
    static func worker<Service: WeatherService & Sendable>(_ service: Service, wake: @escaping @Sendable () -> Void) -> ThreadedWeatherLink {
        let transport = WorkerTransport(SocketTransport())
        return ThreadedWeatherLink(
            fetch: { order in
                WeatherFetch.perform(order, service: service, transport: &transport.value, clock: LinuxClock(calls: LiveSystemCalls()))
            },
            wake: wake)
    }

    // MARK: Each turn of the loop

    /// Brings the twins up to `now` (their clock, the receiver's due epochs) and requests GPIO
    /// lines whose retry is due. Called before every `service()`.
    public func follow(_ now: Instant) {
        if now > twins.clock.now() { twins.clock.advance(to: now) }
        twins.clock.setWallTime(realClock.wallTime())
        if let receiver = twins.receiver {
            twins.drive?.transmit(upTo: now, on: receiver.wire, pluggedIn: receiver.isPluggedIn)
        }
        buttons.retryIfDue(now: now)
    }

    /// The next instant a part needs the loop besides the device's deadlines: a simulated
    /// receiver's epoch, a simulated contact moving, a GPIO retry.
    public var nextDeadline: Instant? {
        var next = twins.receiver == nil ? nil : twins.drive?.nextEpoch
        next = Instant.earliest(next, twins.buttons?.nextTransition)
        return Instant.earliest(next, buttons.nextRetry)
    }

    /// Presses or holds a simulated button, as `simulate`'s keys do (a key for button `i` of
    /// the board file). False when that button is not simulated.
    @discardableResult
    public func press(_ key: SimulatorKey) -> Bool {
        let button: Int
        let hold: Duration
        switch key {
        case .press(let index): (button, hold) = (index, .milliseconds(120))
        case .hold(let index): (button, hold) = (index, .milliseconds(1200))
        case .quit: return false
        }
        guard let twin = twins.buttons, button < config.buttons.count, config.buttons[button].simulated else { return false }
        let line = config.buttons[..<button].filter(\.simulated).count
        twin.press(line, holdFor: hold, bounce: .typical)
        return true
    }

    /// Whether any button is simulated (and so can be pressed from the keyboard).
    public var hasSimulatedButtons: Bool { twins.buttons != nil }

    /// The simulated panel's glass, if the display is simulated.
    public var glass: PanelImage? {
        switch twins.panel {
        case .oled(let model)?: model.snapshot()
        case .lcd(let model)?: model.snapshot()
        case nil: nil
        }
    }

    /// Lets the network worker end after its fetch in flight, unless `next` took it over.
    public func releaseWorker(keptBy next: DaemonBoard) {
        if worker !== next.worker { worker?.stop() }
    }

    /// Leaves the panel as the board says, releases the GPIO lines and lets the network
    /// worker end after its fetch in flight (it is not waited for).
    public func stop() {
        device.stopDisplay(config.display.onStop) { until in
            while self.realClock.now() < until {}
            self.follow(until)
        }
        buttons.close()
        worker?.stop()
    }
}

/// The transport, used by the worker thread alone.
final class WorkerTransport: @unchecked Sendable {
    var value: SocketTransport
    init(_ value: SocketTransport) { self.value = value }
}

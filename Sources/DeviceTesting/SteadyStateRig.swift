import App
import Board
import Core
import Glibc
import GPS
import HAL
import HALLinux
import HALSim
import Store
import SystemPackage
import Weather

/// The reference device on parts that allocate nothing of their own: a bus that discards, a
/// parked receiver's NMEA replayed one epoch a second, clean button edges, the file store on
/// the machine's real file system (a fresh temporary directory), and a weather link that
/// answers every order with one canned forecast. What allocates in a measurement of this rig
/// is the runtime: Core, the drivers, the store and the location service.
public final class SteadyStateRig {
    public typealias RigDevice = Device<DiscardingBus, ReplayInputs, ReplayDevices, VirtualClock, HostFiles>

    public let clock: VirtualClock
    public let port: ReplayPort
    public let inputs: ReplayInputs
    public let device: RigDevice
    public let directory: String

    /// `seconds` of NMEA from a receiver parked at the board's default location (a fix from
    /// the first epoch), starting at 2026-06-21T10:00:00Z.
    /// With `weatherUpdates` false the canned forecast is delivered once; later fetches are
    /// ordered and never answered, so a long measurement sees no weather update.
    /// With `rotation` the board's default screen rotation runs too (every screen is drawn).
    public init(
        seconds: Int = 3600, board: BoardConfig = SteadyStateRig.referenceBoard, weatherUpdates: Bool = true,
        rotation: Bool = false
    ) throws {
        let start = WallTime(seconds: 1_782_036_000)
        clock = VirtualClock(start: .zero, wallTime: start)
        var route = NMEARouteScript(
            waypoints: [.init(latitude: board.defaultLocation.latitude, longitude: board.defaultLocation.longitude)],
            speed: 0, startTime: start)
        route.satellites = 9
        port = ReplayPort(epochs: (0..<seconds).map { route.sentences(epoch: $0) }, start: clock.now(), clock: clock)
        inputs = ReplayInputs(lines: board.buttons.count, clock: clock)
        var template = [CChar]("/tmp/thunderstorm-rig-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw FileSystemError(.other, errno: Errno(rawValue: errno)) }
        directory = String(cString: made)
        let files = HostFiles()
        let store = try FileStore(files: files, clock: clock, configuration: FileStoreConfiguration(directory: FilePath(directory)))
        let service = OpenMeteoService(identity: ClientIdentity(contact: nil))
        let zone = (try? SimulationSetup.hostZone("Europe/Berlin").get()) ?? .utc
        nonisolated(unsafe) let sameThreadClock = clock
        var twin = SimulatedOpenMeteo(now: { sameThreadClock.wallTime() }, zone: zone, zoneName: zone.identifier)
        let order = FetchOrder(
            position: board.defaultLocation.coordinate.rounded())
        let canned = WeatherFetch.perform(order, service: service, transport: &twin, clock: clock)
        var options = DeviceOptions(board: board)
        if !rotation { options.rotateEvery = nil }  // the screen a person chose
        device = Device(
            options: options, clock: clock, location: LocationService(
                devices: ReplayDevices(port: port), clock: clock,
                configuration: .init(path: FilePath(board.gps.device), baudRate: .b9600)),
            inputs: inputs, timing: board.buttons.map { ButtonTiming(debounce: $0.debounce, longPress: $0.longPressDuration) },
            activeLow: board.buttons.map(\.activeLow), store: .file(store), stateDirectory: FilePath(directory), files: files,
            display: .oled(.init(bus: DiscardingBus(), profile: board.display.oledProfile ?? .ssd1306_128x64)), sensor: nil,
            link: CannedWeatherLink(result: canned, clock: clock, answersOnce: !weatherUpdates), service: service,
            dependencies: DeviceDependencies(
                systemClockSynchronised: { true }, loadZone: SimulationSetup.hostZone, log: { _, _ in }),
            seed: 1)
        device.start()
    }

    deinit {
        for name in StateDirectory.fileNames { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    public static let referenceBoard: BoardConfig = {
        guard case .success(let config) = BoardFile.check(Array(ReferenceBoard.json.utf8)) else {
            fatalError("the reference board does not validate")
        }
        return config
    }()

    /// Runs the device to `end`, waking it where a real loop would: a deadline, an epoch, an
    /// edge. Returns the number of wake-ups.
    @discardableResult
    public func advance(to end: Instant) -> Int {
        var wakes = 0
        while true {
            let next = Instant.earliest(Instant.earliest(device.nextDeadline, port.nextEpoch), inputs.nextEdge)
            guard let due = next, due <= end else { break }
            clock.advance(to: max(due, clock.now()))
            device.service()
            wakes += 1
        }
        if end > clock.now() { clock.advance(to: end) }
        return wakes
    }

    @discardableResult
    public func advance(by duration: Duration) -> Int { advance(to: clock.now() + duration) }

    /// A clean short press of `button` now.
    public func press(_ button: Int, hold: Duration = .milliseconds(100)) {
        inputs.press(button, at: clock.now(), hold: hold)
    }

    /// A short press of `button`, run up to the instant before the debouncer recognises it;
    /// `wake()` then runs the one wake-up that carries it to the glass (gesture, reduce,
    /// commit, render, flush): press-to-glass on the CPU.
    public func pressUpToRecognition(_ button: Int, hold: Duration = .milliseconds(100)) {
        let start = clock.now()
        inputs.press(button, at: start, hold: hold)
        let debounce = Self.referenceBoard.buttons[button].debounce
        advance(to: start + hold + debounce - .nanoseconds(1))
        clock.advance(by: .nanoseconds(1))
    }

    /// One wake-up now.
    public func wake() { device.service() }
}

/// A weather link that answers every order with the same result, `latency` later on the
/// virtual clock.
final class CannedWeatherLink: WeatherLink {
    let result: WeatherFetch.Result
    let clock: VirtualClock
    let answersOnce: Bool
    var answered = false
    var pending: (due: Instant, token: UInt64, order: FetchOrder)?

    init(result: WeatherFetch.Result, clock: VirtualClock, answersOnce: Bool) {
        self.result = result
        self.clock = clock
        self.answersOnce = answersOnce
    }

    func send(_ order: FetchOrder, token: UInt64) {
        guard !(answersOnce && answered) else { return }
        answered = true
        pending = (clock.now() + .milliseconds(300), token, order)
    }

    func receive() -> WeatherDelivery? {
        guard let pending, pending.due <= clock.now() else { return nil }
        self.pending = nil
        return WeatherDelivery(token: pending.token, order: pending.order, result: result)
    }

    var nextDelivery: Instant? { pending?.due }
    var isFetchingForReal: Bool { false }
    func waitForDelivery() {}
}

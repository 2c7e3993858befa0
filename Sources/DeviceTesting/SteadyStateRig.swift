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
    public init(seconds: Int = 3600, board: BoardConfig = SteadyStateRig.referenceBoard) throws {
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
            position: Position(latitude: board.defaultLocation.latitude, longitude: board.defaultLocation.longitude).rounded())
        let canned = WeatherFetch.perform(order, service: service, transport: &twin, clock: clock)
        var options = DeviceOptions(board: board)
        options.rotateEvery = nil  // a steady state: the screen a person chose
        device = Device(
            options: options, clock: clock, location: LocationService(
                devices: ReplayDevices(port: port), clock: clock,
                configuration: .init(path: FilePath(board.gps.device), baudRate: .b9600)),
            inputs: inputs, timing: board.buttons.map { ButtonTiming(debounce: $0.debounce, longPress: $0.longPressDuration) },
            activeLow: board.buttons.map(\.activeLow), store: .file(store), stateDirectory: FilePath(directory), files: files,
            display: .oled(.init(bus: DiscardingBus(), profile: board.display.oledProfile ?? .ssd1306_128x64)), sensor: nil,
            link: CannedWeatherLink(result: canned, clock: clock), service: service,
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

    /// A clean short press of `button` now, and the time it takes to be recognised (release
    /// plus the debounce).
    public func press(_ button: Int, hold: Duration = .milliseconds(100)) {
        inputs.press(button, at: clock.now(), hold: hold)
    }
}

/// A weather link that answers every order with the same result, `latency` later on the
/// virtual clock.
final class CannedWeatherLink: WeatherLink {
    let result: WeatherFetch.Result
    let clock: VirtualClock
    var pending: (due: Instant, token: UInt64, order: FetchOrder)?

    init(result: WeatherFetch.Result, clock: VirtualClock) {
        self.result = result
        self.clock = clock
    }

    func send(_ order: FetchOrder, token: UInt64) { pending = (clock.now() + .milliseconds(300), token, order) }

    func receive() -> WeatherDelivery? {
        guard let pending, pending.due <= clock.now() else { return nil }
        self.pending = nil
        return WeatherDelivery(token: pending.token, order: pending.order, result: result)
    }

    var nextDelivery: Instant? { pending?.due }
    var isFetchingForReal: Bool { false }
    func waitForDelivery() {}
}

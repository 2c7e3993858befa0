@testable import App
import Board
import Core
import Drivers
import Graphics
import GPS
import HAL
@testable import HALLinux
import HALSim
import Store
import Screens
import SystemPackage
import Weather

/// The reference board's device with its display and sensor on the daemon's kernel path: the
/// `ReopeningI2CBus` of `BoardBus`, over `LinuxI2CBus`, over `I2CDevTwin` (i2c-dev as it behaves
/// when a USB adapter is unplugged), in front of the panel's and the BME280's models. No GPS
/// receiver is attached, so the wake-ups are the device's own timers and nothing else; the
/// orbit and the screen rotation are off (the screen a person chose stays).
final class KernelBusRig {
    typealias Bus = ReopeningI2CBus<I2CDevTwin>
    typealias RigDevice = Device<Bus, SimulatedButtons, SimulatedSerialDevices, VirtualClock, CrashableFileSystem>

    final class Recorder {
        var events: [Bus.Event] = []
        var log: [String] = []
    }

    let clock: VirtualClock
    let simulated: SimulatedI2CBus
    let kernel: I2CDevTwin
    let bus: Bus
    let panel: OLEDControllerModel
    let device: RigDevice
    let recorder = Recorder()

    init(adapterPlugged: Bool = true) {
        let board = DeviceRig.board
        let setup = SimulationSetup(board: board, start: DeviceRig.summer)
        clock = VirtualClock(start: .zero, wallTime: setup.start)
        simulated = SimulatedI2CBus(clock: clock)
        guard case .oled(let model) = SimulatedBoard.attachPanel(board.display, to: simulated, clock: clock) else {
            preconditionFailure("the reference board has an OLED")
        }
        panel = model
        let sensorConfig = board.sensor!
        _ = SimulatedBoard.attachSensor(sensorConfig, to: simulated, clock: clock)
        kernel = I2CDevTwin(bus: simulated, path: board.display.bus.path)
        if !adapterPlugged { kernel.unplug() }
        let recorder = self.recorder
        bus = ReopeningI2CBus(path: FilePath(board.display.bus.path), usesSMBusForRegisters: false, calls: kernel) {
            recorder.events.append($0)
        }

        let buttons = SimulatedButtons(clock: clock, lines: board.buttons.map { $0.activeLow ? .activeLow : .activeHigh })
        let serial = SimulatedSerialDevices(clock: clock)
        let location = LocationService(
            devices: serial, clock: clock, configuration: .init(path: FilePath(board.gps.device), baudRate: .b9600))
        let store: DeviceStore<CrashableFileSystem, VirtualClock>
        do {
            store = .file(try FileStore(files: setup.disk, clock: clock, configuration: FileStoreConfiguration(directory: setup.stateDirectory)))
        } catch {
            store = .memory(InMemoryStore(), reason: error.description)
        }
        let service = OpenMeteoService(identity: ClientIdentity(contact: nil))
        let link = SimulatedBoard.weatherTwin(
            service: service, clock: clock, zone: setup.serviceZone, loadZone: setup.loadZone, seed: setup.seed)
        // No orbit and no rotation: a minute's frame is then the clock's digits alone, so a
        // diff is plain to see.
        var options = DeviceOptions(board: board)
        options.orbit = false
        options.rotateEvery = nil
        device = Device(
            options: options, clock: clock, location: location, inputs: buttons,
            timing: board.buttons.map { ButtonTiming(debounce: $0.debounce, longPress: $0.longPressDuration) },
            activeLow: board.buttons.map(\.activeLow), store: store, stateDirectory: setup.stateDirectory,
            files: setup.disk, display: DisplayUnit(board.display, bus: bus), sensor: BME280(sensorConfig, bus: bus),
            link: link, service: service,
            dependencies: DeviceDependencies(
                systemClockSynchronised: { true }, loadZone: setup.loadZone, log: { _, line in recorder.log.append(line.words) }),
            seed: setup.seed)
        let device = device
        kernel.turn = { device.counters.wakeups }
        simulated.isLogging = true
    }

    /// Starts the device: the first frame (or the first failure).
    func start() { device.start() }

    /// The virtual loop: wakes the device at each of its deadlines up to `duration` from now,
    /// and nowhere else (no descriptor is readable: there is no receiver and nobody presses).
    func advance(by duration: Duration) {
        let end = clock.now() + duration
        var atThisInstant = 0
        while let next = device.nextDeadline, next <= end {
            if next > clock.now() {
                clock.advance(to: next)
                atThisInstant = 0
            }
            atThisInstant += 1
            precondition(atThisInstant < 100, "the device asks to be woken at \(clock.now()) again and again")
            device.service()
        }
        if end > clock.now() { clock.advance(to: end) }
    }

    /// The status screen's line for `label`.
    func line(_ label: String) -> StatusLine? { device.state.model.statusLines.first { $0.label == label } }

    /// What the panel must show for the device's state.
    var expectedGlass: PanelImage { DeviceRig.expectedGlass(device.state) }

    /// The writes to the panel's address logged from entry `start` on.
    func panelWrites(from start: Int) -> [ArraySlice<UInt8>] {
        var writes: [ArraySlice<UInt8>] = []
        for index in start..<simulated.log.endIndex {
            if case .write(0x3C, let bytes, _) = simulated.log[index] { writes.append(bytes) }
        }
        return writes
    }
}

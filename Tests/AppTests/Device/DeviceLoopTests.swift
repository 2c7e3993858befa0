import App
import Core
import DeviceTesting
import Glibc
import GPS
import HAL
import HALLinux
import HALSim
import Store
import SystemPackage
import Testing
import Weather

/// The Linux loop end to end on real descriptors: a pseudo-terminal plays the GPS receiver
/// (closing it is the unplug), the timerfd wakes the loop at deadlines, and the network edge is
/// a real worker thread that wakes it through the eventfd. Real time, bounded: a few seconds.
@Suite("Device: the poll(2) loop", .serialized)
struct DeviceLoopTests {
    /// No buttons.
    final class NoInputs: DigitalInputs {
        func readEdges(into buffer: UnsafeMutableBufferPointer<Edge>) throws(GPIOError) -> Int { 0 }
        func levels() throws(GPIOError) -> UInt32 { 0 }
    }

    @Test("a fix from the tty in one wake-up a second, a weather answer through the eventfd, an unplug through POLLHUP")
    func loop() throws {
        let pty = try PseudoTerminal()
        var template = [CChar]("/tmp/thunderstorm-loop-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        defer {
            for name in StateDirectory.fileNames { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        let clock = LinuxClock(calls: LiveSystemCalls())
        let board = SteadyStateRig.referenceBoard
        let loop = try DeviceLoop()
        let fetches = Counter()
        let link = ThreadedWeatherLink(
            fetch: { _ in
                fetches.add()
                return WeatherFetch.Result(outcome: .failure(.transport(TransportError(.hostNotFound, "no network here"))), response: nil)
            }, wake: loop.wakeSignal)
        defer { link.stop() }
        let device = Device(
            options: DeviceOptions(board: board), clock: clock,
            location: LocationService(
                devices: LinuxSerialDevices(calls: LiveSystemCalls()), clock: clock,
                configuration: .init(path: pty.slavePath, baudRate: .b9600)),
            inputs: NoInputs(), timing: [], activeLow: [],
            store: .file(try FileStore(files: HostFiles(), clock: clock, configuration: FileStoreConfiguration(directory: FilePath(directory)))),
            stateDirectory: FilePath(directory), files: HostFiles(),
            display: .oled(.init(bus: DiscardingBus(), profile: .ssd1306_128x64)), sensor: nil, link: link,
            service: OpenMeteoService(identity: ClientIdentity(contact: nil)),
            dependencies: DeviceDependencies(systemClockSynchronised: { true }, loadZone: SimulationSetup.hostZone, log: { _, _ in }),
            seed: 1)
        // Start: the port opens at the first wake-up, the first fetch goes out at once.
        #expect(try loop.run(device, gpsDescriptor: { $0.fileDescriptor }, inputDescriptors: [], until: clock.now() + .milliseconds(300)) == .finished)
        #expect(device.location.port != nil)
        #expect(device.state.weather.state.failure != nil, "the worker's answer came back through the eventfd")
        #expect(fetches.value == 1)
        // A receiver's epochs arrive; the loop reads them once a second.
        var route = NMEARouteScript(waypoints: [.init(latitude: 52.52, longitude: 13.405)], speed: 0, startTime: WallTime(seconds: 1_782_036_000))
        route.satellites = 9
        for epoch in 0..<3 { _ = try pty.write(route.sentences(epoch: epoch)) }
        let before = loop.wakeups
        #expect(try loop.run(device, gpsDescriptor: { $0.fileDescriptor }, inputDescriptors: [], until: clock.now() + .milliseconds(2200)) == .finished)
        #expect(device.state.gps.kind == .fix)
        #expect(device.counters.frames >= 2)
        let wakeups = loop.wakeups - before
        #expect(wakeups <= 6, "wake-ups in 2.2 s: \(wakeups)")
        // Unplug: the tty hangs up, the service is told at once.
        pty.close()
        #expect(try loop.run(device, gpsDescriptor: { $0.fileDescriptor }, inputDescriptors: [], until: clock.now() + .milliseconds(200)) == .finished)
        #expect(device.state.gps.kind == .noDevice)
    }

    final class Counter: @unchecked Sendable {
        private var count = 0
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        init() { pthread_mutex_init(lock, nil) }
        func add() {
            pthread_mutex_lock(lock)
            count += 1
            pthread_mutex_unlock(lock)
        }
        var value: Int {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            return count
        }
    }
}

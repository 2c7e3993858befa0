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
        let directory = Self.makeStateDirectory()
        defer { Self.remove(directory) }
        let clock = LinuxClock(calls: LiveSystemCalls())
        let loop = try DeviceLoop()
        let fetches = Counter()
        let link = ThreadedWeatherLink(
            fetch: { order in
                fetches.add()
                return WeatherFetch.Result(outcome: .failure(.transport(TransportError(.hostNotFound, "no network here"))), response: nil, receivedAt: order.time?.anchor ?? .zero)
            }, wake: loop.wakeSignal)
        defer { link.stop() }
        let device = try Self.makeDevice(clock: clock, gpsPath: pty.slavePath, directory: directory, link: link)
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

    @Test("a wall-clock set wakes the loop at once, before the deadline its timerfd was armed at")
    func clockSetWakesTheLoop() throws {
        // Setting CLOCK_REALTIME to its own value is a set for the kernel (clock_was_set) and
        // moves the clock back by the microsecond between the two calls. EPERM: skipped.
        var probe = timespec()
        clock_gettime(CLOCK_REALTIME, &probe)
        if clock_settime(CLOCK_REALTIME, &probe) != 0 {
            try Test.cancel("clock_settime(CLOCK_REALTIME): \(Errno(rawValue: errno)) (needs CAP_SYS_TIME)")
        }
        let pty = try PseudoTerminal()
        let directory = Self.makeStateDirectory()
        defer { Self.remove(directory) }
        let clock = LinuxClock(calls: LiveSystemCalls())
        // SIGURG ends the run once the set was seen (ignored by default, so a stray one is harmless).
        let loop = try DeviceLoop(signals: [SIGURG])
        let link = ThreadedWeatherLink(fetch: { order in
            WeatherFetch.Result(outcome: .failure(.transport(TransportError(.hostNotFound, "no network here"))), response: nil, receivedAt: order.time?.anchor ?? .zero)
        }, wake: loop.wakeSignal)
        defer { link.stop() }
        let device = try Self.makeDevice(clock: clock, gpsPath: pty.slavePath, directory: directory, link: link)
        let end = clock.now() + .seconds(3)
        var armed: Instant?  // the deadline the timerfd holds for the poll in progress
        var setAt: Instant?, wokeAt: Instant?, deadlineThen: Instant?
        let companion = DeviceLoop.Companion(
            nextDeadline: {
                armed = Instant.earliest(device.nextDeadline, end)
                return nil
            },
            beforeService: { woke in
                guard setAt != nil, wokeAt == nil, loop.clockSets > 0 else { return }
                wokeAt = woke
                deadlineThen = armed
                pthread_kill(pthread_self(), SIGURG)
            },
            afterService: { _ in
                // Set the clock once the loop is idle: its next deadline at least 100 ms away,
                // so a wake-up before it can only come from the clock-set descriptor.
                let now = clock.now()
                guard setAt == nil, let next = Instant.earliest(device.nextDeadline, end), next - now >= .milliseconds(100) else { return }
                var wall = timespec()
                clock_gettime(CLOCK_REALTIME, &wall)
                clock_settime(CLOCK_REALTIME, &wall)
                setAt = clock.now()
            })
        #expect(try loop.run(device, gpsDescriptor: { $0.fileDescriptor }, companion: companion, until: end) == .signal(SIGURG))
        #expect(loop.clockSets == 1)
        let set = try #require(setAt), woke = try #require(wokeAt), deadline = try #require(deadlineThen)
        #expect(woke < deadline, "woke \(woke - set) after the set, \(deadline - woke) before the timerfd's deadline")
        print("clock set → loop wake-up: \(woke - set), \(deadline - woke) before the deadline")
    }

    typealias LoopDevice = Device<DiscardingBus, NoInputs, LinuxSerialDevices<LiveSystemCalls>, LinuxClock<LiveSystemCalls>, HostFiles>

    /// The reference board with a receiver on `gpsPath`, a file store in `directory`, nothing
    /// on the bus and `link` as the network edge.
    static func makeDevice(
        clock: LinuxClock<LiveSystemCalls>, gpsPath: FilePath, directory: String, link: ThreadedWeatherLink
    ) throws -> LoopDevice {
        Device(
            options: DeviceOptions(board: SteadyStateRig.referenceBoard), clock: clock,
            location: LocationService(
                devices: LinuxSerialDevices(calls: LiveSystemCalls()), clock: clock,
                configuration: .init(path: gpsPath, baudRate: .b9600)),
            inputs: NoInputs(), timing: [], activeLow: [],
            store: .file(try FileStore(files: HostFiles(), clock: clock, configuration: FileStoreConfiguration(directory: FilePath(directory)))),
            stateDirectory: FilePath(directory), files: HostFiles(),
            display: .oled(.init(bus: DiscardingBus(), profile: .ssd1306_128x64)), sensor: nil, link: link,
            service: OpenMeteoService(identity: ClientIdentity(contact: nil)),
            dependencies: DeviceDependencies(systemClockSynchronised: { true }, loadZone: SimulationSetup.hostZone, log: { _, _ in }),
            seed: 1)
    }

    static func makeStateDirectory() -> String {
        var template = [CChar]("/tmp/thunderstorm-loop-XXXXXX".utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    static func remove(_ directory: String) {
        for name in StateDirectory.fileNames { unlink(directory + "/" + name) }
        rmdir(directory)
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

import HAL
import HALSim
import SystemPackage
import Weather

/// The repository, a provider, a scripted transport, the disk cache on a crashable file
/// system and a virtual clock: the weather half of the device, stepped by virtual time.
struct WeatherRig<Service: WeatherService> {
    var repository: WeatherRepository<SplitMix64>
    let service: Service
    let transport: ScriptedTransport
    let clock: VirtualClock
    var files: CrashableFileSystem
    let directory: FilePath = "/var/lib/thunderstorm"
    /// (monotonic instant, outcome) of every fetch.
    private(set) var fetches: [(at: Instant, outcome: Result<FetchOutcome, WeatherError>)] = []
    private(set) var log: [String] = []

    init(service: Service, transport: ScriptedTransport, clock: VirtualClock = VirtualClock(), files: CrashableFileSystem? = nil, seed: UInt64 = 1) {
        repository = WeatherRepository(random: SplitMix64(seed: seed))
        self.service = service
        self.transport = transport
        self.clock = clock
        if let files {
            self.files = files
        } else {
            self.files = CrashableFileSystem()
            // Made durable like an installed system's: a power cut keeps them.
            for (path, parent) in [("/var", "/"), ("/var/lib", "/var"), ("/var/lib/thunderstorm", "/var/lib")] {
                try? self.files.createDirectory(FilePath(path))
                try? self.files.synchronizeDirectory(FilePath(parent))
            }
        }
    }

    /// The time as a device with a synchronised clock reads it now.
    var base: TimeBase { TimeBase(anchor: clock.now(), wall: clock.wallTime(), trusted: true) }

    /// What the app does at boot: the disk cache, if any, is shown until the network answers.
    mutating func restoreFromDisk() -> WeatherCache.CacheError? {
        switch WeatherCache.load(from: directory, files: &files) {
        case .failure(let error): return error
        case .success(let cache):
            guard case .success(let report) = cache.report(using: service) else { return .damaged("undecodable") }
            repository.restore(report, validators: CacheValidators(lastModified: cache.lastModified), base: base)
            return nil
        }
    }

    /// Runs every fetch that comes due until `deadline`, jumping the clock from one to the next.
    mutating func run(until deadline: Instant, position: Coordinate? = nil) {
        if let position { repository.updatePosition(position, now: clock.now()) }
        while true {
            if var order = repository.nextOrder(now: clock.now()) {
                order.time = base
                var transport = self.transport
                let result = WeatherFetch.perform(order, service: service, transport: &transport, clock: clock)
                fetches.append((clock.now(), result.outcome))
                for effect in repository.complete(result.outcome, receivedAt: result.receivedAt, base: base) {
                    switch effect {
                    case .log(let line): log.append(line)
                    case .persist:
                        if case .success(.report(let report, _)) = result.outcome, let response = result.response {
                            _ = WeatherCache(response: response, report: report, order: order).save(in: directory, files: &files)
                        }
                    }
                }
                continue
            }
            guard let next = repository.nextAttempt, next <= deadline else { break }
            clock.advance(to: Swift.max(next, clock.now()))
        }
        if clock.now() < deadline { clock.advance(to: deadline) }
    }

    /// Gaps between consecutive fetch starts, in seconds.
    var gaps: [Double] {
        zip(fetches.dropFirst(), fetches).map { Double(($0.at - $1.at).components.seconds) + Double(($0.at - $1.at).components.attoseconds) / 1e18 }
    }
}

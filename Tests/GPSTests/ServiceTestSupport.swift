import GPS
import HAL
import HALSim
import SystemPackage

/// A location service on simulated devices and a virtual clock: what every service test drives.
final class ServiceRig {
    let clock = VirtualClock()
    let devices: SimulatedSerialDevices
    let service: LocationService<SimulatedSerialDevices, VirtualClock>

    init(path: FilePath = "/dev/ttyACM0", baudRate: BaudRate = .b9600) {
        devices = SimulatedSerialDevices(clock: clock)
        service = LocationService(
            devices: devices, clock: clock, configuration: .init(path: path, baudRate: baudRate))
    }

    var now: Instant { clock.now() }

    /// Runs the loop as the device does, for `duration`: wakes at every service deadline and
    /// at least every `step` (standing in for "the tty became readable"), reading and ticking.
    func run(for duration: Duration, step: Duration = .milliseconds(100)) {
        let end = clock.now() + duration
        service.update()
        while clock.now() < end {
            var wake = min(clock.now() + step, end)
            if let deadline = service.nextDeadline, deadline > clock.now(), deadline < wake { wake = deadline }
            clock.advance(to: wake)
            service.update()
        }
    }

    /// Runs until `condition` holds, at most `limit`; returns whether it held.
    @discardableResult
    func run(until condition: () -> Bool, limit: Duration = .seconds(120), step: Duration = .milliseconds(100)) -> Bool {
        let end = clock.now() + limit
        service.update()
        while !condition() {
            guard clock.now() < end else { return false }
            run(for: min(step, end - clock.now()), step: step)
        }
        return true
    }
}

/// A 1 Hz receiver driving north from Hamilton (NZ) at 10 m/s, all epochs valid unless told.
func hamiltonRoute(noFix: Set<Int> = [], period: Duration = .seconds(1)) -> NMEARouteScript {
    var route = NMEARouteScript(
        waypoints: [.init(latitude: -37.7848, longitude: 175.3149), .init(latitude: -37.7700, longitude: 175.3149)],
        speed: 10, epochPeriod: period, startTime: WallTime(seconds: 1_798_761_600))  // 2027-01-01, after the release
    route.noFixEpochs = noFix
    return route
}

/// Bytes a UART sees when it samples at the wrong rate: framing-error bytes, high bit set.
func wrongRateBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in 0x80 | UInt8(truncatingIfNeeded: random.next(below: 128)) }
}

extension Duration {
    var seconds: Double { Double(nanoseconds) / 1e9 }
}

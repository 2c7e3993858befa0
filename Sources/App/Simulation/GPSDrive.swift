import GPS
import HAL
import HALSim

/// The GPS receiver's twin in `simulate`: what it transmits, one epoch at a time, on the
/// simulated wire at the moment the epoch is due, so a day of driving never sits in memory.
///
/// - `route`: the built-in drive: a receiver that needs a few epochs to its first fix (a warm
///   start), then drives a few kilometres from the board's default location and parks.
/// - `capture`: a recorded NMEA capture replayed in real time, one epoch per second.
public struct GPSDrive {
    public enum Source {
        case route(NMEARouteScript)
        case capture([[UInt8]])
    }

    public private(set) var source: Source
    public let start: Instant
    public let period: Duration
    public private(set) var epoch = 0

    public init(source: Source, start: Instant, period: Duration = .seconds(1)) {
        self.source = source
        self.start = start
        self.period = period
    }

    /// The built-in drive from `latitude`/`longitude`: 4 epochs without a fix, then east at
    /// 12 m/s for about 7 km (0.1° of longitude), then parked.
    public static func builtIn(latitude: Double, longitude: Double, startTime: WallTime, start: Instant) -> GPSDrive {
        var route = NMEARouteScript(
            waypoints: [
                .init(latitude: latitude, longitude: longitude),
                .init(latitude: latitude + 0.01, longitude: longitude + 0.05),
                .init(latitude: latitude + 0.01, longitude: longitude + 0.1),
            ],
            speed: 12, startTime: startTime)
        route.noFixEpochs = Set(0..<4)
        return GPSDrive(source: .route(route), start: start)
    }

    /// Moves the dates of the built-in route's sentences by `shift` from now on (a receiver
    /// whose firmware mishandles the week-number rollover); a capture keeps its recorded dates.
    /// Returns whether anything moved.
    public mutating func shiftTime(by shift: Duration) -> Bool {
        guard case .route(var route) = source else { return false }
        route.startTime = route.startTime + shift
        source = .route(route)
        return true
    }

    /// The built-in route's height above mean sea level (GGA's altitude), metres; nil for a
    /// capture, whose heights are recorded. Set, the following epochs report the new height.
    public var altitude: Double? {
        get {
            if case .route(let route) = source { return route.altitude }
            return nil
        }
        set {
            guard let newValue, case .route(var route) = source else { return }
            route.altitude = newValue
            source = .route(route)
        }
    }

    /// When the next epoch is due; nil when a capture has run out.
    public var nextEpoch: Instant? {
        if case .capture(let epochs) = source, epoch >= epochs.count { return nil }
        return start + period * epoch
    }

    /// Sends every epoch due by `now` on `wire` (the receiver's transmit line). Epochs due while
    /// the receiver was unplugged are skipped, as a receiver without power sends nothing.
    public mutating func transmit(upTo now: Instant, on wire: SimulatedSerialPort, pluggedIn: Bool) {
        while let due = nextEpoch, due <= now {
            if pluggedIn {
                switch source {
                case .route(let route): wire.feed(route.sentences(epoch: epoch))
                case .capture(let epochs): wire.feed(epochs[epoch])
                }
            }
            epoch += 1
        }
    }
}

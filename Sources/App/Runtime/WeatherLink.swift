import HAL
import Weather

/// A finished fetch: the outcome the repository reads and the response the disk cache keeps.
public struct WeatherDelivery: Sendable {
    public var token: UInt64
    public var order: FetchOrder
    public var result: WeatherFetch.Result

    public init(token: UInt64, order: FetchOrder, result: WeatherFetch.Result) {
        self.token = token
        self.order = order
        self.result = result
    }
}

/// The network edge as the loop sees it (docs/design/architecture.md#the-loop): a fetch is handed over, runs off
/// the loop, and comes back later as a delivery. Two implementations: `ThreadedWeatherLink`
/// (a worker thread and the daemon's transport; the loop is woken through an eventfd) and
/// `SimulatedWeatherLink` (the answer arrives after a latency on the virtual clock).
public protocol WeatherLink: AnyObject {
    /// Starts fetching `order`. The device never has two fetches out (the repository's rule).
    func send(_ order: FetchOrder, token: UInt64)
    /// A finished fetch, if one is ready; never blocks.
    func receive() -> WeatherDelivery?
    /// When the next answer is due on the virtual clock; nil for a real network (its answers
    /// wake the loop themselves) or when nothing is out.
    var nextDelivery: Instant? { get }
    /// Whether a fetch is out on a real network. Virtual time must not run past a real fetch:
    /// the headless loop waits for it with `waitForDelivery()`.
    var isFetchingForReal: Bool { get }
    func waitForDelivery()
}

/// The simulated network: the device's own `WeatherFetch` over a simulated transport (the
/// service's twin), answered `latency` later on the virtual clock. A network that is down
/// answers like a real one would: with the transport's error, after the same latency.
public final class SimulatedWeatherLink<Service: WeatherService, Transport: HTTPTransport, Clock: DeviceClock>: WeatherLink {
    public let service: Service
    public var transport: Transport
    public let clock: Clock
    public var latency: Duration
    private var inFlight: (due: Instant, delivery: WeatherDelivery)?
    public private(set) var fetches = 0

    public init(service: Service, transport: Transport, clock: Clock, latency: Duration = .milliseconds(350)) {
        self.service = service
        self.transport = transport
        self.clock = clock
        self.latency = latency
    }

    public func send(_ order: FetchOrder, token: UInt64) {
        fetches += 1
        let result = WeatherFetch.perform(order, service: service, transport: &transport, clock: clock)
        inFlight = (clock.now() + latency, WeatherDelivery(token: token, order: order, result: result))
    }

    public func receive() -> WeatherDelivery? {
        guard let inFlight, inFlight.due <= clock.now() else { return nil }
        self.inFlight = nil
        return inFlight.delivery
    }

    public var nextDelivery: Instant? { inFlight?.due }
    public var isFetchingForReal: Bool { false }
    public func waitForDelivery() {}
}

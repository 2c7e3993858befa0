import HAL

/// One fetch, start to end: build the request, send it, read the answer. Blocking (the
/// transport waits on the network), so the app runs it off the event loop; the CLI and the
/// tests call it directly.
public enum WeatherFetch {
    /// The outcome and the response it came from (the body is what the disk cache keeps).
    public struct Result: Sendable {
        public var outcome: Swift.Result<FetchOutcome, WeatherError>
        public var response: HTTPResponse?
        /// When the answer (or the failure) arrived, on the monotonic clock: never a raw
        /// `CLOCK_REALTIME`, which may be set differently from the time the device shows.
        public var receivedAt: Instant

        public init(outcome: Swift.Result<FetchOutcome, WeatherError>, response: HTTPResponse?, receivedAt: Instant) {
            self.outcome = outcome
            self.response = response
            self.receivedAt = receivedAt
        }
    }

    /// `clock` is read for its monotonic time only; civil times come from `order.time`.
    public static func perform<Service: WeatherService, Transport: HTTPTransport, Clock: DeviceClock>(
        _ order: FetchOrder, service: Service, transport: inout Transport, clock: Clock
    ) -> Result {
        let request = service.request(for: order)
        let sent = transport.send(request)
        let received = clock.now()
        switch sent {
        case .failure(let error):
            return Result(outcome: .failure(.transport(error)), response: nil, receivedAt: received)
        case .success(let response):
            let outcome = service.decode(response, for: order, receivedAt: order.time.wall(at: received))
            return Result(outcome: outcome, response: response, receivedAt: received)
        }
    }
}

extension WeatherCache {
    /// The cache of a good 200 answer to `order`.
    public init(response: HTTPResponse, report: WeatherReport, order: FetchOrder) {
        self.init(
            provider: report.provider, fetchedAt: report.fetchedAt, position: order.position,
            lastModified: Self.storable(response.header("Last-Modified")), body: response.body)
    }

    /// Decodes the cached body with `service` as if it had just arrived at its fetch time.
    public func report<Service: WeatherService>(using service: Service) -> Swift.Result<WeatherReport, WeatherError> {
        guard service.provider == provider else {
            return .failure(.malformed("the cache holds a \(provider.rawValue) answer, not \(service.provider.rawValue)"))
        }
        let order = FetchOrder(position: position)
        switch service.decode(HTTPResponse(status: 200, body: body), for: order, receivedAt: fetchedAt) {
        case .success(.report(let report, _)): return .success(report)
        case .success(.notModified): return .failure(.malformed("the cache holds no forecast"))
        case .failure(let error): return .failure(error)
        }
    }
}

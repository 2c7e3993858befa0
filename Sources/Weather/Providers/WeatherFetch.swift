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
    ///
    /// HTTPS certificates are checked at the time the device trusts (GPS time on a Pi whose
    /// clock NTP has not set yet), not at `CLOCK_REALTIME`, which may be months off. When
    /// nothing vouches for the time and a certificate fails on its dates, the error says so.
    public static func perform<Service: WeatherService, Transport: HTTPTransport, Clock: DeviceClock>(
        _ order: FetchOrder, service: Service, transport: inout Transport, clock: Clock
    ) -> Result {
        var request = service.request(for: order)
        let base = order.time ?? TimeBase(anchor: clock.now(), wall: clock.wallTime(), trusted: false)
        if order.time != nil { request.verificationTime = base.wall(at: clock.now()) }
        let sent = transport.send(request)
        let received = clock.now()
        switch sent {
        case .failure(var error):
            if let which = error.certificateTime, !base.trusted {
                let day = CivilDateTime(base.wall(at: received), offsetSeconds: 0).date
                error.detail = "certificate \(which == .notYetValid ? "not yet valid" : "expired") — system clock \(day), "
                    + "no GPS time yet (\(error.detail))"
            }
            return Result(outcome: .failure(.transport(error)), response: nil, receivedAt: received)
        case .success(let response):
            let outcome = service.decode(response, for: order, receivedAt: base.wall(at: received))
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

import HAL
import HALSim
import Testing
import Weather

/// A fetch stamps its answer on the monotonic clock and reads civil time only through
/// the time base of its order, so a wrong system clock on the worker changes nothing.
@Suite("Weather: fetches read civil time through the order's time base")
struct TimeBaseFetchTests {
    /// 2026-12-01T10:00:00Z, the true time; the system clock is 3 days behind it.
    static let truth = WallTime(seconds: 1_796_119_200)
    static let behind = Duration.seconds(3 * 86_400)

    static func answer429(retryAfter: String, date: String?) -> HTTPResponse {
        var headers = [HTTPHeader("Retry-After", retryAfter)]
        if let date { headers.append(HTTPHeader("Date", date)) }
        return HTTPResponse(status: 429, headers: headers, body: Array(#"{"error":true,"reason":"Minutely API request limit exceeded."}"#.utf8))
    }

    static func fetch(_ response: HTTPResponse, trusted: Bool) -> WeatherFetch.Result {
        let clock = VirtualClock(start: Instant(nanoseconds: 5_000_000_000), wallTime: truth - behind)
        let order = FetchOrder(
            position: Bodies.berlin,
            time: TimeBase(anchor: clock.now(), wall: truth, trusted: trusted))
        var transport = ScriptedTransport(otherwise: .response(response))
        return WeatherFetch.perform(order, service: OpenMeteoService(identity: ClientIdentity(contact: nil)), transport: &transport, clock: clock)
    }

    @Test("a Retry-After date with no Date header, read while the system clock is 3 days behind GPS time: waits 150 s, not 3 days")
    func retryAfterDateUnderWrongClock() {
        let result = Self.fetch(Self.answer429(retryAfter: HTTPDate.format(Self.truth + .seconds(150)), date: nil), trusted: true)
        guard case .failure(.rateLimited(_, let wait)) = result.outcome else {
            Issue.record("not rate-limited: \(result.outcome)")
            return
        }
        #expect(wait == .duration(.seconds(150)))
        #expect(result.receivedAt == Instant(nanoseconds: 5_000_000_000), "stamped on the monotonic clock")
    }

    @Test("with the server's Date header the wait is the server's own difference, whatever any device clock says")
    func retryAfterWithDate() {
        let result = Self.fetch(
            Self.answer429(retryAfter: HTTPDate.format(Self.truth + .seconds(90)), date: HTTPDate.format(Self.truth)), trusted: false)
        guard case .failure(.rateLimited(_, let wait)) = result.outcome else {
            Issue.record("not rate-limited: \(result.outcome)")
            return
        }
        #expect(wait == .duration(.seconds(90)))
    }

    @Test("a report is stamped with the base's civil time of its arrival, not the worker's system clock")
    func reportStamp() throws {
        let body = Bodies.openMeteo(temperature: 21)
        let result = Self.fetch(body, trusted: true)
        guard case .success(.report(let report, _)) = result.outcome else {
            Issue.record("no report: \(result.outcome)")
            return
        }
        #expect(report.fetchedAt == Self.truth)
    }
}

/// The repository re-stamps what arrived in this run when the time base changes, and
/// writes to disk only under a trusted base.
@Suite("Weather: re-stamping on a new time base")
struct RepositoryRestampTests {
    static func report(_ outcome: Result<FetchOutcome, WeatherError>) -> WeatherReport? {
        if case .success(.report(let report, _)) = outcome { return report }
        return nil
    }

    @Test("a report that arrived under an unsure clock is re-stamped when GPS time comes, and only then persisted")
    func restampThenPersist() throws {
        var repository = WeatherRepository(random: SplitMix64(seed: 1))
        let start = Instant(nanoseconds: 1_000_000_000)
        repository.updatePosition(Bodies.berlin, now: start)
        let next = repository.nextOrder(now: start)
        let order = try #require(next)
        let unsure = TimeBase(anchor: start, wall: TimeBaseFetchTests.truth - TimeBaseFetchTests.behind, trusted: false)
        let report = try #require(Self.report(OpenMeteoService(identity: ClientIdentity(contact: nil))
            .decode(Bodies.openMeteo(), for: order, receivedAt: unsure.wall)))
        let effects = repository.complete(.success(.report(report, CacheValidators())), receivedAt: start, base: unsure)
        #expect(effects.isEmpty, "not written under an unsure clock")
        #expect(repository.state.value?.fetchedAt == unsure.wall)
        // 20 s later GPS time is vouched: 3 days ahead of the system clock.
        let gps = TimeBase(anchor: start + .seconds(20), wall: TimeBaseFetchTests.truth + .seconds(20), trusted: true)
        let persist = repository.restamp(gps)
        #expect(persist)
        #expect(repository.state.value?.fetchedAt == TimeBaseFetchTests.truth)
        #expect(repository.freshness(at: gps.wall) == .fresh)
        let again = repository.restamp(gps)
        #expect(!again, "written once")
    }

    @Test("a stamp ahead of the clock by more than a minute has an unknown age, never fresh")
    func futureStamp() throws {
        var repository = WeatherRepository(random: SplitMix64(seed: 1))
        let report = try #require(Self.report(OpenMeteoService(identity: ClientIdentity(contact: nil))
            .decode(Bodies.openMeteo(), for: FetchOrder(position: Bodies.berlin), receivedAt: TimeBaseFetchTests.truth)))
        let base = TimeBase(anchor: .zero, wall: TimeBaseFetchTests.truth - TimeBaseFetchTests.behind, trusted: false)
        repository.restore(report, validators: CacheValidators(), base: base)
        #expect(repository.freshness(at: base.wall) == .ageUnknown)
        #expect(report.conditions(at: base.wall) == nil)
    }
}

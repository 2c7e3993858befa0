#if canImport(Glibc)
import Glibc
#endif
import HAL
import HTTPTesting
import Testing
import Weather
import WeatherHTTP

/// Through the device's own fetch: `WeatherFetch.perform` checks HTTPS
/// certificates at the time of the order's base (GPS time on a Pi whose clock NTP has not set),
/// and when nothing vouches for the time a certificate refused for its dates is named as the
/// clock's doing. The "system clock" here is a virtual one set to 2025-03-01, before the
/// loopback certificate's notBefore: what a Pi without an RTC shows until NTP answers.
@Suite(.timeLimit(.minutes(10)))
struct FetchAtDeviceTimeTests {
    static let piClock = TLSVerificationTimeTests.beforeLocalhost

    /// A Pi's clocks, stopped: the monotonic time and a system clock that NTP has not set.
    struct PiClock: DeviceClock {
        func now() -> Instant { Instant(nanoseconds: 7_000_000_000) }
        func wallTime() -> WallTime { FetchAtDeviceTimeTests.piClock }
    }

    static func fetch(_ server: LoopbackHTTPServer, trusting certificate: String, base: (PiClock) -> TimeBase) -> WeatherFetch.Result {
        let clock = PiClock()
        var service = OpenMeteoService(identity: ClientIdentity(contact: nil))
        service.baseURL = server.url("")
        let order = FetchOrder(position: try! Coordinate(latitude: 52.52, longitude: 13.41), time: base(clock))
        var transport = TLSVerificationTimeTests.transport(trusting: certificate)
        return WeatherFetch.perform(order, service: service, transport: &transport, clock: clock)
    }

    static func tlsError(_ result: WeatherFetch.Result) -> TransportError? {
        if case .failure(.transport(let error)) = result.outcome, error.kind == .tls { return error }
        return nil
    }

    @Test("system clock a year behind, no GPS time: refused, and the line names the clock")
    func noTrustedTime() throws {
        let server = try TLSVerificationTimeTests.server(TestCertificates.localhost)
        defer { server.stop() }
        let result = Self.fetch(server, trusting: "localhost.pem") { TimeBase(anchor: $0.now(), wall: $0.wallTime(), trusted: false) }
        let error = try #require(Self.tlsError(result), "\(result.outcome)")
        #expect(error.detail.hasPrefix("certificate not yet valid — system clock 2025-03-01, no GPS time yet ("), "\(error.detail)")
        #expect(WeatherError.transport(error).shortText == "cert not yet valid")
        #expect(server.requests.isEmpty)
    }

    @Test("the same clock with vouched GPS time: the certificate is checked at GPS time and the request goes out")
    func gpsTime() throws {
        let server = try TLSVerificationTimeTests.server(TestCertificates.localhost)
        defer { server.stop() }
        let result = Self.fetch(server, trusting: "localhost.pem") { TimeBase(anchor: $0.now(), wall: TLSVerificationTimeTests.now(), trusted: true) }
        #expect(Self.tlsError(result) == nil, "\(result.outcome)")
        #expect(server.requests.count == 1)
    }

    @Test("an expired certificate still fails at vouched GPS time, and is not blamed on the clock")
    func expiredStillFails() throws {
        let server = try TLSVerificationTimeTests.server(TestCertificates.expired)
        defer { server.stop() }
        let result = Self.fetch(server, trusting: "expired.pem") { TimeBase(anchor: $0.now(), wall: TLSVerificationTimeTests.now(), trusted: true) }
        let error = try #require(Self.tlsError(result), "\(result.outcome)")
        #expect(error.certificateTime == .expired)
        #expect(!error.detail.contains("no GPS time"), "\(error.detail)")
        #expect(server.requests.isEmpty)
    }
}

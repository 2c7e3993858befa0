#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HAL
import HTTPTesting
import Testing
import Weather
import WeatherHTTP

/// `HTTPRequest.verificationTime` through `SocketTransport` against the loopback TLS server: the
/// certificate's validity dates are checked at the time the request gives (a Raspberry Pi without
/// an RTC whose clock is behind, but which knows the time from GPS), for that request's
/// connection only. Each test fails if the time is ignored: a time before notBefore must fail
/// and a time inside an expired certificate's dates must succeed, neither of which the system
/// clock alone would do. `CurlTransport` ignores the time (libcurl has no option for it), so
/// only the socket transport is tested here.
@Suite(.timeLimit(.minutes(10)))
struct TLSVerificationTimeTests {
    /// 2025-03-01T00:00:00Z: before localhost.pem's notBefore (2026-11-21), the day a Pi's clock
    /// might show until NTP answers. A fixed time, not "now − 1 year": that would pass notBefore
    /// once the fixture is a year old and the test would stop proving anything.
    static let beforeLocalhost = WallTime(seconds: 1_740_787_200)
    /// 2020-07-01T00:00:00Z: inside expired.pem's dates (2020-01-01 to 2021-01-01).
    static let insideExpired = WallTime(seconds: 1_593_561_600)

    static func now() -> WallTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallTime(seconds: Int64(spec.tv_sec), nanoseconds: Int32(spec.tv_nsec))
    }

    static func get(_ url: String, at time: WallTime?) -> HTTPRequest {
        HTTPRequest(url: url, timeout: .seconds(10), verificationTime: time)
    }

    static func server(_ identity: LoopbackHTTPServer.TLSIdentity) throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer(tls: identity)
        server.route("/v1/forecast", .response(status: 200, text: #"{"ok":true}"#))
        return server
    }

    static func transport(trusting certificate: String) -> SocketTransport {
        SocketTransport(configuration: .init(trust: .bundle(path: TestCertificates.path(certificate))))
    }

    @Test("A time before notBefore: .tls, certificateTime .notYetValid, the time in the one-line detail; no request sent")
    func notYetValid() throws {
        let server = try Self.server(TestCertificates.localhost)
        defer { server.stop() }
        var client = Self.transport(trusting: "localhost.pem")
        let result = client.send(Self.get(server.url("/v1/forecast"), at: Self.beforeLocalhost))
        guard case .failure(let error) = result else {
            Issue.record("the certificate was accepted at 2025-03-01, before its notBefore: the verification time was ignored")
            return
        }
        #expect(error.kind == .tls, "\(error)")
        #expect(error.certificateTime == .notYetValid, "\(error)")
        #expect(error.detail.contains("certificate is not yet valid (X509 error 9, checked at 2025-03-01T00:00:00Z)"), "\(error)")
        #expect(error.detail.hasPrefix("127.0.0.1:\(server.port): TLS handshake failed: "), "\(error)")
        #expect(!error.detail.contains("\n"))
        #expect(server.requests.isEmpty)
    }

    @Test("The same certificate at the time now, and with no time (the system clock, right on this machine): 200")
    func validNow() throws {
        let server = try Self.server(TestCertificates.localhost)
        defer { server.stop() }
        var client = Self.transport(trusting: "localhost.pem")
        #expect(try client.send(Self.get(server.url("/v1/forecast"), at: Self.now())).get().status == 200)
        var fresh = Self.transport(trusting: "localhost.pem")
        #expect(try fresh.send(Self.get(server.url("/v1/forecast"), at: nil)).get().status == 200)
    }

    @Test("An expired certificate: .expired now and by the system clock, accepted at a time inside its dates")
    func expired() throws {
        let server = try Self.server(TestCertificates.expired)
        defer { server.stop() }
        var client = Self.transport(trusting: "expired.pem")
        let now = client.send(Self.get(server.url("/v1/forecast"), at: Self.now()))
        #expect(now.failureKind == .tls, "\(now.failureDetail)")
        #expect(now.transportError?.certificateTime == .expired, "\(now.failureDetail)")
        #expect(now.failureDetail.contains("certificate has expired (X509 error 10, checked at "), "\(now.failureDetail)")
        let systemClock = client.send(Self.get(server.url("/v1/forecast"), at: nil))
        #expect(systemClock.transportError?.certificateTime == .expired, "\(systemClock.failureDetail)")
        #expect(systemClock.failureDetail.contains("certificate has expired (X509 error 10)"), "\(systemClock.failureDetail)")
        #expect(server.requests.isEmpty)
        let inside = client.send(Self.get(server.url("/v1/forecast"), at: Self.insideExpired))
        #expect(try inside.get().status == 200)
        #expect(server.requests.count == 1)
    }

    @Test("Other certificate failures carry no certificateTime, with or without a verification time")
    func otherFailures() throws {
        let server = try Self.server(TestCertificates.localhost)
        defer { server.stop() }
        var client = Self.transport(trusting: "other-name.pem")
        for time in [nil, Self.now(), Self.beforeLocalhost] {
            let result = client.send(Self.get(server.url("/v1/forecast"), at: time))
            #expect(result.failureKind == .tls, "\(result.failureDetail)")
            #expect(result.transportError != nil && result.transportError?.certificateTime == nil, "\(result.failureDetail)")
        }
    }

    @Test("One transport, sessions with a past time and with none: each checks at its own time, idle connections included")
    func sessionsApart() throws {
        let server = try Self.server(TestCertificates.localhost)
        defer { server.stop() }
        var client = Self.transport(trusting: "localhost.pem")
        let url = server.url("/v1/forecast")
        let past = client.send(Self.get(url, at: Self.beforeLocalhost))
        #expect(past.transportError?.certificateTime == .notYetValid, "\(past.failureDetail)")
        // The shared SSL_CTX kept the system clock: a session without a time still verifies.
        #expect(try client.send(Self.get(url, at: nil)).get().status == 200)
        #expect(server.connectionsAccepted == 2)
        // Its connection is idle now, verified by the system clock; a request that checks at the
        // past time must not ride on it (it would get a 200), and gets a handshake of its own.
        let pastAgain = client.send(Self.get(url, at: Self.beforeLocalhost))
        #expect(pastAgain.transportError?.certificateTime == .notYetValid, "\(pastAgain.failureDetail)")
        #expect(server.connectionsAccepted == 3)
        // A time inside the certificate's dates may use a verified idle connection.
        #expect(try client.send(Self.get(url, at: nil)).get().status == 200)
        #expect(server.connectionsAccepted == 4)
        #expect(try client.send(Self.get(url, at: Self.now())).get().status == 200)
        #expect(server.connectionsAccepted == 4)
        #expect(server.requests.count == 3)
    }

    @Test("Copies of one transport at once, one checking at a past time and one by the system clock, do not affect each other")
    func concurrentSessions() async throws {
        let server = try Self.server(TestCertificates.localhost)
        defer { server.stop() }
        let client = Self.transport(trusting: "localhost.pem")
        let url = server.url("/v1/forecast")
        let rounds = 20
        // Each task sends `rounds` requests one after another on its own copy, both at once on
        // the shared context and idle pool: "past" must fail every time, "system" succeed.
        let outcomes = await withTaskGroup(of: (Bool, [String]).self) { group in
            for pastTime in [true, false] {
                group.addTask {
                    var copy = client
                    var seen: [String] = []
                    for _ in 0..<rounds {
                        let outcome: String =
                            switch copy.send(Self.get(url, at: pastTime ? Self.beforeLocalhost : nil)) {
                            case .success(let response): "\(response.status)"
                            case .failure(let error): error.certificateTime.map { "\($0)" } ?? "failed: \(error)"
                            }
                        seen.append(outcome)
                    }
                    return (pastTime, seen)
                }
            }
            return await group.reduce(into: [Bool: [String]]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes[true] == Array(repeating: "notYetValid", count: rounds))
        #expect(outcomes[false] == Array(repeating: "200", count: rounds))
        #expect(server.requests.count == rounds)
    }
}

extension Result where Failure == TransportError {
    var transportError: TransportError? {
        if case .failure(let error) = self { error } else { nil }
    }
}

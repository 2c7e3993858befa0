import HAL
import HALSim
import Testing
@testable import Weather

/// The repository through virtual time: first fetch after the first fix, the
/// refresh cadence, backoff with its jitter bounds, stale marking, and a restart with the disk
/// cache and no network. Nothing sleeps; the clock jumps from one due fetch to the next.
@Suite("Weather repository scenarios")
struct RepositoryScenarioTests {
    static let service = OpenMeteoService(identity: ClientIdentity(contact: "test@example.org"))

    static func rig(_ otherwise: ScriptedTransport.Answer = .response(Bodies.openMeteo()), seed: UInt64 = 1)
        -> WeatherRig<OpenMeteoService>
    {
        WeatherRig(service: service, transport: ScriptedTransport(otherwise: otherwise), seed: seed)
    }

    @Test("nothing is fetched before the first fix; the first fix fetches at once")
    func firstFetchAfterFirstFix() throws {
        var rig = Self.rig()
        rig.run(until: Instant.zero + .seconds(600))
        #expect(rig.fetches.isEmpty)
        #expect(rig.repository.state == .idle)
        rig.run(until: rig.clock.now(), position: Bodies.berlin)
        #expect(rig.fetches.count == 1)
        #expect(rig.fetches[0].at == Instant.zero + .seconds(600))
        #expect(rig.transport.requests[0].url.contains("latitude=52.52&longitude=13.41"))
        #expect(rig.repository.state.value?.current?.temperature == 5.5)
        #expect(rig.repository.freshness(at: rig.clock.wallTime()) == .fresh)
    }

    @Test("refresh every 15 minutes plus 0–120 s of jitter, over a day, for several seeds", arguments: [1, 2, 3, 42] as [UInt64])
    func refreshCadence(seed: UInt64) {
        var rig = Self.rig(seed: seed)
        rig.run(until: Instant.zero + .seconds(86_400), position: Bodies.berlin)
        let gaps = rig.gaps
        #expect(gaps.allSatisfy { $0 >= 900 && $0 <= 1020 }, "\(gaps.filter { $0 < 900 || $0 > 1020 })")
        #expect((85...96).contains(rig.fetches.count))
        // The jitter really spreads: not every gap the same.
        #expect(Set(gaps.map { Int($0) }).count > 10)
    }

    @Test("GPS fixes never fetch by themselves; a move over 0.05° does, 60 s after the last fetch at the earliest")
    func earlyRefreshOnMove() throws {
        var rig = Self.rig()
        rig.run(until: rig.clock.now(), position: Bodies.berlin)
        // A fix every second for 5 minutes, wandering by up to 0.04°: no fetch.
        for second in 1...300 {
            let wobble = Double(second % 9) * 0.005
            rig.clock.advance(by: .seconds(1))
            rig.run(until: rig.clock.now(), position: try Coordinate(latitude: 52.5163 + wobble, longitude: 13.4069 - wobble))
        }
        #expect(rig.fetches.count == 1)
        // Moved 0.2° at once: fetch now (it has been more than 60 s).
        rig.run(until: rig.clock.now(), position: try Coordinate(latitude: 52.72, longitude: 13.41))
        #expect(rig.fetches.count == 2)
        #expect(rig.fetches[1].at == Instant.zero + .seconds(300))
        #expect(rig.transport.requests[1].url.contains("latitude=52.72&"))
        // And again 10 s later: it waits until 60 s after the last fetch began.
        rig.clock.advance(by: .seconds(10))
        rig.run(until: rig.clock.now() + .seconds(59), position: try Coordinate(latitude: 52.9, longitude: 13.41))
        #expect(rig.fetches.count == 3)
        #expect(rig.fetches[2].at == Instant.zero + .seconds(360))
    }

    @Test("failures back off 1, 2, 4 … 30 minutes, each within ±20 %, keep the last good value, and recover",
          arguments: [7, 8, 9] as [UInt64])
    func backoff(seed: UInt64) throws {
        var rig = Self.rig(seed: seed)
        rig.run(until: rig.clock.now(), position: Bodies.berlin)
        let good = try #require(rig.repository.state.value)
        let kinds: [ScriptedTransport.Answer] = [
            .response(Bodies.status(503, #"{"error":true,"reason":"The service is overloaded"}"#)),
            .failure(TransportError(.timeout, "timed out")), .failure(TransportError(.connectionRefused, "refused")),
            .response(Bodies.status(200, "{\"truncated\":")), .response(Bodies.status(200, "")),
            .failure(TransportError(.hostNotFound, "no network")), .response(Bodies.status(500)),
            .response(Bodies.status(200, #"{"latitude":"x"}"#)),
        ]
        rig.transport.script = kinds
        rig.run(until: rig.clock.now() + .seconds(4 * 3600))
        // Fetch 0 good, 1 the regular refresh that fails, then the backoff gaps after each failure.
        let gaps = Array(rig.gaps.dropFirst())
        let expected = [60.0, 120, 240, 480, 960, 1800, 1800]
        #expect(gaps.count >= expected.count)
        for (gap, nominal) in zip(gaps, expected) {
            #expect(gap >= nominal * 0.8 - 0.001 && gap <= nominal * 1.2 + 0.001, "gap \(gap) for \(nominal)")
        }
        #expect(zip(gaps, expected).contains { abs($0 - $1) > 1 }, "jitter applied")
        // The last good report stays through every failure, and each failure was logged once.
        #expect(rig.fetches.prefix(9).dropFirst().allSatisfy {
            if case .failure = $0.outcome { return true } else { return false }
        })
        #expect(rig.log.count == 8)
        #expect(rig.log[0].contains("HTTP 503") && rig.log[0].contains("next try in"))
        // After the script the service answers again: back to the 15-minute cadence.
        #expect(rig.repository.state == .success(rig.repository.state.value!))
        #expect(rig.repository.state.value?.current == good.current)
        let last = rig.gaps.last!
        #expect(last >= 900 && last <= 1020)
    }

    @Test("a refusal (400) is not retried until the configuration changes; 429 waits as asked")
    func refusals() throws {
        var rig = Self.rig(.response(Bodies.status(400, #"{"error":true,"reason":"Latitude must be in range"}"#)))
        rig.run(until: rig.clock.now() + .seconds(86_400), position: Bodies.berlin)
        #expect(rig.fetches.count == 1)
        #expect(rig.repository.nextAttempt == nil)
        #expect(rig.repository.state.failure?.isConfigurationProblem == true)
        #expect(rig.log == ["weather: the weather service refused the request (HTTP 400): Latitude must be in range; check the location and settings (not retrying until the configuration changes)"])
        rig.transport.otherwise = .response(Bodies.openMeteo())
        rig.repository.configurationChanged(now: rig.clock.now())
        rig.run(until: rig.clock.now())
        #expect(rig.fetches.count == 2)

        var limited = Self.rig(.response(Bodies.status(429, #"{"error":true,"reason":"Minutely API request limit exceeded. Please try again in one minute."}"#)))
        limited.run(until: limited.clock.now() + .seconds(600), position: Bodies.berlin)
        // 600 s at 60–72 s a try: 9 to 11 fetches, each gap in bounds.
        #expect((9...11).contains(limited.fetches.count), "\(limited.fetches.count)")
        for gap in limited.gaps { #expect(gap >= 60 && gap <= 72) }

        var hourly = Self.rig(.response(Bodies.status(429, #"{"error":true,"reason":"Hourly API request limit exceeded. Please try again in the next hour."}"#)))
        hourly.clock.advance(by: .seconds(1234))
        hourly.run(until: hourly.clock.now() + .seconds(3 * 3600), position: Bodies.berlin)
        #expect(hourly.fetches.count == 4, "the first try, then one after each of the next 3 full hours")
        for fetch in hourly.fetches.dropFirst() {
            // The virtual wall clock starts on a full hour: retries land 0–120 s after one.
            let intoHour = (fetch.at.nanoseconds / 1_000_000_000 + VirtualClock.defaultWallTime.seconds) % 3600
            #expect(intoHour <= 120, "\(intoHour)")
        }
    }

    /// The line read `rate-limiting this device (HTTP 429): ; next try in 120 s (next
    /// try in 129 s)`: an empty reason, and the wait asked for beside the one really taken.
    @Test("a 429 is one clean log line: no empty reason, one \"next try\" with the delay really taken")
    func testRateLimited_LogLine_OneNextTry() throws {
        var rig = Self.rig(.response(HTTPResponse(
            status: 429, headers: [HTTPHeader("Retry-After", "120")], body: Array(#"{"error":true}"#.utf8))))
        rig.run(until: rig.clock.now(), position: Bodies.berlin)
        let next = try #require(rig.repository.nextAttempt)
        let delay = (next - rig.clock.now()).components.seconds
        #expect((120...144).contains(delay), "\(delay)")
        #expect(rig.log == ["weather: the weather service is rate-limiting this device (HTTP 429) (next try in \(delay) s)"])

        var worded = Self.rig(.response(Bodies.status(429, #"{"error":true,"reason":"Minutely API request limit exceeded. Please try again in one minute."}"#)))
        worded.run(until: worded.clock.now(), position: Bodies.berlin)
        let wait = try #require(worded.repository.nextAttempt) - worded.clock.now()
        #expect(worded.log == [
            "weather: the weather service is rate-limiting this device (HTTP 429): Minutely API request limit exceeded."
                + " Please try again in one minute. (next try in \(wait.components.seconds) s)"
        ])
        // Without a repository (`thunderstorm weather`), the service's own wait is the next try.
        #expect(WeatherError.rateLimited(reason: " ", wait: .duration(.seconds(120))).description
            == "the weather service is rate-limiting this device (HTTP 429); next try in 120 s")
    }

    @Test("a server-given wait is capped at 24 h: a huge Retry-After neither retries at once nor silences the device",
          arguments: ["9223372036854775807", "99999999999", "Fri, 31 Dec 9999 23:59:59 GMT", "Sat, 01 Jan 2280 00:00:00 GMT"])
    func retryAfterCapped(header: String) throws {
        var rig = Self.rig(.response(HTTPResponse(
            status: 429, headers: [HTTPHeader("Retry-After", header)],
            body: Array(#"{"error":true,"reason":"Minutely API request limit exceeded."}"#.utf8))))
        rig.run(until: rig.clock.now(), position: Bodies.berlin)
        #expect(rig.fetches.count == 1)
        let now = rig.clock.now()
        let next = try #require(rig.repository.nextAttempt)
        #expect(next > now, "the next attempt must not land in the past")
        #expect(next - now >= .seconds(24 * 3600) && next - now <= .seconds(24 * 3600) * 1.2, "\(next - now)")
        // A day of virtual time: one more try, not thousands.
        rig.run(until: now + .seconds(30 * 3600))
        #expect(rig.fetches.count == 2, "\(rig.fetches.count) fetches")
    }

    @Test("stale after 1 hour, realtime blanked after 3, with the last good report kept")
    func staleMarking() throws {
        var rig = Self.rig()
        rig.run(until: rig.clock.now(), position: Bodies.berlin)
        rig.transport.otherwise = .failure(TransportError(.hostNotFound, "Could not resolve host: api.open-meteo.com"))
        let fetched = rig.clock.wallTime()
        rig.run(until: rig.clock.now() + .seconds(59 * 60))
        #expect(rig.repository.freshness(at: rig.clock.wallTime()) == .fresh)
        rig.run(until: rig.clock.now() + .seconds(60))
        #expect(rig.repository.freshness(at: rig.clock.wallTime()) == .stale(age: rig.clock.wallTime() - fetched))
        rig.run(until: rig.clock.now() + .seconds(2 * 3600))
        #expect(rig.repository.freshness(at: rig.clock.wallTime()) == .expired(age: .seconds(3 * 3600)))
        #expect(rig.repository.state.value?.current?.temperature == 5.5)
        #expect(rig.repository.state.failure?.shortText == "no network")
    }

    @Test("a restart without network shows the disk cache, marked stale, and keeps trying")
    func restartWithDiskCache() throws {
        var first = Self.rig(.response(Bodies.openMeteo(temperature: -2.5)))
        first.run(until: first.clock.now(), position: Bodies.berlin)
        // Rewritten at most hourly: 4 fetches in the first hour leave one write.
        first.run(until: first.clock.now() + .seconds(3000))
        #expect(first.fetches.count == 4)
        // Power cut (what was synced survives), back 2 hours later, no network.
        first.files.crash()
        let clock = VirtualClock(wallTime: first.clock.wallTime() + .seconds(7200))
        var second = WeatherRig(
            service: Self.service, transport: ScriptedTransport(otherwise: .failure(TransportError(.hostNotFound, "no network"))),
            clock: clock, files: first.files)
        #expect(second.restoreFromDisk() == nil)
        let shown = try #require(second.repository.state.value)
        #expect(shown.current?.temperature == -2.5)
        #expect(shown.fetchedAt == VirtualClock.defaultWallTime)
        guard case .stale = second.repository.freshness(at: clock.wallTime()) else {
            Issue.record("expected stale, got \(second.repository.freshness(at: clock.wallTime()))")
            return
        }
        second.run(until: clock.now() + .seconds(180), position: Bodies.berlin)
        #expect(second.fetches.count == 2)  // at once, then 1 min ± 20 % later
        #expect(second.repository.state.value == shown)
    }

    @Test("a damaged or foreign cache file is refused with a reason, not shown")
    func damagedCache() throws {
        var rig = Self.rig()
        rig.run(until: rig.clock.now(), position: Bodies.berlin)
        var bytes = try WeatherCache.load(from: rig.directory, files: &rig.files).get().encoded
        #expect(WeatherCache.decode(bytes).map(\.body) == .success(Bodies.openMeteo().body))
        bytes.removeLast(10)
        #expect(WeatherCache.decode(bytes) == .failure(.damaged("the body is not as long as its header says (torn write?)")))
        #expect(WeatherCache.decode(Array("GIF89a".utf8)).isFailure)
        var empty = CrashableFileSystem()
        #expect(WeatherCache.load(from: "/nowhere", files: &empty) == .failure(.missing))
    }

    @Test("a cache whose fetch time is outside years 1970–9999 is damaged, not trusted",
          arguments: ["9223372036854775807", "-9223372036854775808", "253402300800", "-1", "99999999999999999999", "+5", "1e9"])
    func cacheFetchTimeRange(fetched: String) throws {
        var rig = Self.rig()
        rig.run(until: rig.clock.now(), position: Bodies.berlin)
        let good = try WeatherCache.load(from: rig.directory, files: &rig.files).get()
        let text = String(decoding: good.encoded, as: UTF8.self)
            .replacing("fetched \(good.fetchedAt.seconds)\n", with: "fetched \(fetched)\n")
        #expect(text.contains("fetched \(fetched)\n"))
        guard case .failure(.damaged(let why)) = WeatherCache.decode(Array(text.utf8)) else {
            Issue.record("a fetch time of \(fetched) was accepted")
            return
        }
        #expect(why.contains("fetch time"), "\(why)")
        // The last second of 9999 is still a time the device can show.
        let edge = text.replacing("fetched \(fetched)\n", with: "fetched 253402300799\n")
        let cache = try WeatherCache.decode(Array(edge.utf8)).get()
        let report = try cache.report(using: Self.service).get()
        _ = RefreshPolicy.standard.freshness(of: report, at: rig.clock.wallTime())
    }

    @Test("a Last-Modified the cache cannot hold (long, not ASCII, a line break) is left out, not written into an unreadable file",
          arguments: [String(repeating: "x", count: 300), "Thu, 15 Jan 2026 07:16:40 GM\u{FFFD}", "Thu,\n15 Jan"])
    func cacheValidatorItCannotHold(lastModified: String) throws {
        let cache = WeatherCache(
            provider: .openMeteo, fetchedAt: WallTime(seconds: 1_768_461_300), position: Bodies.berlin,
            lastModified: lastModified, body: Bodies.openMeteo().body)
        let again = try WeatherCache.decode(cache.encoded).get()
        #expect(again.lastModified == nil)
        #expect(again.body == cache.body && again.fetchedAt == cache.fetchedAt)
        #expect(WeatherCache.decode(again.encoded) == .success(again))
    }

    @Test("a full disk fails the cache write with an I/O error and leaves the old copy")
    func fullDisk() throws {
        var rig = Self.rig()
        rig.run(until: rig.clock.now(), position: Bodies.berlin)
        let before = try WeatherCache.load(from: rig.directory, files: &rig.files).get()
        rig.files.failNext(.write, with: .noSpace)
        let cache = WeatherCache(provider: .openMeteo, fetchedAt: WallTime(seconds: 1), position: Bodies.berlin, lastModified: nil, body: [1, 2, 3])
        guard case .failure(.io(let error)) = cache.save(in: rig.directory, files: &rig.files) else {
            Issue.record("expected an I/O failure")
            return
        }
        #expect(error.kind == .noSpace)
        #expect(try WeatherCache.load(from: rig.directory, files: &rig.files).get() == before)
    }

    @Test("wipe forgets the weather; the next fix fetches again")
    func wipe() {
        var rig = Self.rig()
        rig.run(until: rig.clock.now(), position: Bodies.berlin)
        rig.repository.wipe()
        #expect(rig.repository.state == .idle && rig.repository.position == nil && rig.repository.nextAttempt == nil)
        #expect(!WeatherCache.remove(from: rig.directory, files: &rig.files).isFailure)
        #expect(!WeatherCache.remove(from: rig.directory, files: &rig.files).isFailure)
        rig.run(until: rig.clock.now() + .seconds(1), position: Bodies.berlin)
        #expect(rig.fetches.count == 2)
        // A fetch still on its way when the weather is wiped is dropped when it comes back.
        rig.clock.advance(by: .seconds(1200))
        let order = rig.repository.nextOrder(now: rig.clock.now())
        #expect(order != nil && rig.repository.state.isLoading)
        rig.repository.wipe()
        let late = Bodies.openMeteo(temperature: 30)
        let report = try? Self.service.decode(late, for: order!, receivedAt: rig.clock.wallTime()).get()
        #expect(report != nil)
        #expect(rig.repository.complete(.success(report!), receivedAt: rig.clock.now(), base: rig.base).isEmpty)
        #expect(rig.repository.state == .idle)
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}

extension Result: @retroactive Equatable where Success: Equatable, Failure: Equatable {}

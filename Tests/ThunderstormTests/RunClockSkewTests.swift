import App
import Core
import Foundation
import GPS
import Glibc
import Graphics
import HAL
import HALLinux
import HALSim
import HTTPTesting
import Screens
import Synchronization
import Testing
import Weather

/// Through the real daemon: a Pi has no real-time clock, so after a boot without
/// network its system clock is what fake-hwclock saved, days off. Here the GPS on a pty says it
/// is 3 days later than the system clock, and the forecast server on 127.0.0.1 answers for that
/// true time. The review saw the server get its GET and the glass show `--°C`, no icon, `--%`,
/// `-- km/h` and no hours: the report was stamped with the raw system clock and aged against GPS
/// time. The glass is read back with the project's glass reader and compared, string by string
/// and icon by icon, with what the screens' layout draws for the forecast the server sent.
extension RunEndToEndTests {
    /// GPS time minus the system clock.
    static let skew = Duration.seconds(3 * 86_400)
    static let berlin = (latitude: 52.52, longitude: 13.405)

    /// When the forecast arrives: at once, under the unsure system clock (its stamp is redone
    /// when GPS time takes over), or held by the server until GPS time rules (the fetch was
    /// ordered under the system clock and is stamped when it completes).
    enum SkewAnswer: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case atOnce = "answered at once"
        case heldPastTheSwitch = "answered after the switch to GPS time"
        var testDescription: String { rawValue }
    }

    @Test(
        "clock skew: GPS 3 days ahead of an unsynchronised system clock, the glass shows the fetched weather by GPS time",
        arguments: SkewAnswer.allCases)
    func clockSkewGPSAheadShowsTheWeather(answer: SkewAnswer) throws {
        let directory = try Self.temporaryDirectory("skew")
        defer { try? FileManager.default.removeItem(at: directory) }
        var files = HostFiles()
        guard case .success(let zone) = ZoneRules.load(identifier: "Europe/Berlin", files: &files) else {
            Issue.record("no tzdata for Europe/Berlin on this machine")
            return
        }
        let forecast = try SkewedForecastServer(skew: Self.skew, zone: zone, holding: answer == .heldPastTheSwitch)
        defer { forecast.server.stop() }
        let (master, slave) = try GPSMonitorEndToEndTests.openPseudoTerminal()
        defer { close(master) }
        let gps = EpochFeeder(master: master, startTime: SkewedForecastServer.trueTime(Self.skew), place: Self.berlin)
        defer { gps.stop() }
        // The kernel of a CI machine may be synchronised; this one's is not, as a Pi's after such a boot.
        let daemon = try Daemon(
            board: Self.skewBoard(gps: slave, baseURL: forecast.server.baseURL), directory: directory,
            extra: ["--assume-clock-unsynchronised"])

        // The GET reached the server (at start: the board's default place) under the system
        // clock, then the daemon took GPS time for the clock.
        try #require(daemon.waitForLog(seconds: 20, "clock: now GPS time"), "no switch to GPS time: \(daemon.stderr.text)")
        #expect(forecast.server.requests.contains { $0.method == "GET" && $0.path == "/v1/forecast" }, "no GET before the switch")
        switch answer {
        case .atOnce: #expect(!forecast.served().isEmpty, "the forecast was not answered before the switch")
        case .heldPastTheSwitch:
            // The first GPS time vouched for may be a cycle late (the epochs close when the next
            // one starts until the assembler learns the cycle's last sentence), and then steps
            // by about 1 s; a step re-stamps the weather, which would hide the stamp the
            // completion gives. The answer goes out once that has happened (or 3 s passed).
            _ = daemon.waitForLog(seconds: 3, "GPS time stepped")
            #expect(forecast.served().isEmpty, "the held answer went out early")
            forecast.release()
        }
        let asked = Self.waitUntil(seconds: 15, daemon) { !forecast.served().isEmpty }
        try #require(asked, "the server got no GET; stderr: \(daemon.stderr.text)")

        // The now screen: the temperature, the icon, humidity, wind and the clock by GPS time.
        var last = GlassReading(text: [])
        var expected = Self.layout(try Self.expectedModel(forecast, zone), .now)
        let now = Self.waitUntil(seconds: 20, daemon) {
            guard let reading = try? daemon.reading() else { return false }
            last = reading
            guard let model = try? Self.expectedModel(forecast, zone) else { return false }
            expected = Self.layout(model, .now)
            return Self.shows(reading, expected, reachX: Orbit.reachX(.now, model), skippingRow: 0)
        }
        #expect(now, "the now screen is not the forecast's: read \(last.text) \(last.icons), expected \(expected.texts) \(expected.icons); stderr: \(daemon.stderr.text)")
        #expect(!last.text.contains { $0.text.hasPrefix("--") }, "a blank value on the glass: \(last.text)")

        // The hours screen (C held: next screen): the coming hours, not an empty strip.
        daemon.press("C")
        let hours = Self.waitUntil(seconds: 10, daemon) {
            guard let reading = try? daemon.reading() else { return false }
            last = reading
            guard let model = try? Self.expectedModel(forecast, zone) else { return false }
            expected = Self.layout(model, .hours)
            return Self.shows(reading, expected, reachX: Orbit.reachX(.hours, model), skippingRow: nil)
        }
        #expect(hours, "the hours screen is not the forecast's: read \(last.text), expected \(expected.texts); stderr: \(daemon.stderr.text)")
        #expect(last.icons.count == 4, "\(last.icons)")

        // What systemd sees: no unsure clock, the weather fetched.
        let statuses = Self.statuses(daemon.messages)
        #expect(statuses.last.map { $0.contains("Net ok") && !$0.contains("Clock") } == true, "\(statuses)")
        daemon.signal(SIGTERM)
        #expect(daemon.exit(within: 2) == 0)
    }

    /// The board file: the GPS on `gps`, the forecast from `baseURL`, the display simulated
    /// (its glass written by `--glass`), the rest simulated.
    static func skewBoard(gps: String, baseURL: String) -> String {
        """
        {
          "schema": 1,
          "name": "E2E skewed clock",
          "gps": { "device": "\(gps)", "baud": 9600 },
          "display": { "kind": "ssd1306", "simulated": true },
          "buttons": [
            { "name": "A", "simulated": true },
            { "name": "B", "simulated": true },
            { "name": "C", "simulated": true }
          ],
          "sensor": { "kind": "bme280", "simulated": true },
          "weather": { "baseURL": "\(baseURL)" },
          "defaultLocation": { "name": "Berlin", "latitude": 52.52, "longitude": 13.405 },
          "timeZone": "Europe/Berlin"
        }
        """
    }

    /// What the screens should show now: the last body the server sent, decoded as the device
    /// decodes it when it arrives at GPS time, at the GPS time of this moment, in the place's zone.
    static func expectedModel(_ forecast: SkewedForecastServer, _ zone: ZoneRules) throws -> ScreenModel {
        let now = SkewedForecastServer.trueTime(skew)
        let local = CivilDateTime(now, offsetSeconds: zone.offset(at: now))
        let last = try #require(forecast.served().last, "no body served yet")
        let place = try Coordinate(latitude: berlin.latitude, longitude: berlin.longitude)
        let decoded = OpenMeteoService(identity: ClientIdentity(contact: nil))
            .decode(HTTPResponse(status: 200, body: last.body), for: FetchOrder(position: place), receivedAt: last.at)
        guard case .success(.report(let report, _)) = decoded else {
            throw ExpectationFailure("the served body does not decode: \(decoded)")
        }
        // The next two hours as the device decides them (OutlookRules' standard ages are the
        // repository's standard policy's).
        let outlook = NowcastOutlook.summarise(nowcast: report.nowcast, hours: report.hours, now: now, fetchedAt: report.fetchedAt)
        return ScreenModel(
            clock: ClockTime(hour: local.hour, minute: local.minute), place: Place(name: "", source: .gps), gps: .fix,
            weather: WeatherPanel(state: .success(report), now: now, zone: zone),
            outlook: outlook.map { OutlookLine($0, now: now, zone: zone) })
    }

    struct ExpectationFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// What `screen` draws for `model` on the daemon's 128×64 OLED: into the canvas the
    /// burn-in orbit leaves (`Orbit.canvas`), which the device then moves by up to its reach.
    static func layout(_ model: ScreenModel, _ screen: Screen) -> OLEDLayout {
        let canvas = Orbit.canvas(reachX: Orbit.reachX(screen, model), width: 128, height: 64)
        return OLEDLayout(model, screen, width: canvas.width, height: canvas.height)
    }

    /// Whether, at one of the orbit's offsets, every string the layout draws (but those at
    /// y == `skippingRow`: the place's name, which the device looks up) is read where it is
    /// drawn, the icons are the layout's, and nothing else is lit.
    static func shows(_ reading: GlassReading, _ layout: OLEDLayout, reachX: Int, skippingRow: Int?) -> Bool {
        guard layout.texts.count > 3, reading.unreadPixels == 0 else { return false }
        let order = { (a: GlassIcon, b: GlassIcon) in (a.y, a.x) < (b.y, b.x) }
        let read = reading.icons.sorted(by: order)
        for dy in 0...Orbit.reach.y {
            for dx in 0...reachX {
                let texts = layout.texts.filter { $0.y != skippingRow }.allSatisfy {
                    reading.contains($0.text, x: $0.x + dx, y: $0.y + dy, font: $0.font)
                }
                var icons = layout.icons
                for i in icons.indices {
                    icons[i].x += dx
                    icons[i].y += dy
                }
                if texts && icons.sorted(by: order) == read { return true }
            }
        }
        return false
    }

    /// Keeps reading the daemon's log and datagrams until `done` holds or `seconds` pass.
    static func waitUntil(seconds: Double, _ daemon: Daemon, _ done: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if done() { return true }
            daemon.stderr.drain(timeout: 0.1)
            while let message = daemon.notify.receive(timeout: 0.05) { daemon.messages.append((Date(), message)) }
        }
        return done()
    }
}

extension RunEndToEndTests.Daemon {
    /// The simulated panel's glass as the project's glass reader reads it (`thunderstorm glass`).
    func reading() throws -> GlassReading {
        let image = try PanelImage(pbm: [UInt8](try Data(contentsOf: glassPath)))
        return GlassReader().read(width: image.width, height: image.height, pixels: image.pixels)
    }
}

/// Open-Meteo on 127.0.0.1: each GET answered by the simulation's twin of the service
/// (`SimulatedOpenMeteo`: the real format, values deterministic in place and time) for the true
/// time, the system clock plus `skew`; each body sent is kept with the time it was built for.
/// `holding`: answers wait for `release()` (at most 15 s, under the client's 20 s timeout).
final class SkewedForecastServer: Sendable {
    let server: LoopbackHTTPServer
    let bodies = Bodies()

    func release() { bodies.released.store(true, ordering: .relaxed) }
    /// Every 200 body sent, with the true time it was built for.
    func served() -> [(body: [UInt8], at: WallTime)] { bodies.list.withLock { $0 } }

    final class Bodies: Sendable {
        let list = Mutex<[(body: [UInt8], at: WallTime)]>([])
        let released = Atomic<Bool>(false)
    }

    init(skew: Duration, zone: ZoneRules, holding: Bool) throws {
        server = try LoopbackHTTPServer()
        let twin = SimulatedOpenMeteo(now: { Self.trueTime(skew) }, zone: zone, zoneName: "Europe/Berlin")
        server.route("/v1/forecast") { [bodies] request in
            let deadline = ContinuousClock.now + .seconds(15)
            while holding, !bodies.released.load(ordering: .relaxed), ContinuousClock.now < deadline { usleep(10_000) }
            var service = twin
            let at = Self.trueTime(skew)
            service.now = { at }
            switch service.send(HTTPRequest(url: "http://127.0.0.1\(request.target)")) {
            case .success(let response):
                if response.status == 200 { bodies.list.withLock { $0.append((response.body, at)) } }
                return .response(
                    status: response.status, headers: response.headers.map { .init($0.name, $0.value) }, body: response.body)
            case .failure:
                return .closeWithoutResponse
            }
        }
    }

    /// The system clock plus `skew`: the time the GPS and the forecast agree on.
    static func trueTime(_ skew: Duration) -> WallTime {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return WallTime(seconds: Int64(now.tv_sec), nanoseconds: Int32(now.tv_nsec)) + skew
    }
}

/// A receiver at rest with a 3D fix: RMC, GGA and GSA (`NMEARouteScript`, valid checksums) once
/// a second on the pty's master, on a thread of its own so the epochs keep to the monotonic
/// second the device's `ClockGate` checks them against (250 ms). Epoch k is written at
/// start + k s and says `startTime` + k s.
final class EpochFeeder: Sendable {
    let running = Atomic<Bool>(true)
    let finished = Mutex<Bool>(false)

    init(master: Int32, startTime: WallTime, place: (latitude: Double, longitude: Double)) {
        let script = NMEARouteScript(
            waypoints: [.init(latitude: place.latitude, longitude: place.longitude)], speed: 0, startTime: startTime)
        let thread = Thread { [self] in
            let start = ContinuousClock.now
            var epoch = 0
            while running.load(ordering: .relaxed) {
                let bytes = script.sentences(epoch: epoch)
                _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                epoch += 1
                // Sleeps in short steps, so `stop` does not wait for a whole second.
                while running.load(ordering: .relaxed), ContinuousClock.now < start + .seconds(epoch) {
                    usleep(20_000)
                }
            }
            finished.withLock { $0 = true }
        }
        thread.start()
    }

    /// Stops the thread and waits for it (the master is closed after this).
    func stop() {
        running.store(false, ordering: .relaxed)
        while !finished.withLock({ $0 }) { usleep(5_000) }
    }
}

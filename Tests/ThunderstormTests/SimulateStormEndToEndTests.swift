import Foundation
import Testing

/// The default `simulate` as a newcomer runs it, headless: the scripted storm reaches the
/// simulated BME280 and the storm alarm is in the log within 10 simulated hours (a minute at
/// `--speed 600`), and the report says what each state file cost the card.
@Suite("simulate end to end: the barograph")
struct SimulateStormEndToEndTests {
    typealias E2E = BoardCheckEndToEndTests

    @Test("the default simulation logs the storm alarm within 10 simulated hours; the report has bytes per file")
    func stormWithinTenHours() throws {
        let run = try E2E.run(["simulate", "--headless", "--duration", "36000", "--start", "2026-06-21T00:00:00Z"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try SimulateEndToEndTests.report(run)
        let timeline = try #require(report["timeline"] as? [[String: Any]])
        let alarms = timeline.filter { ($0["event"] as? String)?.contains("storm alarm:") == true }
        #expect(alarms.count == 1, "\(alarms)")
        let at = try #require(alarms.first?["t"] as? Double)
        #expect(at < 36_000, "raised at \(at) s")
        let store = try #require(report["store"] as? [String: Any])
        let files = try #require(store["files"] as? [String: [String: Any]])
        let history = try #require(files["barograph.history"])
        // Ten hours: the first sample's write and one an hour after it.
        #expect((9...11).contains(history["syncs"] as? Int ?? 0), "\(history)")
        #expect((history["bytes_written"] as? Int ?? 0) > 0)
        let total = files.values.reduce(0) { $0 + ($1["bytes_written"] as? Int ?? 0) }
        #expect(total == store["bytes_written"] as? Int, "the files do not add up to the medium's bytes: \(files)")
    }

    /// No one acknowledges the storm: the banner is up from 3.7 h to 8.7 h of the day. A bar
    /// lit all that time lit its strip 54 % of the day; alternating keeps every pixel at most
    /// half of the day (docs/design/parts.md#burn-in).
    @Test("an unattended storm alarm keeps every OLED pixel lit at most half of the day")
    func unattendedAlarmBurnIn() throws {
        let run = try E2E.run(["simulate", "--headless", "--duration", "86400", "--start", "2026-06-21T00:00:00Z"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try SimulateEndToEndTests.report(run)
        let timeline = try #require(report["timeline"] as? [[String: Any]])
        #expect(timeline.contains { ($0["event"] as? String)?.hasPrefix("storm alarm:") == true })
        #expect(!timeline.contains { ($0["event"] as? String)?.hasPrefix("storm alarm acknowledged") == true })
        let display = try #require(report["display"] as? [String: Any])
        let lit = try #require(display["max_pixel_lit_fraction"] as? Double)
        #expect(lit <= 0.5, "pixel \(display["max_pixel"] ?? "?") lit \(lit) of the day")
    }
}

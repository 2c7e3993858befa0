import App
import Core
import HAL
import HALSim
import Screens
import Testing
import Weather
import Board
import Drivers

/// The clock's source and the local time across a DST change.
@Suite("Device: clock and zone")
struct ClockTests {
    @Test("the spring-forward night in Berlin: 01:59 CET is followed by 03:00 CEST on the clock and the hours", .enabled(if: DeviceRig.hasZones))
    func springForward() {
        // 2026-03-29 01:00 UTC: 02:00 CET becomes 03:00 CEST.
        let board = DeviceRig.make(start: DeviceRig.at(2026, 3, 28, 23, 30))
        board.advance(by: .seconds(60))
        #expect(board.device.state.zone.identifier == "Europe/Berlin")
        #expect(board.device.state.model.clock == ClockTime(hour: 0, minute: 31))
        board.advance(to: board.startInstant + .seconds(89 * 60 + 30))  // 00:59:30 UTC
        #expect(board.device.state.model.clock == ClockTime(hour: 1, minute: 59))
        board.advance(by: .seconds(60))  // 01:00:30 UTC
        #expect(board.device.state.model.clock == ClockTime(hour: 3, minute: 0))
        let hours = board.device.state.model.weather.forecast?.hours.map(\.time.hour) ?? []
        #expect(!hours.contains(2), "02:00 does not exist that night: \(hours)")
        DeviceRig.expectGlassAgrees(board)
    }

    @Test("without a synchronised system clock the time comes from GPS once two epochs agree, and the status says so")
    func gpsTime() {
        let board = DeviceRig.make { $0.systemClock = .unsynchronised }
        board.advance(by: .seconds(2))
        #expect(board.device.state.model.clock?.unsure == true, "no time anyone vouches for: the system clock's, marked unsure")
        #expect(DeviceRig.line(board, "Clock")?.isProblem == true)
        board.advance(by: .seconds(60))
        #expect(board.device.state.clockSource == .gps)
        #expect(board.device.state.model.clock != nil)
        #expect(DeviceRig.line(board, "Clock")?.text.hasPrefix("GPS") == true)
    }

    @Test("with the system clock synchronised the status says NTP; the zone is UTC until the service names one")
    func systemTime() {
        let board = DeviceRig.make { $0.weather = .offline }
        board.advance(by: .seconds(2))
        #expect(board.device.state.clockSource == .system)
        #expect(board.device.state.zoneSource == .utc)
        #expect(DeviceRig.line(board, "Clock")?.text == "NTP, UTC, no zone")
        #expect(board.device.state.model.clock == ClockTime(hour: 10, minute: 0))
    }

    @Test("with no network the first fix gives the zone from the position table", .enabled(if: DeviceRig.hasZones))
    func zoneFromPositionOffline() {
        let board = DeviceRig.make { $0.weather = .offline }
        board.advance(by: .seconds(10))
        let state = board.device.state
        #expect(state.gps.kind == .fix)
        #expect(state.weather.state.value == nil)
        #expect(state.zoneSource == .position)
        #expect(state.zone.identifier == "Europe/Berlin")
        #expect(DeviceRig.line(board, "Clock")?.text == "NTP, Europe/Berlin")
        #expect(board.timeline.contains { $0.text == "zone: Europe/Berlin from the GPS position (the position table)" })
    }
}

/// `automatic` brightness follows the sun at the shown place.
@Suite("Device: night dimming")
struct DimmingTests {
    static func contrast(_ board: SimulatedBoard) -> (contrast: UInt8, precharge: UInt8)? {
        guard case .oled(let model) = board.panel else { return nil }
        return (model.registers.contrast, model.registers.precharge)
    }

    @Test("after sunset in Berlin the panel gets the night level (contrast and pre-charge), after sunrise the day level")
    func sunsetAndSunrise() {
        // 2026-06-21: sunset in Berlin about 19:33 UTC, sunrise about 02:43 UTC.
        let board = DeviceRig.make(start: DeviceRig.at(2026, 6, 21, 19, 0))
        board.advance(by: .seconds(60))
        let day = OLEDProfile.ssd1306_128x64.normal
        let night = OLEDProfile.ssd1306_128x64.dim
        #expect(Self.contrast(board)?.contrast == day.contrast)
        #expect(!board.device.state.dimmed)
        board.advance(by: .seconds(3600))  // 20:01 UTC
        #expect(board.device.state.dimmed)
        #expect(Self.contrast(board)?.contrast == night.contrast && Self.contrast(board)?.precharge == night.precharge)
        board.advance(to: board.startInstant + .seconds(8 * 3600))  // 03:00 UTC
        #expect(!board.device.state.dimmed)
        #expect(Self.contrast(board)?.contrast == day.contrast)
    }

    @Test("the brightness button: automatic → always bright → always dim, each a commit, applied at once")
    func policy() {
        let json = ReferenceBoard.json.replacing("\"longPress\": \"next-screen\"", with: "\"longPress\": \"cycle-brightness\"")
        guard case .success(let config) = BoardFile.check(Array(json.utf8)) else {
            Issue.record("the modified board does not validate")
            return
        }
        let board = DeviceRig.make { $0.board = config }
        board.advance(by: .seconds(10))
        ButtonScenarioTests.press(board, 2, hold: .milliseconds(1000))
        #expect(board.device.state.store.settings.brightness == .alwaysBright)
        ButtonScenarioTests.press(board, 2, hold: .milliseconds(1000))
        #expect(board.device.state.store.settings.brightness == .alwaysDim)
        #expect(board.device.state.dimmed)
        #expect(Self.contrast(board)?.contrast == OLEDProfile.ssd1306_128x64.dim.contrast)
    }
}

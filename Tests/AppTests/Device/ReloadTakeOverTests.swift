@testable import App
import Core
import Drivers
import HAL
import HALSim
import Screens
import Testing
import Weather

/// A reload's new device takes over the parts that did not change, with their state: the
/// panel is not initialised again (no blank flash), the sensor is not identified and
/// calibrated again and keeps its last reading, and a press in progress on kept buttons ends
/// as the gesture it began as. Each check is made against a device built the way a reload
/// builds one, on the same twins.
@Suite("Device: a reload takes over unchanged parts")
struct ReloadTakeOverTests {
    typealias SimDevice = SimulatedBoard.SimDevice

    /// The next device, built from `old`'s parts as `DaemonBoard` builds a reload's: the same
    /// bus, buttons, GPS service, store and network; the drivers moved out of `old` when kept.
    static func successor(of old: SimDevice, board: SimulatedBoard, keeping kept: SimDevice.KeptParts) -> SimDevice {
        let display = (kept.display ? old.surrenderDisplay() : nil) ?? DisplayUnit(DeviceRig.board.display, bus: board.bus)
        let sensor = (kept.sensor ? old.surrenderSensor() : nil) ?? DeviceRig.board.sensor.map { BME280($0, bus: board.bus) }
        let next = SimDevice(
            options: old.state.options, clock: old.clock, location: old.location, inputs: old.inputs,
            timing: DeviceRig.board.buttons.map { ButtonTiming(debounce: $0.debounce, longPress: $0.longPressDuration) },
            activeLow: DeviceRig.board.buttons.map(\.activeLow), store: old.store, stateDirectory: old.stateDirectory,
            files: old.files, display: display, sensor: sensor, link: old.link, service: OpenMeteoService(identity: ClientIdentity(contact: nil)),
            dependencies: old.dependencies, seed: 1)
        old.close()
        next.resume(after: old, keeping: kept)
        return next
    }

    /// Runs `device` (not the board's own) on the board's clock for `duration`, a wake-up
    /// every 10 ms.
    static func run(_ device: SimDevice, _ board: SimulatedBoard, for duration: Duration) {
        let end = board.clock.now() + duration
        while board.clock.now() < end {
            board.clock.advance(by: .milliseconds(10))
            device.service()
        }
    }

    /// Whether `entries` hold the SSD1306's initialisation: a command transaction (control
    /// byte 00h) that begins with display off (AEh), as the sequence of the data sheet's
    /// application note does (SSD1306 §8.9, "Software initialization").
    static func initialises(_ entries: some Collection<I2CTransactionLog.Entry>, address: UInt8) -> Bool {
        entries.contains { entry in
            guard case .write(address, let bytes, _) = entry, bytes.count >= 2 else { return false }
            return bytes[bytes.startIndex] == 0x00 && bytes[bytes.startIndex + 1] == 0xAE
        }
    }

    /// Whether `entries` read the BME280's chip identifier (register D0h, data sheet §5.4.1):
    /// what a driver that starts afresh does first.
    static func identifiesSensor(_ entries: some Collection<I2CTransactionLog.Entry>) -> Bool {
        entries.contains { entry in
            guard case .write(0x76, let bytes, _) = entry else { return false }
            return bytes.first == 0xD0
        }
    }

    @Test("a kept panel is not initialised again, and the first frame matches the state")
    func keptDisplayIsNotInitialisedAgain() throws {
        let board = DeviceRig.make()
        board.advance(by: .seconds(90))
        board.bus.isLogging = true
        let mark = board.bus.log.count
        let next = Self.successor(of: board.device, board: board, keeping: .init(display: true, sensor: true, buttons: true))
        next.start()
        Self.run(next, board, for: .seconds(2))
        let since = board.bus.log[mark...]
        #expect(!Self.initialises(since, address: board.displayAddress), "the kept panel was initialised again (a blank flash)")
        #expect(board.glass == DeviceRig.expectedGlass(next.state), "the glass is not the new device's frame")
        #expect(board.panelErrors.isEmpty, "\(board.panelErrors)")
        #expect(board.device.oled == nil, "the old device still holds the driver")
    }

    @Test("a display that is not kept is initialised (the check above can fail)")
    func newDisplayIsInitialised() {
        let board = DeviceRig.make()
        board.advance(by: .seconds(90))
        board.bus.isLogging = true
        let mark = board.bus.log.count
        let next = Self.successor(of: board.device, board: board, keeping: .none)
        next.start()
        Self.run(next, board, for: .seconds(2))
        #expect(Self.initialises(board.bus.log[mark...], address: board.displayAddress))
        #expect(Self.identifiesSensor(board.bus.log[mark...]))
    }

    @Test("a kept sensor keeps its reading and is not identified again")
    func keptSensorKeepsItsReading() throws {
        let board = DeviceRig.make()
        board.advance(by: .seconds(90))
        let reading = try #require(board.device.state.indoor, "no indoor reading after 90 s")
        board.bus.isLogging = true
        let mark = board.bus.log.count
        let next = Self.successor(of: board.device, board: board, keeping: .init(display: true, sensor: true, buttons: true))
        next.start()
        #expect(next.state.indoor == reading, "the kept sensor's reading is gone until the next one")
        Self.run(next, board, for: .seconds(70))
        #expect(!Self.identifiesSensor(board.bus.log[mark...]), "the kept sensor was identified and calibrated again")
        #expect(next.state.indoor != nil)
    }

    @Test("a long press in progress across the reload ends as a long press")
    func keptButtonsFinishAPress() {
        let board = DeviceRig.make()
        board.advance(by: .seconds(5))
        let before = board.device.state.screen
        // C (line 2): a long press is the next screen. Held 1.2 s; the reload comes 0.5 s in.
        board.buttons.press(2, holdFor: .milliseconds(1200))
        board.advance(by: .milliseconds(500))
        let next = Self.successor(of: board.device, board: board, keeping: .init(display: true, sensor: true, buttons: true))
        next.start()
        Self.run(next, board, for: .seconds(2))
        #expect(next.state.screen != before, "the long press begun before the reload was lost")
    }

    @Test("a kept display whose adapter is gone is failing in the new device at once (the daemon's READY=1 waits on it)")
    func keptFailingDisplayStaysFailing() throws {
        let board = DeviceRig.make()
        board.advance(by: .seconds(30))
        board.bus.unplugAdapter()
        board.advance(by: .seconds(40))
        let failing = board.device.state.display
        #expect(failing != .ok, "the unplugged adapter was not noticed")
        let next = Self.successor(of: board.device, board: board, keeping: .init(display: true, sensor: true, buttons: true))
        next.start()
        Self.run(next, board, for: .milliseconds(100))
        // Before the fix the new device said `.ok` until a try that was no longer news to it, so
        // the daemon's readiness (a frame, or a display not ok) never came and the reload hung.
        #expect(next.state.display == failing)
        #expect(next.counters.frames == 0)
        board.bus.plugAdapterIn()
        Self.run(next, board, for: .seconds(20))
        #expect(next.state.display == .ok, "the kept display did not come back with its adapter")
        #expect(board.glass == DeviceRig.expectedGlass(next.state))
    }

    @Test("an acknowledged storm alarm stays acknowledged across a reload; a new threshold starts afresh")
    func stormAlarmEpisodeIsKept() {
        let board = DeviceRig.make()
        board.advance(by: .seconds(30))
        var alarm = StormAlarm()
        let falling = PressureTendency(threeHoursAgo: 1004.5, halfway: 1002.5, now: 1000)
        let raised = alarm.update(.sure(falling))
        #expect(raised == .raised(falling))
        let acknowledged = alarm.acknowledge()
        #expect(acknowledged)
        board.device.send(.stormAlarmResumed(alarm))
        #expect(board.device.state.stormAlarm == alarm)
        let next = Self.successor(of: board.device, board: board, keeping: .init(display: true, sensor: true, buttons: true))
        next.start()
        Self.run(next, board, for: .milliseconds(100))
        // Before, the new device began a fresh alarm, and its first sample of the same fall
        // raised (and logged) the acknowledged storm again.
        #expect(next.state.stormAlarm == alarm)
        var again = next.state.stormAlarm
        let change = again.update(.sure(falling))
        #expect(change == nil, "the same fall raised the alarm again after the reload")
    }
}

import App
import Core
import HAL
import HALSim
import Screens
import Store
import Testing
import Board

/// Every default button action on the reference board, through the
/// bouncing contacts, the debouncer, the reducer, the store and the display.
@Suite("Device: buttons")
struct ButtonScenarioTests {
    /// A press that bounces like a tact switch (`BounceProfile.typical`).
    /// The reference board with C's short press mapped to remove-location.
    static func removingBoard() throws -> BoardConfig {
        let json = ReferenceBoard.json.replacing(
            "\"press\": \"cycle-time-notation\"", with: "\"press\": \"remove-location\"")
        guard case .success(let config) = BoardFile.check(Array(json.utf8)) else {
            throw BoardNotValid()
        }
        return config
    }

    struct BoardNotValid: Error {}

    static func press(_ board: SimulatedBoard, _ button: Int, hold: Duration = .milliseconds(120)) {
        board.buttons.press(button, holdFor: hold, bounce: .typical)
        board.advance(by: hold + .milliseconds(200))
    }

    @Test("short presses cycle °C/°F, metric/imperial and 24/12-hour, one durable commit each", arguments: [1, 2, 3] as [UInt64])
    func shortPresses(seed: UInt64) {
        let board = DeviceRig.make { $0.seed = seed }
        board.advance(by: .seconds(10))
        let sequence = board.device.store.sequence
        Self.press(board, 0)
        #expect(board.device.state.store.settings.temperature == .fahrenheit)
        DeviceRig.expectGlassAgrees(board)
        Self.press(board, 1)
        #expect(board.device.state.store.settings.units == .imperial)
        Self.press(board, 2)
        #expect(board.device.state.store.settings.time == .twelveHour)
        #expect(board.device.store.sequence == sequence + 3, "bounce must never give two commits")
        #expect(board.device.counters.gestures == 3)
        DeviceRig.expectGlassAgrees(board)
        // And back.
        Self.press(board, 0)
        #expect(board.device.state.store.settings.temperature == .celsius)
    }

    @Test("long presses: save the position, next place, next screen; nothing more on release")
    func longPresses() {
        let board = DeviceRig.make()
        board.advance(by: .seconds(10))
        Self.press(board, 1, hold: .milliseconds(1500))  // B long: save the position
        #expect(board.device.state.store.locations.count == 1)
        let saved = board.device.state.store.locations[0]
        #expect(saved.name.value == "near Mitte", "named after the nearest populated place")
        #expect(board.device.state.store.settings.units == .metric, "the release after a long press is silent")
        Self.press(board, 0, hold: .milliseconds(1500))  // A long: next place
        #expect(board.device.state.shown == .saved(saved.id))
        #expect(board.device.state.model.place == Place(name: saved.name.value, source: .saved(index: 1, count: 1)))
        Self.press(board, 0, hold: .milliseconds(1500))  // and back to the GPS entry
        #expect(board.device.state.shown == .here)
        Self.press(board, 2, hold: .milliseconds(900))  // C long: next screen
        #expect(board.device.state.screen == .hours)
        DeviceRig.expectGlassAgrees(board)
        for expected in [Screen.days, .indoor, .barograph, .status, .now] {
            Self.press(board, 2, hold: .milliseconds(900))
            #expect(board.device.state.screen == expected)
        }
        #expect(board.device.counters.gestures == 9)
    }

    @Test("saving without a fix says so on the status screen and commits nothing")
    func saveWithoutFix() {
        let board = DeviceRig.make { $0.gps = .none }
        board.advance(by: .seconds(5))
        Self.press(board, 1, hold: .milliseconds(1000))
        #expect(board.device.state.store.locations.isEmpty)
        #expect(DeviceRig.line(board, "Btn") == StatusLine("Btn", "no GPS fix to save", isProblem: true))
    }

    @Test("a removal inside its undo window is committed when the device closes (SIGTERM, a reload), not forgotten")
    func removalCommittedOnClose() throws {
        let config = try Self.removingBoard()
        let disk = CrashableFileSystem()
        let board = DeviceRig.make(disk: disk) { $0.board = config }
        board.advance(by: .seconds(10))
        Self.press(board, 1, hold: .milliseconds(1500))  // save a place
        let saved = board.device.state.store.locations
        #expect(saved.count == 1)
        Self.press(board, 0, hold: .milliseconds(1500))  // show it
        Self.press(board, 2)  // remove it: the undo window opens
        #expect(board.device.state.pendingRemoval != nil)
        #expect(board.device.store.state.locations.count == 1, "not committed during the undo window")
        board.device.close()  // SIGTERM two seconds later
        #expect(board.device.state.pendingRemoval == nil)
        #expect(board.device.store.state.locations.isEmpty, "the user's removal was dropped on close")
        disk.crash()
        let restarted = DeviceRig.make(disk: disk) { $0.board = config }
        #expect(restarted.device.state.store.locations.isEmpty)
    }

    @Test("remove-location: the place disappears at once, a long press within 5 s keeps it, later it is gone for good")
    func removeAndUndo() throws {
        let config = try Self.removingBoard()
        let disk = CrashableFileSystem()
        let board = DeviceRig.make(disk: disk) { $0.board = config }
        board.advance(by: .seconds(10))
        Self.press(board, 1, hold: .milliseconds(1500))  // save
        board.advance(by: .seconds(300))  // drive on, then save a second place
        Self.press(board, 1, hold: .milliseconds(1500))
        let locations = board.device.state.store.locations
        #expect(locations.count == 2)
        Self.press(board, 0, hold: .milliseconds(1500))  // next place: the first saved one
        #expect(board.device.state.shown == .saved(locations[0].id))

        Self.press(board, 2)  // remove it: gone from the list at once
        #expect(board.device.state.shown == .saved(locations[1].id))
        #expect(board.device.state.model.place.source == .saved(index: 1, count: 1))
        #expect(board.device.store.state.locations.count == 2, "not committed during the undo window")
        DeviceRig.expectGlassAgrees(board)
        Self.press(board, 2, hold: .milliseconds(1000))  // C long within 5 s: undo
        #expect(board.device.state.shown == .saved(locations[0].id))
        #expect(board.device.state.pendingRemoval == nil)
        board.advance(by: .seconds(10))
        #expect(board.device.store.state.locations.count == 2, "an undone removal is never committed")

        Self.press(board, 2)  // remove again, and let the window pass
        board.advance(by: .seconds(6))
        #expect(board.device.store.state.locations == [locations[1]])
        disk.crash()
        let restarted = DeviceRig.make(disk: disk) { $0.board = config }
        #expect(restarted.device.state.store.locations == [locations[1]])
    }
}

/// A press is never lost while the device is busy, and an overflowing kernel
/// buffer is counted and shown. These run on uAPI v1's buffer (no sequence numbers: the loss is
/// inferred); `EdgeLossTests` runs the daemon's uAPI v2.
@Suite("Device: buttons while busy")
struct BusyButtonTests {
    @Test("edges pile up while the loop is busy: each press counts once even when its edges overflow the kernel's buffer")
    func busyLoop() {
        let board = DeviceRig.make {
            $0.rotateEvery = .some(nil)
            $0.buttonBuffer = .uAPIv1
        }
        board.advance(by: .seconds(10))
        board.wakesOnEdges = false  // only the device's own deadlines (the GPS epoch each second) wake it
        let heavy = BounceProfile(bounces: 6...9, window: .milliseconds(4))
        for _ in 0..<6 {
            board.buttons.press(0, holdFor: .milliseconds(150), bounce: heavy)
            board.advance(by: .milliseconds(1200))
        }
        board.wakesOnEdges = true
        board.advance(by: .seconds(2))
        #expect(board.buttons.droppedEdgeCount > 0, "the test must overflow the kernel's buffer")
        #expect(board.device.counters.gestures == 6, "gestures: \(board.device.counters.gestures)")
        #expect(board.device.state.store.settings.temperature == .celsius, "six presses: back to °C")
        #expect(!board.device.gestures.isHeld(0))
        #expect(DeviceRig.line(board, "Btn")?.isProblem == true, "the lost edges are on the status screen")
    }

    @Test("two presses inside one busy second: the kernel kept only the first's edges; shown, and nothing stays held")
    func overflowMergesPresses() {
        let board = DeviceRig.make {
            $0.rotateEvery = .some(nil)
            $0.buttonBuffer = .uAPIv1
        }
        board.advance(by: .seconds(10) + .milliseconds(100))
        board.wakesOnEdges = false
        let heavy = BounceProfile(bounces: 6...9, window: .milliseconds(4))
        board.buttons.press(1, holdFor: .milliseconds(150), bounce: heavy)
        board.buttons.press(1, at: board.clock.now() + .milliseconds(400), holdFor: .milliseconds(150), bounce: heavy)
        board.advance(by: .seconds(2))
        board.wakesOnEdges = true
        #expect(board.device.counters.gestures >= 1)
        #expect(!board.device.gestures.isHeld(1))
        // uAPI v1 has no numbers: the count is a lower bound (one per line found inconsistent).
        #expect(DeviceRig.line(board, "Btn")?.text.hasSuffix(" lost") == true)
    }
}

/// A button held while the device starts (a stuck or pressed button at power-on).
@Suite("Device: a button held at boot")
struct HeldAtBootTests {
    @Test("is ignored until released: no long press fires, and the next press works")
    func heldAtBoot() {
        var setup = SimulationSetup(board: DeviceRig.board, start: DeviceRig.summer)
        setup.rotateEvery = .some(nil)
        let board = SimulatedBoard(setup)
        board.buttons.heldSinceRequest(0)
        board.start()
        board.advance(by: .seconds(3))
        #expect(board.device.counters.gestures == 0, "a button held since power-on is not a press")
        board.buttons.setContact(0, closed: false, bounce: .typical)
        board.advance(by: .seconds(1))
        #expect(board.device.counters.gestures == 0)
        #expect(board.device.state.shown == .here, "no next-place from a long press")
        ButtonScenarioTests.press(board, 0)
        #expect(board.device.counters.gestures == 1)
        #expect(board.device.state.store.settings.temperature == .fahrenheit)
    }
}

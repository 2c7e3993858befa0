import App
import Core
import HAL
import HALSim
import Store
import Screens
import Testing

/// Issue 13 items 3 and 10: settings through the store, across restarts, power cuts and a
/// store that refuses.
@Suite("Device: settings that last")
struct PersistenceTests {
    @Test("a units change survives a restart, and the restarted screen shows it")
    func unitsSurviveRestart() {
        let disk = CrashableFileSystem()
        let board = DeviceRig.make(disk: disk)
        board.advance(by: .seconds(10))
        ButtonScenarioTests.press(board, 1)
        #expect(board.device.state.store.settings.units == .imperial)
        disk.crash()  // power off: only what is durable remains
        let restarted = DeviceRig.make(disk: disk)
        restarted.advance(by: .seconds(10))
        #expect(restarted.device.state.store.settings.units == .imperial)
        #expect(restarted.device.state.model.settings.units == .imperial)
        DeviceRig.expectGlassAgrees(restarted)
    }

    /// littlefs's and SQLite's method (notes/store.md): run the press once per crash point k,
    /// cutting power after k file-system operations counted from the press.
    @Test("a power cut at every step of a button's commit leaves the old or the new setting, and the screen agrees")
    func powerCutAtEveryStep() {
        var k = 0
        var sawOld = false
        var sawNew = false
        while k < 64 {
            let disk = CrashableFileSystem()
            let board = DeviceRig.make(disk: disk) { $0.gps = .none }
            board.advance(by: .seconds(5))
            let before = board.device.store.store.sequence
            let operations = disk.operationCount
            disk.cutPower(afterOperations: k)
            ButtonScenarioTests.press(board, 1)
            let acknowledged = board.device.store.store.sequence > before
            let cutHappened = disk.operationCount - operations > k
            disk.crash()
            let restarted = DeviceRig.make(disk: disk) { $0.gps = .none }
            restarted.advance(by: .seconds(5))
            let units = restarted.device.state.store.settings.units
            if acknowledged { #expect(units == .imperial, "k=\(k): an acknowledged commit was lost") }
            if units == .imperial { sawNew = true } else { sawOld = true }
            #expect(restarted.device.state.model.settings == restarted.device.state.store.settings)
            DeviceRig.expectGlassAgrees(restarted)
            if !cutHappened { break }  // the commit finished before the cut: every point is covered
            k += 1
        }
        #expect(k > 0 && k < 64, "crash points covered: \(k)")
        #expect(sawOld && sawNew)
    }

    @Test("a store opened read-only refuses the change: the screen keeps the old value and the status says why")
    func readOnlyStore() {
        let disk = CrashableFileSystem()
        DeviceRig.make(disk: disk).advance(by: .seconds(1))  // creates the store
        disk.crash()
        let board = DeviceRig.make(disk: disk) { $0.readOnlyStore = true }
        board.advance(by: .seconds(10))
        ButtonScenarioTests.press(board, 0)
        #expect(board.device.state.store.settings.temperature == .celsius)
        #expect(board.device.state.model.settings.temperature == .celsius)
        let line = DeviceRig.line(board, "Store")
        #expect(line?.isProblem == true && line?.text.hasPrefix("refused") == true, "\(String(describing: line))")
        DeviceRig.expectGlassAgrees(board)
    }

    @Test("EIO: the change stays on screen, marked pending, and is written when the medium recovers")
    func degradedThenRecovered() {
        let disk = CrashableFileSystem()
        let board = DeviceRig.make(disk: disk)
        board.advance(by: .seconds(10))
        board.apply(.disk(.eio))
        ButtonScenarioTests.press(board, 0)
        #expect(board.device.state.store.settings.temperature == .fahrenheit, "kept in memory")
        #expect(DeviceRig.line(board, "Store") == StatusLine("Store", "not saving, 1 kept", isProblem: true))
        DeviceRig.expectGlassAgrees(board)
        board.apply(.disk(.ok))
        board.advance(by: .seconds(400))  // the store's backoff reaches at most 300 s
        #expect(board.device.state.storeHealth == .healthy)
        disk.crash()
        #expect(DeviceRig.make(disk: disk).device.state.store.settings.temperature == .fahrenheit)
    }
}

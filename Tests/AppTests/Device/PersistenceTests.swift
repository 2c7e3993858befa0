import App
import Core
import HAL
import HALSim
import Store
import Glibc
import SystemPackage
import Board
import Screens
import Weather
import Testing

/// Settings through the store, across restarts, power cuts and a
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

    /// littlefs's and SQLite's method (docs/design/decisions.md#crash-tests): run the press once per crash point k,
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
            let before = board.device.store.sequence
            let operations = disk.operationCount
            disk.cutPower(afterOperations: k)
            ButtonScenarioTests.press(board, 1)
            let acknowledged = board.device.store.sequence > before
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

    /// A card full at boot cost every change until the next restart (the
    /// device ran on memory for good and said "read-only").
    @Test("a card full at start: changes are kept in memory, the files open once there is room, and the changes are saved")
    func fullAtStartThenRoom() {
        let disk = CrashableFileSystem(capacity: 4096)  // room for the directory, not for 2 × 64 KiB
        var lines: [String] = []
        let board = DeviceRig.make(disk: disk)
        board.onLog = { _, text in lines.append(text) }
        board.advance(by: .seconds(10))
        #expect(DeviceRig.line(board, "Store") == StatusLine("Store", "not saving, 0 kept", isProblem: true))
        ButtonScenarioTests.press(board, 0)
        ButtonScenarioTests.press(board, 1)
        #expect(board.device.state.store.settings.temperature == .fahrenheit, "kept in memory")
        #expect(DeviceRig.line(board, "Store") == StatusLine("Store", "not saving, 2 kept", isProblem: true))
        DeviceRig.expectGlassAgrees(board)

        disk.capacity = nil  // room again (a log rotated away)
        board.advance(by: .seconds(400))  // the backoff reaches at most 300 s
        #expect(board.device.state.storeHealth == .healthy)
        #expect(lines.contains("store: opened the files at last; 2 changes kept in memory saved"), "\(lines)")
        #expect(board.device.store.sequence == 2)
        ButtonScenarioTests.press(board, 2)  // and a change after that goes straight to the files
        #expect(board.device.store.sequence == 3)
        disk.crash()
        let restarted = DeviceRig.make(disk: disk)
        let settings = restarted.device.state.store.settings
        #expect(settings.temperature == .fahrenheit && settings.units == .imperial && settings.time == .twelveHour)
    }

    @Test("a card read-only at start keeps the user's saved settings on screen, and the change made meanwhile builds on them")
    func readOnlyAtStartKeepsSettings() {
        let disk = CrashableFileSystem()
        let first = DeviceRig.make(disk: disk)
        first.advance(by: .seconds(5))
        ButtonScenarioTests.press(first, 1)  // imperial, saved
        disk.crash()
        disk.isReadOnly = true  // the kernel remounted the card read-only
        let board = DeviceRig.make(disk: disk)
        board.advance(by: .seconds(5))
        #expect(board.device.state.store.settings.units == .imperial, "the files still read")
        ButtonScenarioTests.press(board, 0)
        disk.isReadOnly = false
        board.advance(by: .seconds(400))
        #expect(board.device.state.storeHealth == .healthy)
        disk.crash()
        let settings = DeviceRig.make(disk: disk).device.state.store.settings
        #expect(settings.units == .imperial && settings.temperature == .fahrenheit)
    }
}

/// The weather cache on the medium, read back at start.
@Suite("Device: the weather cache")
struct WeatherCacheTests {
    @Test("a restart two hours later with no network shows the cached weather, marked stale, and keeps trying")
    func restoredStale() {
        let disk = CrashableFileSystem()
        let board = DeviceRig.make(disk: disk) { $0.gps = .none }
        board.advance(by: .seconds(60))
        let fetched = board.device.state.weather.state.value?.fetchedAt
        #expect(fetched != nil)
        #expect(disk.image().files["/state/weather.cache"] != nil, "the first answer is cached at once")
        disk.crash()
        let later = DeviceRig.make(start: DeviceRig.summer + .seconds(2 * 3600), disk: disk) {
            $0.gps = .none
            $0.weather = .offline
        }
        later.advance(by: .seconds(5))
        let state = later.device.state
        #expect(state.weather.state.value?.fetchedAt == fetched, "the cached report is shown")
        guard case .stale(let minutes) = state.model.weather.freshness else {
            Issue.record("not marked stale: \(state.model.weather.freshness)")
            return
        }
        #expect((118...122).contains(minutes))
        #expect(state.model.weather.forecast != nil)
        #expect(later.device.counters.fetches >= 1, "and the device asks again")
        DeviceRig.expectGlassAgrees(later)
    }

    @Test("a cache whose fetch time is out of range is refused with one line at start, and the device runs on",
          arguments: [Int64.max, Int64.min, 1 << 50, -(1 << 50)])
    func fetchTimeOutOfRange(seconds: Int64) throws {
        let disk = CrashableFileSystem()
        let board = DeviceRig.make(disk: disk) { $0.gps = .none }
        board.advance(by: .seconds(60))
        var files = disk
        var cache = try WeatherCache.load(from: "/state", files: &files).get()
        cache.fetchedAt = WallTime(seconds: seconds)
        try cache.save(in: "/state", files: &files).get()
        disk.crash()
        let later = DeviceRig.make(disk: disk) {
            $0.gps = .none
            $0.weather = .offline
        }
        later.advance(by: .seconds(120))
        #expect(later.device.state.weather.state.value == nil, "the damaged copy is not shown")
        #expect(later.timeline.contains { $0.text.contains("cached weather is damaged") })
        DeviceRig.expectGlassAgrees(later)
    }

    @Test("the cache is rewritten at most hourly (flash wear), not at every fetch")
    func savedHourly() {
        let disk = CrashableFileSystem()
        let board = DeviceRig.make(disk: disk) { $0.gps = .none }
        board.advance(by: .seconds(6 * 3600))
        // Each write syncs the temporary file once before the rename; the barograph's own
        // hourly writes (barograph.history) are counted apart.
        let writes = disk.syncsByName["\(WeatherCache.fileName).new", default: 0]
        #expect(board.device.counters.fetches >= 20)
        #expect((5...8).contains(writes), "cache writes in 6 h: \(writes)")
        #expect(disk.count(of: .rename) == writes + disk.syncsByName["\(BarographFile.fileName).new", default: 0])
    }

    @Test("a cache for another place is not shown under this place's name")
    func otherPlace() {
        let disk = CrashableFileSystem()
        let board = DeviceRig.make(disk: disk)
        board.advance(by: .seconds(60))
        disk.crash()
        // The same medium in a board whose default place is Oslo, with no receiver.
        let json = ReferenceBoard.json.replacing("\"latitude\": 52.52", with: "\"latitude\": 59.91")
            .replacing("\"longitude\": 13.405", with: "\"longitude\": 10.75")
        guard case .success(let oslo) = BoardFile.check(Array(json.utf8)) else {
            Issue.record("the modified board does not validate")
            return
        }
        let moved = DeviceRig.make(disk: disk) {
            $0.board = oslo
            $0.gps = .none
            $0.weather = .offline
        }
        moved.advance(by: .seconds(5))
        #expect(moved.device.state.weather.state.value == nil)
        #expect(moved.timeline.contains { $0.text.contains("not the shown place") })
    }
}

/// `simulate --state-dir`: the medium starts from a directory and goes back to it.
@Suite("Device: the state directory")
struct StateDirectoryTests {
    @Test("what the device committed survives a power cut through the directory")
    func roundTrip() throws {
        var template = [CChar]("/tmp/thunderstorm-state-XXXXXX".utf8CString)
        let directory = FilePath(String(cString: mkdtemp(&template)!))
        defer {
            for name in StateDirectory.fileNames { unlink(directory.appending(name).string) }
            rmdir(directory.string)
        }
        let first = CrashableFileSystem()
        try StateDirectory.load(from: directory, into: first, at: "/state")
        let board = DeviceRig.make(disk: first)
        board.advance(by: .seconds(5))
        ButtonScenarioTests.press(board, 1)
        try StateDirectory.save(first.durableImage(), from: "/state", to: directory)
        let second = CrashableFileSystem()
        try StateDirectory.load(from: directory, into: second, at: "/state")
        second.crash()  // what load wrote must itself be durable
        let again = DeviceRig.make(disk: second)
        #expect(again.device.state.store.settings.units == .imperial)
    }
}

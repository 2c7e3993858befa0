import App
import Core
import Glibc
import HAL
import HALSim
import Screens
import Store
import Synchronization
import SystemPackage
import Testing

/// The card off the loop (docs/design/architecture.md#the-loop). A gate holds the
/// store's `fdatasync` on the writer thread as a hanging SD card does; the loop must keep
/// reading buttons and drawing, show the change only once it is durable, and say "saving…"
/// and then "card not answering" meanwhile.
@Suite("Device: a card that hangs")
struct HangingCardTests {
    /// Holds every `synchronizeData` of the disk until opened: the writer thread spins in it
    /// as it would sleep in the kernel's `fdatasync`.
    final class Gate: Sendable {
        let open = Atomic<Bool>(true)
        let held = Atomic<Int>(0)

        func attach(to disk: CrashableFileSystem) {
            disk.onOperation = { [self] operation, _ in
                guard operation == .synchronizeData else { return }
                if !open.load(ordering: .acquiring) { held.add(1, ordering: .relaxed) }
                while !open.load(ordering: .acquiring) { usleep(1_000) }
            }
        }
    }

    /// Real time for the writer thread to do what it was given (it does not run on the
    /// virtual clock); fails the test after 10 s.
    static func waitFor(_ what: String, _ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        for _ in 0..<10_000 {
            if condition() { return }
            usleep(1_000)
        }
        Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
    }

    /// Lets the writer finish what the loop handed it so far (a weather cache save after the
    /// first fetch): the writer runs in real time while the virtual clock jumps, so a job
    /// handed over just before the gate closes would otherwise hang with the test's own.
    static func settle(_ board: SimulatedBoard) {
        waitFor("the writer to be idle") {
            board.advance(by: .milliseconds(1))
            return board.device.store.waiting == 0
        }
    }

    @Test("the writer thread: submit returns while the sync hangs; the answer and the wake-up come when it ends")
    func writerThread() throws {
        let disk = CrashableFileSystem()
        let clock = VirtualClock(start: .zero, wallTime: DeviceRig.summer)
        let store = try FileStore(files: disk, clock: clock, configuration: FileStoreConfiguration(directory: "/state"))
        let gate = Gate()
        gate.attach(to: disk)
        let wakes = Atomic<Int>(0)
        let writer = StoreWriter.threaded(.file(store), directory: "/state", files: disk, wake: { wakes.add(1, ordering: .relaxed) })
        #expect(writer.isThreaded)
        let before = writer.sequence
        var settings = writer.state.settings
        settings.units = .imperial
        gate.open.store(false, ordering: .releasing)
        writer.submit(.commit(.settings(settings)), now: clock.now())
        #expect(writer.waiting == 1)
        Self.waitFor("the writer to reach fdatasync") { gate.held.load(ordering: .relaxed) > 0 }
        usleep(20_000)
        #expect(!writer.receive(now: clock.now()) { _ in }, "nothing can be finished while the sync hangs")
        #expect(writer.state.settings.units == .metric && writer.sequence == before)
        gate.open.store(true, ordering: .releasing)
        Self.waitFor("the writer's answer") { writer.receive(now: clock.now()) { _ in } }
        #expect(writer.state.settings.units == .imperial && writer.sequence == before + 1 && writer.waiting == 0)
        #expect(writer.health == .healthy)
        #expect(wakes.load(ordering: .relaxed) >= 1, "the loop is woken when a batch is done")
        #expect(writer.finish(within: .seconds(5), clock: clock))
    }

    @Test("a press during a 10 s hang: the next screen still reaches the glass, the setting shows once durable")
    func pressDuringHang() throws {
        let disk = CrashableFileSystem()
        let gate = Gate()
        let board = DeviceRig.make(disk: disk) { $0.writesOffTheLoop = true }
        gate.attach(to: disk)
        board.advance(by: .seconds(10))
        var lines: [String] = []
        board.onLog = { _, text in lines.append(text) }
        #expect(board.device.store.isThreaded)
        let sequence = board.device.store.sequence

        Self.settle(board)
        gate.open.store(false, ordering: .releasing)
        ButtonScenarioTests.press(board, 1)  // units: a commit whose sync hangs
        Self.waitFor("the writer to reach fdatasync") { gate.held.load(ordering: .relaxed) > 0 }
        #expect(board.device.state.store.settings.units == .metric, "shown only once durable")
        #expect(board.device.state.saving == StoreSaving(waiting: 1, slow: false))
        #expect(DeviceRig.line(board, "Store")?.text == "saving…")

        // The loop keeps turning: a long press of the third button moves to the next screen
        // and the frame reaches the glass while the card still hangs.
        let frames = board.device.counters.frames
        ButtonScenarioTests.press(board, 2, hold: .milliseconds(1300))
        #expect(board.device.state.screen != .now)
        #expect(board.device.counters.frames > frames, "no frame while the card hung")
        DeviceRig.expectGlassAgrees(board)

        // A second press of the same button while the first is out cycles on from what was
        // asked: metric → imperial → metric would be lost if it cycled from the store.
        ButtonScenarioTests.press(board, 0)  // °C → °F, queued behind the hanging write
        board.advance(by: .seconds(3))
        #expect(board.device.state.saving.slow)
        #expect(DeviceRig.line(board, "Store") == StatusLine("Store", "card not answering", isProblem: true))
        #expect(lines.contains { $0.hasPrefix("store: the card has not answered for 3") }, "\(lines)")

        gate.open.store(true, ordering: .releasing)
        Self.waitFor("the writer's answers") {
            board.advance(by: .milliseconds(1))  // the loop takes the answers at its wake-ups
            return board.device.store.waiting == 0
        }
        board.advance(by: .milliseconds(100))
        #expect(board.device.state.store.settings.units == .imperial)
        #expect(board.device.state.store.settings.temperature == .fahrenheit)
        #expect(board.device.store.sequence == sequence + 2, "one durable commit per press")
        #expect(board.device.state.saving == .idle)
        #expect(lines.contains("store: the card answered again"), "\(lines)")
        #expect(DeviceRig.line(board, "Store")?.isProblem == false)
        DeviceRig.expectGlassAgrees(board)

        // Durable: a power cut now keeps both.
        disk.crash()
        let restarted = DeviceRig.make(disk: disk)
        restarted.advance(by: .seconds(5))
        #expect(restarted.device.state.store.settings.units == .imperial)
        #expect(restarted.device.state.store.settings.temperature == .fahrenheit)
    }

    @Test("a second press of the same button during a hang cycles on from what the first asked")
    func twoPressesSameButton() {
        let disk = CrashableFileSystem()
        let gate = Gate()
        let board = DeviceRig.make(disk: disk) { $0.writesOffTheLoop = true }
        gate.attach(to: disk)
        board.advance(by: .seconds(10))
        let sequence = board.device.store.sequence
        Self.settle(board)
        gate.open.store(false, ordering: .releasing)
        ButtonScenarioTests.press(board, 2)  // 24 h → 12 h
        Self.waitFor("the writer to reach fdatasync") { gate.held.load(ordering: .relaxed) > 0 }
        ButtonScenarioTests.press(board, 2)  // 12 h → 24 h, not 24 h → 12 h again
        let first = board.device.state.store.settings.time
        gate.open.store(true, ordering: .releasing)
        Self.waitFor("the writer's answers") {
            board.advance(by: .milliseconds(1))  // the loop takes the answers at its wake-ups
            return board.device.store.waiting == 0
        }
        board.advance(by: .milliseconds(100))
        #expect(board.device.state.store.settings.time == first, "two presses of a two-way setting come back to the start")
        #expect(board.device.store.sequence == sequence + 2, "one durable commit per press")
    }

    @Test("the longest loop turn is measured: a sync that takes 2 s on the loop (the inline writer) shows as a 2 s turn")
    func longestTurnMeasured() {
        let disk = CrashableFileSystem()
        let board = DeviceRig.make(disk: disk) { $0.weather = .offline }
        board.advance(by: .seconds(5))
        #expect(board.device.counters.longestTurn < .milliseconds(1), "virtual time does not move inside a turn by itself")
        // A slow card on the loop: every fdatasync takes 2 s of the device's clock.
        disk.onOperation = { operation, _ in
            if operation == .synchronizeData { board.clock.advance(by: .seconds(2)) }
        }
        board.apply(.press(button: 1))
        board.advance(by: .seconds(1))
        disk.onOperation = nil
        #expect(board.device.counters.longestTurn >= .seconds(2), "\(board.device.counters.longestTurn)")
        #expect(board.device.counters.longestTurnAt != nil)
    }
}


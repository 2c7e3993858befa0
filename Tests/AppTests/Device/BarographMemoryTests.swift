import App
import Board
import Core
import HAL
import HALSim
import Store
import Testing
import Weather

/// The barograph's history on the card: written hourly and at a stop, restored at start, a
/// power cut costing at most the last hour, a damaged file one line and no more.
@Suite("Device: the barograph across restarts")
struct BarographMemoryTests {
    static let path = "/state/\(BarographFile.fileName)"

    /// The simulated BME280 follows the simulated weather; no GPS (the provider's elevation).
    static func make(start: WallTime = DeviceRig.summer, disk: CrashableFileSystem) -> SimulatedBoard {
        DeviceRig.make(start: start, disk: disk) {
            $0.gps = .none
            $0.sensorFollowsWeather = true
        }
    }

    static func refusal(_ bytes: [UInt8]) -> BarographFile.FileError? {
        if case .failure(let error) = BarographFile.decode(bytes) { return error }
        return nil
    }

    static func samples(_ history: PressureHistory) -> [PressureSample] { (0..<history.count).map { history[$0] } }

    @Test("a power cut keeps the history up to the last hourly write; the tendency works at the first sample after the restart")
    func powerCutKeepsHistory() throws {
        let disk = CrashableFileSystem()
        let board = Self.make(disk: disk)
        board.advance(by: .seconds(5 * 3_600 + 5 * 60))
        let before = Self.samples(board.device.state.barograph)
        #expect(before.count >= 29, "\(before.count) samples in 5 h")
        #expect(before.allSatisfy { $0.quality == .good })
        #expect(board.device.counters.historyWrites <= 6, "written \(board.device.counters.historyWrites) times in 5 h")
        disk.crash()  // no SIGTERM: the power goes

        let cutAt = DeviceRig.summer + .seconds(5 * 3_600 + 5 * 60)
        let restarted = Self.make(start: cutAt + .seconds(120), disk: disk)
        restarted.advance(by: .seconds(1))
        let restored = Self.samples(restarted.device.state.barograph)
        #expect(restored.count >= before.count - 6, "lost more than an hour: \(restored.count) of \(before.count)")
        #expect(restored == Array(before.prefix(restored.count)), "the restored samples differ from the ones taken")
        #expect(restarted.timeline.contains { $0.text.contains("barograph: \(restored.count) samples restored") })

        // The first sample after the restart: the downtime stays a gap, and the tendency is sure.
        restarted.advance(by: .seconds(11 * 60))
        let after = restarted.device.state.barograph
        #expect(after.count == restored.count + 1, "samples were made up for the downtime: \(after.count)")
        let newest = try #require(after.latest)
        let last = try #require(restored.last)
        #expect(newest.time - last.time > .seconds(600), "no gap between \(last.time) and \(newest.time)")
        guard case .sure = restarted.device.state.pressureTendency else {
            Issue.record("no sure tendency at the first sample after the restart: \(restarted.device.state.pressureTendency)")
            return
        }
    }

    /// littlefs's and SQLite's method, as the store's crash tests: power cut after every file
    /// operation around the hourly write; the restart finds the old file or the new one.
    @Test("a power cut at every step of the hourly write leaves the old history or the new one, never a damaged file")
    func powerCutAtEveryStepOfTheWrite() throws {
        var k = 0
        var saw = Set<Int>()
        while k < 40 {
            let disk = CrashableFileSystem()
            let board = Self.make(disk: disk)
            board.advance(to: board.startInstant + .seconds(69 * 60 + 30))  // before the 11:10 sample
            let old = try #require(disk.image().files[Self.path]).count
            let operations = disk.operationCount
            disk.cutPower(afterOperations: k)
            board.advance(to: board.startInstant + .seconds(71 * 60))
            let cut = disk.operationCount - operations > k
            let new = board.device.state.barograph.count
            disk.crash()
            let restarted = Self.make(start: DeviceRig.summer + .seconds(72 * 60), disk: disk)
            restarted.advance(by: .seconds(1))
            let restored = restarted.device.state.barograph.count
            #expect(BarographFile.encode(PressureHistory()).count + 17 * restored == old || restored == new, "k=\(k): \(restored) samples")
            #expect(!restarted.timeline.contains { $0.text.contains("not used") }, "k=\(k): \(restarted.timeline.map(\.text))")
            saw.insert(restored)
            if !cut { break }
            k += 1
        }
        #expect(k > 2 && k < 40, "crash points covered: \(k)")
        #expect(saw.count == 2, "only one of the old and the new history was ever seen: \(saw)")
    }

    @Test("a stop writes the samples since the last hourly write")
    func stopWritesTheRest() throws {
        let disk = CrashableFileSystem()
        let board = Self.make(disk: disk)
        board.advance(by: .seconds(2 * 3_600 + 45 * 60))
        board.device.close()
        disk.crash()
        let bytes = try #require(disk.durableImage().files[Self.path])
        guard case .success(let saved) = BarographFile.decode(bytes) else {
            Issue.record("the file does not decode")
            return
        }
        #expect(Self.samples(saved) == Self.samples(board.device.state.barograph))
    }

    @Test("a damaged or foreign file is one line at start, and the trace starts again", arguments: [
        ("torn", 0), ("foreign", 1), ("flipped", 2),
    ])
    func damagedFileIgnored(kind: String, index: Int) throws {
        let disk = CrashableFileSystem()
        let board = Self.make(disk: disk)
        board.advance(by: .seconds(3_600))
        board.device.close()
        var bytes = try #require(disk.image().files[Self.path])
        switch index {
        case 0: bytes.removeLast(9)
        case 1: bytes = Array("thunderstorm weather cache 1\n".utf8)
        default: bytes[20] ^= 0x10
        }
        var files = disk
        try files.replace(BarographFile.fileName, in: "/state", with: bytes)
        let restarted = Self.make(start: DeviceRig.summer + .seconds(3_700), disk: disk)
        restarted.advance(by: .seconds(1))
        let lines = restarted.timeline.map(\.text).filter { $0.contains("barograph") }
        #expect(lines.count == 1 && lines[0].contains("not used"), "\(kind): \(lines)")
        #expect(restarted.device.state.barograph.count == 0)
        restarted.advance(by: .seconds(11 * 60))
        #expect(restarted.device.state.barograph.count == 1, "\(kind): the device does not sample again")
    }

    @Test("a trace saved under a clock that ran ahead is dropped at the first sample, with one line")
    func futureTraceDropped() {
        let disk = CrashableFileSystem()
        let board = Self.make(disk: disk)
        board.advance(by: .seconds(2 * 3_600))
        board.device.close()
        disk.crash()
        // The next start is a day before the samples: the last run's clock was a day fast.
        let restarted = Self.make(start: DeviceRig.summer - .seconds(86_400), disk: disk)
        restarted.advance(by: .seconds(1))
        #expect(restarted.device.state.barograph.count >= 11)
        restarted.advance(by: .seconds(11 * 60))
        let lines = restarted.timeline.map(\.text).filter { $0.contains("past the trusted clock") }
        #expect(lines.count == 1, "\(lines)")
        #expect(restarted.device.state.barograph.count == 1, "the new sample was refused behind the old trace")
    }

    @Test("a reload hands the trace over in memory, even when the card refuses the last write")
    func reloadKeepsTrace() {
        let disk = CrashableFileSystem()
        let board = Self.make(disk: disk)
        board.advance(by: .seconds(90 * 60))
        disk.fail([.write], with: .io)
        board.advance(by: .seconds(70 * 60))
        #expect(board.timeline.contains { $0.text.contains("barograph not saved") })
        let trace = Self.samples(board.device.state.barograph)
        let next = ReloadTakeOverTests.successor(of: board.device, board: board, keeping: .init(display: true, sensor: true, buttons: true))
        next.start()
        #expect(Self.samples(next.state.barograph) == trace)
    }

    @Test("the file round-trips every quality exactly, and refuses samples out of order")
    func fileRoundTrip() {
        var history = PressureHistory(capacity: 4)
        let qualities: [PressureSample.Quality] = [.good, .moving, .noAltitude, .good, .moving]
        for (i, quality) in qualities.enumerated() {
            history.record(PressureSample(time: WallTime(seconds: 1_800_000_000 + Int64(i) * 600), hectopascals: 1001.123456789 - Double(i), quality: quality))
        }
        let bytes = BarographFile.encode(history)
        #expect(bytes.count == 16 + 4 * 17 + 4)
        guard case .success(let back) = BarographFile.decode(bytes) else {
            Issue.record("does not decode")
            return
        }
        #expect(Self.samples(back) == Self.samples(history))
        var swapped = bytes
        for i in 0..<17 { swapped.swapAt(16 + i, 16 + 17 + i) }
        #expect(Self.refusal(swapped) == .damaged("checksum mismatch: torn or corrupt"))
        // The same swap with a checksum that fits: refused for its order.
        swapped.removeLast(4)
        let crc = swapped.withUnsafeBytes { CRC32C.checksum($0) }
        for shift in stride(from: 0, to: 32, by: 8) { swapped.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        #expect(Self.refusal(swapped) == .damaged("sample 1 is not later than the one before"))
    }
}

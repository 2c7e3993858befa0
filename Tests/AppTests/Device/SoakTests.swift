import App
import Core
import HAL
import HALSim
import Store
import SystemPackage
import Testing

/// A simulated day with random faults from a seed. The device must not
/// crash, and no commit the store acknowledged may be lost: at random moments the medium is
/// copied, the copy loses power, and the store opened on it must hold at least every commit
/// acknowledged by then.
@Suite("Device: a day of random faults")
struct SoakTests {
    @Test("24 hours, a fault or a press every few minutes, power-cut copies checked along the way", arguments: [7] as [UInt64])
    func day(seed: UInt64) throws {
        let disk = CrashableFileSystem()
        let board = DeviceRig.make(disk: disk) { $0.seed = seed }
        var random = SplitMix64(seed: seed)
        var checks = 0
        var presses = 0
        let end = board.startInstant + .seconds(86_400)
        while board.clock.now() < end {
            board.advance(by: .seconds(Int64(60 + Int(random.next(below: 540)))))
            switch Int(random.next(below: 12)) {
            case 0, 1, 2, 3:
                presses += 1
                board.buttons.press(Int(random.next(below: 3)), holdFor: .milliseconds(Int(random.next(below: 2)) == 0 ? 120 : 1200), bounce: .typical)
            case 4: board.apply(.network(up: Int(random.next(below: 2)) == 0))
            case 5: board.apply(.gps(plugged: Int(random.next(below: 3)) != 0))
            case 6: board.apply(.i2cNack(count: 1 + Int(random.next(below: 5))))
            case 7: board.apply(.disk(Int(random.next(below: 2)) == 0 ? .eio : .enospc))
            case 8, 9: board.apply(.disk(.ok))
            default:
                // A power cut on a copy of the medium now: everything acknowledged must be there.
                let acknowledged = board.device.store.sequence
                let copy = disk.copy()
                copy.crash()
                let reopened = try FileStore(files: copy, clock: board.clock, configuration: FileStoreConfiguration(directory: "/state"))
                #expect(reopened.sequence >= acknowledged, "commit \(acknowledged) was acknowledged and lost")
                checks += 1
            }
        }
        // Heal everything and let the retries finish: the medium then holds what the device shows.
        board.apply(.disk(.ok))
        board.apply(.network(up: true))
        board.apply(.gps(plugged: true))
        board.advance(by: .seconds(900))
        #expect(board.device.state.storeHealth == .healthy)
        disk.crash()
        let reopened = try FileStore(files: disk, clock: board.clock, configuration: FileStoreConfiguration(directory: "/state"))
        #expect(reopened.state == board.device.state.store)
        #expect(checks >= 10 && presses >= 40, "checks \(checks), presses \(presses)")
        #expect(board.panelErrors.isEmpty)
    }
}

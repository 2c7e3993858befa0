import AllocationCounting
@testable import App
import Foundation
import HAL
@testable import HALLinux
import Testing

/// What the daemon adds to each wake-up of the device (the twins following the clock, the
/// status compared, the watchdog ping, the log limiter's deadline) allocates nothing when
/// nothing changed: the steady state of `run` stays the device's own.
@Suite struct DaemonSteadyStateTests {
    static let desk = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "board/desk-simulated.json")

    @Test func aWakeUpWithNothingNewAllocatesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "daemon-steady-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A notify socket that listens, so the watchdog's datagram is really sent.
        let socketPath = directory.appending(path: "notify.sock").path
        let listener = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        let length = try #require(SystemdNotifier.fill(&address, path: socketPath))
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        let notifier = SystemdNotifier(environment: { ["NOTIFY_SOCKET": socketPath, "WATCHDOG_USEC": "1000000"][$0] })

        let daemon = try Daemon(
            Daemon.Options(boardPath: Self.desk.path, stateDirectory: .init(directory.appending(path: "state").path)),
            notifier: notifier)
        let clock = LinuxClock()
        let now = clock.now()
        daemon.board.follow(now)
        daemon.board.device.start()
        daemon.afterService(now)  // READY and the first status
        // systemd reads every datagram; so does this test, into a buffer allocated here.
        let inbox = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 8)
        defer { inbox.deallocate() }
        while recv(listener, inbox.baseAddress, inbox.count, Int32(MSG_DONTWAIT)) > 0 {}  // READY
        var received = 0
        let mallocs = countMallocs {
            for _ in 0..<100 {
                daemon.nextPing = now  // due: every turn pings
                daemon.board.follow(now)
                daemon.afterService(now)
                keepAlive(daemon.limiter.nextDeadline)
                keepAlive(daemon.board.nextDeadline)
                while recv(listener, inbox.baseAddress, inbox.count, Int32(MSG_DONTWAIT)) > 0 { received += 1 }
            }
        }
        #expect(received == 200, "every turn pinged")
        #expect(mallocs == 0, "\(mallocs) mallocs in 100 wake-ups with nothing new")
        #expect(notifier.failures == 0)
    }
}

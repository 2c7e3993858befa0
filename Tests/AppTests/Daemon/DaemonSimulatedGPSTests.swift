@testable import App
import Board
import Foundation
import HAL
import HALLinux
import Testing

/// With `"gps": { "simulated": true }` the daemon's GPS lines named /dev/serial0, a
/// tty it never opened. They name the simulated receiver.
@Suite struct DaemonSimulatedGPSTests {
    @Test func testDaemon_SimulatedGPS_NamedAsSuch() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "daemon-twin-gps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let daemon = try Daemon(
            Daemon.Options(boardPath: DaemonSteadyStateTests.desk.path, stateDirectory: .init(directory.appending(path: "state").path)),
            notifier: SystemdNotifier(environment: { _ in nil }))
        defer { daemon.board.stop() }
        #expect(daemon.board.config.gps.simulated, "the desk board's GPS is the twin")
        let now = LinuxClock().now()
        daemon.board.follow(now)
        daemon.board.device.start()
        daemon.board.device.service()
        let location = daemon.board.device.location
        #expect(location.port != nil, "the twin opened")
        #expect(location.openPath?.string == GPSConfig.simulatedReceiver)
        let line = location.statusLine
        #expect(line.contains("the simulated receiver") && !line.contains("/dev/"), "\(line)")
    }
}

@testable import App
import Core
import Foundation
import HAL
@testable import HALLinux
import Screens
import Testing

/// A reload applies the difference. The place and the screen the user chose
/// stay, and a GPS part that did not change keeps its service (the fix, the vouched GPS time,
/// the open tty) instead of starting again from "GPS starting".
@Suite struct DaemonReloadTests {
    static let desk = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "board/desk-simulated.json")

    /// A daemon on a copy of `json` in a fresh directory, started as `run` starts it.
    static func daemon(_ json: String, in directory: URL) throws -> (Daemon, URL) {
        let path = directory.appending(path: "board.json")
        try json.write(to: path, atomically: true, encoding: .utf8)
        let daemon = try Daemon(
            Daemon.Options(boardPath: path.path, stateDirectory: .init(directory.appending(path: "state").path)),
            notifier: SystemdNotifier(environment: { _ in nil }))
        daemon.board.follow(LinuxClock().now())
        daemon.board.device.start()
        return (daemon, path)
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "daemon-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func aReloadKeepsTheScreen() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = try String(contentsOf: Self.desk, encoding: .utf8)
        let (daemon, path) = try Self.daemon(json, in: directory)
        let now = LinuxClock().now()
        daemon.board.device.gesture(ButtonGesture(button: 2, kind: .long, time: now))  // C long: next screen
        let chosen = daemon.board.device.state.screen
        #expect(chosen != .now)
        // Another name: a changed board file, applied without a restart.
        try json.replacing("\"Desk (every part simulated)\"", with: "\"Desk, renamed\"").write(to: path, atomically: true, encoding: .utf8)
        daemon.reload()
        #expect(daemon.board.config.name == "Desk, renamed")
        daemon.board.follow(LinuxClock().now())
        daemon.board.device.start()
        #expect(daemon.board.device.state.screen == chosen, "the reload went back to \(daemon.board.device.state.screen)")
    }

    @Test func anUnchangedGPSKeepsItsService() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A real tty path (absent here: the service says "no receiver" and keeps looking).
        let json = try String(contentsOf: Self.desk, encoding: .utf8)
            .replacing("\"gps\": { \"simulated\": true }", with: "\"gps\": { \"device\": \"/dev/ttyTHUNDERSTORMTEST0\", \"baud\": 9600 }")
        let (daemon, path) = try Self.daemon(json, in: directory)
        let service = daemon.board.device.location
        try json.replacing("\"Desk (every part simulated)\"", with: "\"Desk, renamed\"").write(to: path, atomically: true, encoding: .utf8)
        daemon.reload()
        #expect(daemon.board.device.location === service, "an unchanged GPS part was started again")
        // Another baud rate is another part: started afresh.
        try json.replacing("\"baud\": 9600", with: "\"baud\": 38400").write(to: path, atomically: true, encoding: .utf8)
        daemon.reload()
        #expect(daemon.board.device.location !== service)
    }

    @Test func anUnchangedWeatherServiceKeepsItsWorker() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A real network on a port nothing listens on: a worker thread, fetches that fail fast.
        let json = try String(contentsOf: Self.desk, encoding: .utf8)
            .replacing(#""weather": { "simulated": true }"#, with: #""weather": { "baseURL": "http://127.0.0.1:9" }"#)
        let (daemon, path) = try Self.daemon(json, in: directory)
        let worker = try #require(daemon.board.worker)
        try json.replacing("\"Desk (every part simulated)\"", with: "\"Desk, renamed\"").write(to: path, atomically: true, encoding: .utf8)
        daemon.reload()
        #expect(daemon.board.worker === worker, "an unchanged weather service got a second worker (and a second fetch)")
        try json.replacing("http://127.0.0.1:9", with: "http://127.0.0.1:10").write(to: path, atomically: true, encoding: .utf8)
        daemon.reload()
        #expect(daemon.board.worker !== worker)
        daemon.board.worker?.stop()
    }

    /// Real parts (on paths that do not exist here: they report and retry, as a Pi with the
    /// adapter missing does) whose configuration did not change move into the next board; a
    /// changed one is built again, and changed buttons give up their lines.
    @Test func unchangedRealPartsAreKept() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = try String(contentsOf: Self.desk, encoding: .utf8)
            .replacing(
                #""display": { "kind": "ssd1306", "geometry": "128x64", "address": "0x3C", "simulated": true }"#,
                with: #""display": { "kind": "ssd1306", "geometry": "128x64", "address": "0x3C", "bus": "/dev/i2c-97" }"#)
            .replacing(
                #""sensor": { "kind": "bme280", "address": "0x76", "simulated": true }"#,
                with: #""sensor": { "kind": "bme280", "address": "0x76", "bus": "/dev/i2c-97" }"#)
            .replacing(#""name": "A", "simulated": true"#, with: #""name": "A", "chip": "thunderstorm-test-chip", "line": 5"#)
            .replacing(#""name": "B", "simulated": true"#, with: #""name": "B", "chip": "thunderstorm-test-chip", "line": 6"#)
            .replacing(#""name": "C", "simulated": true"#, with: #""name": "C", "chip": "thunderstorm-test-chip", "line": 7"#)
        let (daemon, path) = try Self.daemon(json, in: directory)
        #expect(daemon.board.kept == .none)
        let buttons = daemon.board.buttons
        let adapter = try #require(daemon.board.adapters["/dev/i2c-97"])
        try json.replacing("\"Desk (every part simulated)\"", with: "\"Desk, renamed\"").write(to: path, atomically: true, encoding: .utf8)
        daemon.reload()
        #expect(daemon.board.kept == .init(display: true, sensor: true, buttons: true))
        #expect(daemon.board.buttons === buttons, "unchanged buttons were requested again")
        #expect(daemon.board.adapters["/dev/i2c-97"] === adapter, "the adapter was opened a second time")
        #expect(daemon.board.adapters.count == 1)
        // Another panel address and a longer long press: the display and the buttons are new, the
        // sensor stays.
        try json.replacing(#""address": "0x3C""#, with: #""address": "0x3D""#)
            .replacing(#""line": 5"#, with: #""line": 5, "longPressMs": 900"#)
            .write(to: path, atomically: true, encoding: .utf8)
        daemon.reload()
        #expect(daemon.board.kept == .init(display: false, sensor: true, buttons: false))
        #expect(daemon.board.buttons !== buttons)
        #expect(daemon.board.adapters["/dev/i2c-97"] === adapter, "a new display on the same adapter opened it again")
    }
}


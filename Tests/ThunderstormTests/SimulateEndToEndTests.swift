import Foundation
import Testing

/// `thunderstorm simulate` run as a newcomer runs it: the built executable, its exit status and
/// both output streams, headless (no terminal in a test) and on a pipe.
@Suite("simulate end to end")
struct SimulateEndToEndTests {
    typealias E2E = BoardCheckEndToEndTests

    static func file(_ contents: String, named name: String = "script.jsonl") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "simulate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appending(path: name)
        try Data(contents.utf8).write(to: file)
        return file
    }

    static func report(_ run: BoardCheckEndToEndTests.Run) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    @Test("--headless with a script: exit 0 and the report on standard output with every key")
    func headlessReport() throws {
        let script = try Self.file(#"{"at": 10, "press": "a"}"# + "\n" + #"{"at": 20, "hold": "c", "ms": 1000}"# + "\n")
        defer { try? FileManager.default.removeItem(at: script.deletingLastPathComponent()) }
        // 420 s: C long at 20 s shows the hours, then the 60-s rotation moves 6 times (81…381 s),
        // which lands on "now" for none of the rotation's lengths (3 to 5 screens: with or
        // without the indoor and the barograph screens).
        let run = try E2E.run([
            "simulate", "--headless", "--duration", "420", "--start", "2026-06-21T10:00:00Z", "--script", script.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try Self.report(run)
        for key in ["settings", "places", "store", "display", "wakeups", "cpu_seconds", "timeline", "weather", "gps"] {
            #expect(report[key] != nil, "no \(key) in the report")
        }
        #expect((report["settings"] as? [String: Any])?["temperature"] as? String == "fahrenheit")
        #expect((report["shown"] as? [String: Any])?["screen"] as? String != "now", "C long: the next screen")
        let display = try #require(report["display"] as? [String: Any])
        #expect(display["model_errors"] as? Int == 0)
        #expect((display["frames"] as? Int ?? 0) > 0)
        #expect((report["timeline"] as? [Any])?.isEmpty == false)
    }

    @Test("a malformed script line exits 65 naming the line, before anything runs")
    func malformedScript() throws {
        let script = try Self.file(#"{"at": 1, "press": "a"}"# + "\n" + #"{"at": 2, "prses": "a"}"# + "\n")
        defer { try? FileManager.default.removeItem(at: script.deletingLastPathComponent()) }
        let run = try E2E.run(["simulate", "--headless", "--duration", "10", "--script", script.path])
        #expect(run.status == 65)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("line 2") && run.stderr.contains("prses"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test("bad arguments exit 64 with one line", arguments: [
        ["simulate", "--headless"],
        ["simulate", "--display", "ssd1309-128x64", "--headless", "--duration", "1"],
        ["simulate", "--weather", "cloudy", "--headless", "--duration", "1"],
        ["simulate", "--start", "yesterday", "--headless", "--duration", "1"],
        ["simulate", "--report", "x.json"],
    ])
    func badArguments(arguments: [String]) throws {
        let run = try E2E.run(arguments)
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    @Test("without a terminal and without --headless: exit 64, saying to use --headless")
    func noTerminal() throws {
        let run = try E2E.run(["simulate"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--headless"), "\(run.stderr)")
    }

    @Test("--state-dir keeps the settings across runs; a character LCD reports no lit fraction")
    func stateDirectory() throws {
        let script = try Self.file(#"{"at": 5, "press": "b"}"# + "\n")
        let directory = script.deletingLastPathComponent().appending(path: "state")
        defer { try? FileManager.default.removeItem(at: script.deletingLastPathComponent()) }
        let first = try E2E.run(["simulate", "--headless", "--duration", "30", "--script", script.path, "--state-dir", directory.path])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try E2E.run([
            "simulate", "--headless", "--duration", "30", "--state-dir", directory.path, "--display", "hd44780-20x4",
        ])
        #expect(second.status == 0, "\(second.stderr)")
        let report = try Self.report(second)
        #expect((report["settings"] as? [String: Any])?["units"] as? String == "imperial")
        #expect((report["display"] as? [String: Any])?["max_pixel_lit_fraction"] is NSNull)
    }
}

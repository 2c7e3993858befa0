import App
import Testing

/// The `simulate --script` format: every event kind, the ordering, the lines that are skipped.
@Suite("Simulation scripts")
struct SimulationScriptTests {
    typealias Step = SimulationScript.Step

    @Test("every event kind, with its companions and defaults")
    func everyEvent() throws {
        let script = try SimulationScript.parse("""
            {"at": 12, "press": "a"}
            {"at": 30, "hold": "b", "ms": 1500}
            {"at": 60, "gps": "unplug"}
            {"at": 61, "gps": "replug"}
            {"at": 90, "network": "down"}
            {"at": 91, "network": "up"}
            {"at": 95, "i2c": "nack", "count": 3}
            {"at": 96, "i2c": "nack"}
            {"at": 100, "disk": "eio"}
            {"at": 101, "disk": "enospc"}
            {"at": 102, "disk": "readonly"}
            {"at": 103, "disk": "ok"}
            {"at": 120, "power": "cut"}
            {"press": "D", "at": 121}
            {"at": 122, "hold": "C", "ms": 60000}
            """)
        #expect(script.steps == [
            Step(at: .seconds(12), action: .press(button: 0), line: 1),
            Step(at: .seconds(30), action: .hold(button: 1, duration: .milliseconds(1500)), line: 2),
            Step(at: .seconds(60), action: .gps(plugged: false), line: 3),
            Step(at: .seconds(61), action: .gps(plugged: true), line: 4),
            Step(at: .seconds(90), action: .network(up: false), line: 5),
            Step(at: .seconds(91), action: .network(up: true), line: 6),
            Step(at: .seconds(95), action: .i2cNack(count: 3), line: 7),
            Step(at: .seconds(96), action: .i2cNack(count: 1), line: 8),
            Step(at: .seconds(100), action: .disk(.eio), line: 9),
            Step(at: .seconds(101), action: .disk(.enospc), line: 10),
            Step(at: .seconds(102), action: .disk(.readOnly), line: 11),
            Step(at: .seconds(103), action: .disk(.ok), line: 12),
            Step(at: .seconds(120), action: .powerCut, line: 13),
            Step(at: .seconds(121), action: .press(button: 3), line: 14),
            Step(at: .seconds(122), action: .hold(button: 2, duration: .seconds(60)), line: 15),
        ])
    }

    @Test("clock events: an NTP step either way, a clock set off the true time, sync and unsync; a receiver's week rollover")
    func clockEvents() throws {
        let script = try SimulationScript.parse("""
            {"at": 1, "clock": "step", "by": 3600}
            {"at": 2, "clock": "step", "by": -0.5}
            {"at": 3, "clock": "set", "by": -259200}
            {"at": 4, "clock": "sync"}
            {"at": 5, "clock": "unsync"}
            {"at": 6, "gps": "week-rollover"}
            """)
        #expect(script.steps.map(\.action) == [
            .clock(.step(.seconds(3600))), .clock(.step(.milliseconds(-500))), .clock(.set(offset: .seconds(-259_200))),
            .clock(.sync), .clock(.unsync), .gpsWeekRollover,
        ])
        for (line, message) in [
            (#"{"at": 1, "clock": "step"}"#, "needs \"by\""),
            (#"{"at": 1, "clock": "sync", "by": 5}"#, "\"by\" goes with \"clock\": \"step\" or \"set\" only"),
            (#"{"at": 1, "press": "a", "by": 5}"#, "\"by\" goes with \"clock\" only"),
            (#"{"at": 1, "clock": "step", "by": 1e12}"#, "at most 30 years either way"),
            (#"{"at": 1, "clock": "jump", "by": 1}"#, "unknown value \"jump\" for \"clock\" (known: step, set, sync, unsync)"),
        ] {
            #expect(throws: ScriptError.self) { try SimulationScript.parse(line) }
            do {
                _ = try SimulationScript.parse(line)
            } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }

    @Test("times: whole or fractional seconds, to the nanosecond; 0 is the start")
    func times() throws {
        let script = try SimulationScript.parse("""
            {"at": 0, "press": "a"}
            {"at": 0.1, "press": "a"}
            {"at": 2.5e1, "press": "a"}
            {"at": 1.000000001, "press": "a"}
            """)
        #expect(script.steps.map(\.at) == [.zero, .milliseconds(100), .nanoseconds(1_000_000_001), .seconds(25)])
    }

    @Test("lines in any order are sorted by time; equal times keep the order of their lines")
    func ordering() throws {
        let script = try SimulationScript.parse("""
            {"at": 50, "power": "cut"}
            {"at": 10, "press": "c"}
            {"at": 10, "press": "a"}
            {"at": 5, "network": "down"}
            {"at": 10, "press": "b"}
            """)
        #expect(script.steps.map(\.line) == [4, 2, 3, 5, 1])
        #expect(script.steps.map(\.action) == [
            .network(up: false), .press(button: 2), .press(button: 0), .press(button: 1), .powerCut,
        ])
    }

    @Test("blank lines, comments, CRLF and a byte order mark are skipped; line numbers count them")
    func skippedLines() throws {
        let text = "\u{FEFF}# a run through a power cut\r\n\r\n   \t\n  # indented comment\n{\"at\": 1, \"press\": \"a\"}\r\n\n"
        let script = try SimulationScript.parse(text)
        #expect(script.steps == [Step(at: .seconds(1), action: .press(button: 0), line: 5)])
        #expect(try SimulationScript.parse("").steps.isEmpty)
        #expect(try SimulationScript.parse("# nothing but a comment\n").steps.isEmpty)
    }
}

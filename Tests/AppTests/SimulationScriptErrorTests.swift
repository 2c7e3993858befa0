import App
import Testing

/// Every way a script line is refused: the line number and one precise line of reason.
@Suite("Simulation script errors")
struct SimulationScriptErrorTests {
    /// The error for `text`, or a recorded issue if it parses.
    func error(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ScriptError? {
        do {
            let script = try SimulationScript.parse(text)
            Issue.record("parsed, expected an error: \(script)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    @Test("the description names the line; an unknown key lists the known ones")
    func unknownKey() {
        let text = "# presses\n{\"at\": 1, \"press\": \"a\"}\n{\"at\": 2, \"prses\": \"a\"}\n{\"at\": 3, \"nope\": 1}"
        let found = error(text)
        #expect(found == ScriptError(
            line: 3, message: "unknown key \"prses\" (known: at, press, hold, ms, gps, network, i2c, count, disk, power, clock, by)"))
        #expect(found?.description
            == "line 3: unknown key \"prses\" (known: at, press, hold, ms, gps, network, i2c, count, disk, power, clock, by)")
        #expect(error(#"{"at": 1, "zeta": 1, "alpha": 2, "press": "a"}"#)?.message
            == "unknown keys \"alpha\", \"zeta\" (known: at, press, hold, ms, gps, network, i2c, count, disk, power, clock, by)")
    }

    @Test("refused lines, each with its reason", arguments: [
        // Not JSON, not an object, a repeated key.
        (#"{"at": 1, "press": "a""#, "not JSON at column 23: expected ',' or '}' after the value of \"press\", found the end of the file"),
        (#"at: 1, press: a"#, "not JSON at column 1: expected a value (string, number, true, false, null, { or [), found 'a'"),
        (#"[{"at": 1, "press": "a"}]"#, "expected one JSON object per line, such as {\"at\": 12, \"press\": \"a\"}, found an array [ … ]"),
        (#"12"#, "expected one JSON object per line, such as {\"at\": 12, \"press\": \"a\"}, found the number 12"),
        (#"{"at": 1, "at": 2, "press": "a"}"#, "\"at\" appears twice; give each key once"),
        // "at".
        (#"{"press": "a"}"#, "missing \"at\": when the event happens, in seconds from the start"),
        (#"{"at": "12", "press": "a"}"#, "\"at\" must be a number of seconds, found the string \"12\""),
        (#"{"at": null, "press": "a"}"#, "\"at\" must be a number of seconds, found null"),
        (#"{"at": -1, "press": "a"}"#, "\"at\" is negative (-1): times count from the start, 0 or later"),
        (#"{"at": -0.5, "press": "a"}"#, "\"at\" is negative (-0.5): times count from the start, 0 or later"),
        (#"{"at": 1e999, "press": "a"}"#, "\"at\" is not a finite number"),
        (#"{"at": 4e8, "press": "a"}"#, "\"at\" is too late (400000000 s): at most 315360000 s, ten years"),
        // The event key.
        (#"{"at": 1}"#, "no event: give one of \"press\", \"hold\", \"gps\", \"network\", \"i2c\", \"disk\", \"power\", \"clock\""),
        (#"{"at": 1, "press": "a", "hold": "b", "ms": 10}"#, "two events on one line (\"press\" and \"hold\"); write one event per line"),
        (#"{"at": 1, "gps": "unplug", "power": "cut"}"#, "two events on one line (\"gps\" and \"power\"); write one event per line"),
        // Buttons.
        (#"{"at": 1, "press": "e"}"#, "unknown button \"e\" (buttons: a, b, c, d)"),
        (#"{"at": 1, "press": "ab"}"#, "unknown button \"ab\" (buttons: a, b, c, d)"),
        (#"{"at": 1, "press": ""}"#, "unknown button \"\" (buttons: a, b, c, d)"),
        (#"{"at": 1, "press": 0}"#, "\"press\" needs a button name \"a\"…\"d\", found the number 0"),
        (#"{"at": 1, "hold": "z", "ms": 100}"#, "unknown button \"z\" (buttons: a, b, c, d)"),
        // Hold durations and NACK counts.
        (#"{"at": 1, "hold": "a"}"#, "\"hold\" needs \"ms\", how long the button is held (1…60000)"),
        (#"{"at": 1, "hold": "a", "ms": 0}"#, "\"ms\" is out of range (0): 1…60000 milliseconds"),
        (#"{"at": 1, "hold": "a", "ms": 60001}"#, "\"ms\" is out of range (60001): 1…60000 milliseconds"),
        (#"{"at": 1, "hold": "a", "ms": 1.5}"#, "\"ms\" must be a whole number of milliseconds, found 1.5"),
        (#"{"at": 1, "hold": "a", "ms": "1500"}"#, "\"ms\" must be a number of milliseconds, found the string \"1500\""),
        (#"{"at": 1, "press": "a", "ms": 100}"#, "\"ms\" goes with \"hold\" only"),
        (#"{"at": 1, "i2c": "nack", "count": 0}"#, "\"count\" is out of range (0): 1…1000 transactions"),
        (#"{"at": 1, "i2c": "nack", "count": 1001}"#, "\"count\" is out of range (1001): 1…1000 transactions"),
        (#"{"at": 1, "i2c": "nack", "count": true}"#, "\"count\" must be a number of transactions, found true"),
        (#"{"at": 1, "disk": "eio", "count": 2}"#, "\"count\" goes with \"i2c\" only"),
        // Unknown values.
        (#"{"at": 1, "gps": "off"}"#, "unknown value \"off\" for \"gps\" (known: unplug, replug, week-rollover)"),
        (#"{"at": 1, "gps": false}"#, "\"gps\" needs one of unplug, replug, week-rollover, found false"),
        (#"{"at": 1, "network": "Down"}"#, "unknown value \"Down\" for \"network\" (known: down, up)"),
        (#"{"at": 1, "i2c": "ack"}"#, "unknown value \"ack\" for \"i2c\" (known: nack)"),
        (#"{"at": 1, "disk": "full"}"#, "unknown value \"full\" for \"disk\" (known: eio, enospc, readonly, ok)"),
        (#"{"at": 1, "disk": "readOnly"}"#, "unknown value \"readOnly\" for \"disk\" (known: eio, enospc, readonly, ok)"),
        (#"{"at": 1, "power": "off"}"#, "unknown value \"off\" for \"power\" (known: cut)"),
        (#"{"at": 1, "power": {}}"#, "\"power\" needs one of cut, found an object { … }"),
    ])
    func refused(line: String, message: String) {
        #expect(error("# header\n\n" + line) == ScriptError(line: 3, message: message))
    }

    @Test("the first bad line is reported, even when an earlier time is further down")
    func firstBadLine() {
        let text = "{\"at\": 50, \"press\": \"a\"}\n{\"at\": 60, \"press\": \"q\"}\n{\"at\": 1, \"press\": \"x\"}"
        #expect(error(text)?.line == 2)
    }

    @Test("a message stays one line: control characters in a key are escaped, long keys cut")
    func oneLineMessages() {
        let message = error(#"{"at": 1, "pr\u001Bess\n": "a"}"#)?.message ?? ""
        #expect(message.hasPrefix("unknown key \"pr\\u001Bess\\n\" (known:"))
        #expect(!message.contains("\n") && !message.contains("\u{1B}"))
        let long = String(repeating: "k", count: 100)
        #expect(error("{\"at\": 1, \"\(long)\": 1}")?.message.hasPrefix("unknown key \"" + String(repeating: "k", count: 40) + "…\" (known:") == true)
    }
}

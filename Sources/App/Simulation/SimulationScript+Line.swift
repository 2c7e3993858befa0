import JSON

/// One line of a simulation script refused, before its number is known.
struct ScriptLineError: Error {
    var message: String

    init(_ message: String) { self.message = message }
}

/// Reads one event line of a `SimulationScript`: JSON first (the project's `JSONParser`, which
/// says at which column a line stops being JSON and reports repeated keys), then the event.
///
/// Checks go from the outside in — JSON, an object, repeated keys, unknown keys, `at`, the event
/// key, its companions, its value — and the first problem is the message, so it names one thing
/// to fix. Unknown keys are checked before anything is read, since a misspelt key ("prses")
/// would otherwise surface as the misleading "no event".
enum ScriptLine {
    /// Every key, in the order the messages list them.
    static let knownKeys = ["at", "press", "hold", "ms", "gps", "network", "i2c", "count", "disk", "power", "clock", "by"]
    /// The keys that name an event; a line has exactly one.
    static let eventKeys = ["press", "hold", "gps", "network", "i2c", "disk", "power", "clock"]
    /// The largest clock step or offset, in seconds: 30 years either way (a clock at 1970, a
    /// receiver two rollovers back).
    static let largestClockChange = 946_080_000.0
    /// The latest `at`: ten years of virtual time, far beyond any run, and far from the limits
    /// of `Duration`'s nanoseconds.
    static let latest = 315_360_000.0
    static let holdRange = 1...60_000
    static let countRange = 1...1_000

    static func parse(_ bytes: [UInt8]) throws(ScriptLineError) -> (Duration, SimulationScript.Action) {
        var parser = JSONParser(bytes)
        let tree: JSONValue
        switch parser.parse() {
        case .success(let value): tree = value
        case .failure(let error): throw ScriptLineError("not JSON at column \(error.column): \(error.reason)")
        }
        guard case .object(let members) = tree else {
            throw ScriptLineError("expected one JSON object per line, such as {\"at\": 12, \"press\": \"a\"}, found \(tree.kindDescription)")
        }
        if let repeated = parser.duplicates.first {
            throw ScriptLineError("\(quoted(repeated.path)) appears twice; give each key once")
        }
        let unknown = members.keys.filter { !knownKeys.contains($0) }.sorted()
        if !unknown.isEmpty {
            let list = unknown.map(quoted).joined(separator: ", ")
            throw ScriptLineError("unknown key\(unknown.count == 1 ? "" : "s") \(list) (known: \(knownKeys.joined(separator: ", ")))")
        }
        let at = try time(members["at"])
        let events = eventKeys.filter { members[$0] != nil }
        guard let event = events.first else {
            throw ScriptLineError("no event: give one of \(eventKeys.map(quoted).joined(separator: ", "))")
        }
        guard events.count == 1 else {
            throw ScriptLineError("two events on one line (\(quoted(events[0])) and \(quoted(events[1]))); write one event per line")
        }
        if members["ms"] != nil, event != "hold" { throw ScriptLineError("\"ms\" goes with \"hold\" only") }
        if members["count"] != nil, event != "i2c" { throw ScriptLineError("\"count\" goes with \"i2c\" only") }
        if members["by"] != nil, event != "clock" { throw ScriptLineError("\"by\" goes with \"clock\" only") }
        return (at, try action(event, members[event]!, members))
    }

    /// `at`: seconds from the start, to the nanosecond.
    static func time(_ value: JSONValue?) throws(ScriptLineError) -> Duration {
        guard let value else { throw ScriptLineError("missing \"at\": when the event happens, in seconds from the start") }
        guard case .number(let seconds) = value else {
            throw ScriptLineError("\"at\" must be a number of seconds, found \(value.kindDescription)")
        }
        guard seconds.isFinite else { throw ScriptLineError("\"at\" is not a finite number") }
        guard seconds >= 0 else {
            throw ScriptLineError("\"at\" is negative (\(JSONValue.format(seconds))): times count from the start, 0 or later")
        }
        guard seconds <= latest else {
            throw ScriptLineError("\"at\" is too late (\(JSONValue.format(seconds)) s): at most \(Int(latest)) s, ten years")
        }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    static func action(_ event: String, _ value: JSONValue, _ members: [String: JSONValue]) throws(ScriptLineError)
        -> SimulationScript.Action
    {
        switch event {
        case "press":
            return .press(button: try button(value, key: event))
        case "hold":
            let index = try button(value, key: event)
            guard let ms = members["ms"] else {
                throw ScriptLineError("\"hold\" needs \"ms\", how long the button is held (\(describe(holdRange)))")
            }
            return .hold(button: index, duration: .milliseconds(try whole(ms, key: "ms", range: holdRange, unit: "milliseconds")))
        case "gps":
            let table: [String: SimulationScript.Action] = [
                "unplug": .gps(plugged: false), "replug": .gps(plugged: true), "week-rollover": .gpsWeekRollover,
            ]
            return try choice(value, key: event, table, order: ["unplug", "replug", "week-rollover"])
        case "clock":
            let kind = try choice(value, key: event, ["step": 0, "set": 1, "sync": 2, "unsync": 3], order: ["step", "set", "sync", "unsync"])
            guard kind < 2 else {
                if members["by"] != nil { throw ScriptLineError("\"by\" goes with \"clock\": \"step\" or \"set\" only") }
                return .clock(kind == 2 ? .sync : .unsync)
            }
            let by = try clockSeconds(members["by"], kind: kind == 0 ? "step" : "set")
            return .clock(kind == 0 ? .step(by) : .set(offset: by))
        case "network":
            return .network(up: try choice(value, key: event, ["down": false, "up": true], order: ["down", "up"]))
        case "i2c":
            _ = try choice(value, key: event, ["nack": true], order: ["nack"])
            let count = try members["count"].map { (v) throws(ScriptLineError) in
                try whole(v, key: "count", range: countRange, unit: "transactions")
            }
            return .i2cNack(count: count ?? 1)
        case "disk":
            let table = Dictionary(uniqueKeysWithValues: SimulationScript.DiskCondition.allCases.map { ($0.rawValue, $0) })
            return .disk(try choice(value, key: event, table, order: ["eio", "enospc", "readonly", "ok"]))
        default:  // "power"
            _ = try choice(value, key: event, ["cut": true], order: ["cut"])
            return .powerCut
        }
    }

    /// `by`: seconds, negative for back, fractional allowed, within 30 years.
    static func clockSeconds(_ value: JSONValue?, kind: String) throws(ScriptLineError) -> Duration {
        guard let value else {
            throw ScriptLineError("\"clock\": \"\(kind)\" needs \"by\", in seconds (negative: back), such as \"by\": -259200 for 3 days")
        }
        guard case .number(let seconds) = value, seconds.isFinite else {
            throw ScriptLineError("\"by\" must be a number of seconds, found \(value.kindDescription)")
        }
        guard abs(seconds) <= largestClockChange else {
            throw ScriptLineError("\"by\" is too large (\(JSONValue.format(seconds)) s): at most 30 years either way")
        }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// "a"…"d" or "A"…"D" → 0…3.
    static func button(_ value: JSONValue, key: String) throws(ScriptLineError) -> Int {
        guard case .string(let name) = value else {
            throw ScriptLineError("\(quoted(key)) needs a button name \"a\"…\"d\", found \(value.kindDescription)")
        }
        let buttons = ["a", "b", "c", "d"]
        guard let index = buttons.firstIndex(of: name.lowercased()), name.count == 1 else {
            throw ScriptLineError("unknown button \(quoted(name)) (buttons: a, b, c, d)")
        }
        return index
    }

    /// One of the strings of `table`, listed in `order` in the message.
    static func choice<Value>(_ value: JSONValue, key: String, _ table: [String: Value], order: [String])
        throws(ScriptLineError) -> Value
    {
        let known = order.joined(separator: ", ")
        guard case .string(let name) = value else {
            throw ScriptLineError("\(quoted(key)) needs one of \(known), found \(value.kindDescription)")
        }
        guard let result = table[name] else {
            throw ScriptLineError("unknown value \(quoted(name)) for \(quoted(key)) (known: \(known))")
        }
        return result
    }

    /// A whole number in `range`.
    static func whole(_ value: JSONValue, key: String, range: ClosedRange<Int>, unit: String) throws(ScriptLineError) -> Int {
        guard case .number(let number) = value else {
            throw ScriptLineError("\(quoted(key)) must be a number of \(unit), found \(value.kindDescription)")
        }
        guard let integer = value.integer else {
            throw ScriptLineError("\(quoted(key)) must be a whole number of \(unit), found \(JSONValue.format(number))")
        }
        guard range.contains(integer) else {
            throw ScriptLineError("\(quoted(key)) is out of range (\(integer)): \(describe(range)) \(unit)")
        }
        return integer
    }

    static func describe(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound)…\(range.upperBound)" }

    /// `"text"` for a message: escaped and cut after 40 characters, so the message stays one
    /// short line whatever the file holds.
    static func quoted(_ text: String) -> String { JSONText.quotedForMessage(text, limit: 40) }
}

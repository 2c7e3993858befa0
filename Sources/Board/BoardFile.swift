import JSON

/// The entry point: board-file bytes in, a validated `BoardConfig` or every problem out.
public enum BoardFile {
    /// Reads a board file. On failure the problems come in schema order and name each field;
    /// a syntax error is a single problem (nothing after it can be trusted), as is a schema
    /// newer than this build (its fields would all look unknown).
    public static func check(_ bytes: [UInt8]) -> Result<BoardConfig, BoardProblems> {
        var parser = JSONParser(bytes)
        let tree: JSONValue
        switch parser.parse() {
        case .success(let parsed): tree = parsed
        case .failure(let error):
            let message = bytes.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
                ? "the file is empty; a board file is one JSON object { … }" : "not valid JSON: \(error)"
            return .failure(BoardProblems([BoardProblem(path: "", message: message)]))
        }
        var validator = BoardValidator()
        let config = validator.board(tree, duplicates: parser.duplicates)
        if let config, validator.problems.isEmpty { return .success(config) }
        return .failure(BoardProblems(validator.problems))
    }
}

/// One thing wrong with a board file: which field, and what to do about it.
///
/// `path` names the field the way a maker would find it in the file: `display.address`,
/// `buttons[1].line` (indices count from 0, as in the JSON array). It is empty when the problem
/// concerns the document as a whole (not JSON at all, not an object).
public struct BoardProblem: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String

    /// Control characters in either (a key or value quoted from the file: `"pi\nctrl"`) are
    /// written as escapes, so a problem is always one line for the CLI and the journal.
    public init(path: String, message: String) {
        self.path = JSONText.oneLine(path)
        self.message = JSONText.oneLine(message)
    }

    /// `path: message`, or the message alone for whole-document problems; the CLI prefixes the
    /// file name, giving `board.json: display.address: …`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// All the problems found in one board file, in the order of the schema (top-level fields first,
/// then each section field by field), so two runs on the same file print the same lines.
public struct BoardProblems: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [BoardProblem]

    public init(_ problems: [BoardProblem]) { self.problems = problems }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

extension BoardConfig {
    /// Validates a board file; throws every problem found.
    public init(json bytes: [UInt8]) throws(BoardProblems) {
        switch BoardFile.check(bytes) {
        case .success(let config): self = config
        case .failure(let problems): throw problems
        }
    }
}

extension BoardValidator {
    static let topLevelKeys = ["schema", "name", "gps", "display", "buttons", "sensor", "defaultLocation", "timeZone", "screens", "weather", "barograph"]

    /// Validates the whole document. Sections are checked even after an earlier one failed,
    /// so one run lists everything; cross-checks run only between sections that are valid.
    mutating func board(_ tree: JSONValue, duplicates: [JSONParser.Duplicate]) -> BoardConfig? {
        guard case .object(let root) = tree else {
            report("", "a board file is one JSON object { \"schema\": 1, \"name\": …, … }, found \(tree.kindDescription)")
            return nil
        }
        guard !isNewerSchema(root) else { return nil }
        for duplicate in duplicates {
            report(duplicate.path, "appears twice in the same object (line \(duplicate.line)); JSON keeps only one, so remove the other")
        }
        _ = members(of: tree, at: "", allowed: Self.topLevelKeys)
        checkSchema(root)

        let name = required(root, "name", at: "", what: "a short name for this build, e.g. \"Kitchen Pi 4\"")
            .flatMap { self.text($0, at: "name", maximum: 64) }
        let gps = required(root, "gps", at: "", what: "the GPS receiver's serial port, e.g. { \"device\": \"/dev/serial0\", \"baud\": 9600 }")
            .flatMap { self.gps($0, at: "gps") }
        let display = required(root, "display", at: "", what: "the display, e.g. { \"kind\": \"ssd1306\", \"address\": \"0x3C\" }")
            .flatMap { self.display($0, at: "display") }
        let buttons = required(root, "buttons", at: "", what: "1 to 4 buttons, e.g. [{ \"name\": \"A\", \"line\": \"GPIO17\" }]")
            .flatMap { self.buttons($0, at: "buttons") }
        let sensorValue = optional(root, "sensor")
        let sensor = sensorValue.flatMap { self.sensor($0, at: "sensor", displayBus: display?.bus) }
        let location = required(root, "defaultLocation", at: "", what: "the place shown before the first GPS fix, e.g. { \"name\": \"Berlin\", \"latitude\": 52.52, \"longitude\": 13.405 }")
            .flatMap { self.defaultLocation($0, at: "defaultLocation") }
        let timeZoneValue = optional(root, "timeZone")
        let timeZone = timeZoneValue.flatMap { self.timeZone($0, at: "timeZone") }
        let screensValue = optional(root, "screens")
        let screens = screensValue.flatMap { self.screens($0, at: "screens", display: display?.kind) }
        let weatherValue = optional(root, "weather")
        let weather = weatherValue.flatMap { self.weather($0, at: "weather") }
        let barographValue = optional(root, "barograph")
        let barograph = barographValue.flatMap { self.barograph($0, at: "barograph") }

        if let display, let sensor { checkAddressClash(display: display, sensor: sensor) }
        if let buttons { checkReservedPins(buttons, display: display, sensor: sensor, gps: gps) }

        guard let name, let gps, let display, let buttons, let location,
            sensorValue == nil || sensor != nil, timeZoneValue == nil || timeZone != nil,
            screensValue == nil || screens != nil, weatherValue == nil || weather != nil,
            barographValue == nil || barograph != nil
        else { return nil }
        return BoardConfig(
            name: name, gps: gps, display: display, buttons: buttons, sensor: sensor,
            defaultLocation: location, timeZone: timeZone, screens: screens ?? .standard(for: display.kind),
            weather: weather ?? .standard, barograph: barograph ?? .standard)
    }

    /// True (after reporting it) when the file is newer than this build: then nothing else is
    /// reported, because fields added by a later schema would all read as unknown keys.
    private mutating func isNewerSchema(_ root: [String: JSONValue]) -> Bool {
        let current = BoardConfig.schemaVersion
        guard let version = root["schema"]?.integer, version > current else { return false }
        report("schema", "this file is schema \(version), but this build of thunderstorm reads schema \(current); update thunderstorm, or rewrite the file for schema \(current)")
        return true
    }

    /// A missing, mistyped or too-old `"schema"`.
    private mutating func checkSchema(_ root: [String: JSONValue]) {
        let current = BoardConfig.schemaVersion
        guard let value = required(root, "schema", at: "", what: "add \"schema\": \(current) (the version of the board-file format)") else {
            return
        }
        guard let version = value.integer else {
            report("schema", "expected the whole number \(current), found \(value.kindDescription)")
            return
        }
        if version < current {
            report("schema", "schema versions start at 1; this build reads schema \(current), found \(version)")
        }
    }
}

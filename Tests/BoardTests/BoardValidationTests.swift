import JSON
import Testing

@testable import Board

@Suite("Board file validation")
struct BoardValidationTests {
    static func problems(_ text: String) -> [BoardProblem] {
        switch BoardFile.check(Array(text.utf8)) {
        case .success: return []
        case .failure(let failure): return failure.problems
        }
    }

    @Test("the minimal document used by the table is itself valid")
    func testValidation_MinimalDocument_IsValid() {
        #expect(Self.problems(BrokenDocuments.minimal()) == [])
    }

    @Test("each broken document names the field and the reason", arguments: BrokenDocuments.cases)
    func testValidation_BrokenDocument_Fails(_ broken: BrokenCase) {
        let found = Self.problems(broken.document)
        let match = found.contains { $0.path == broken.path && $0.message.contains(broken.fragment) }
        #expect(match, "expected \(broken.path): …\(broken.fragment)…, got:\n\(found.map(\.description).joined(separator: "\n"))")
    }

    @Test("a value or key with a line break is quoted escaped: every problem stays one line (found by BoardFuzz)",
          arguments: [
              (#""line": "GPIO17" }"#, #""line": "GPIO17", "chip": "pi\nctrl" }"#),
              (#""name": "Test build""#, #""na\rme\u0007": 1, "name": "Test build""#),
              (#""defaultLocation": {"#, #""timeZone": "Europe/\nBerlin", "defaultLocation": {"#),
          ])
    func testValidation_ControlCharacters_StayOnOneLine(original: String, replacement: String) {
        let text = BrokenDocuments.minimal().replacing(original, with: replacement)
        #expect(text != BrokenDocuments.minimal(), "the replacement applies")
        let found = Self.problems(text)
        #expect(!found.isEmpty)
        for problem in found {
            #expect(!problem.description.contains(where: { $0.isNewline || $0 == "\u{07}" }), "\(problem.description)")
        }
        #expect(found.contains { $0.description.contains(#"\n"#) || $0.description.contains(#"\r"#) }, "the break is shown, escaped")
    }

    @Test("an empty object reports every missing required field")
    func testValidation_EmptyObject_ListsAllMissing() {
        let paths = Self.problems("{}").map(\.path)
        #expect(paths == ["schema", "name", "gps", "display", "buttons", "defaultLocation"])
    }

    @Test("a newer schema is the only problem reported")
    func testValidation_NewerSchema_StopsThere() {
        let text = BrokenDocuments.minimal().replacing(#""schema": 1"#, with: #""schema": 2, "wifi": {}"#)
        let found = Self.problems(text)
        #expect(found.count == 1)
        #expect(found.first?.message.contains("file is schema 2") == true)
    }

    @Test("a syntax error is one problem, placed and explained")
    func testValidation_SyntaxError_IsOneProblem() {
        let found = Self.problems("{\n  \"schema\": 1,\n  \"name\": x\n}")
        #expect(found.count == 1)
        let message = found.first?.message ?? ""
        #expect(message.hasPrefix("not valid JSON: line 3, column 11:"))
        #expect(message.hasSuffix("expected a value (string, number, true, false, null, { or [), found 'x'"))
    }

    @Test("several problems are reported together, in schema order")
    func testValidation_SeveralProblems_AllReported() {
        let text = BrokenDocuments.minimal()
            .replacing(#""device": "/dev/serial0""#, with: #""device": "/dev/serial0", "baud": 9601"#)
            .replacing(#""kind": "ssd1306""#, with: #""kind": "sh1106", "columnOffset": 5, "adress": "0x3C""#)
            .replacing(#"{ "name": "B", "line": "GPIO27" }"#, with: #"{ "name": "B", "line": "GPIO17" }"#)
            .replacing(#""latitude": 52.52"#, with: #""latitude": 91"#)
        let found = Self.problems(text)
        #expect(found.map(\.path) == [
            "gps.baud", "display.adress", "display.columnOffset", "buttons[1].line", "defaultLocation.latitude",
        ])
    }

    @Test("problems inside a bad button do not hide problems in the others")
    func testValidation_EveryButtonChecked_Fails() {
        let text = BrokenDocuments.minimal(buttons: 3)
            .replacing(#""line": "GPIO17""#, with: #""line": "17""#)
            .replacing(#""line": "GPIO22""#, with: #""line": true"#)
        #expect(Self.problems(text).map(\.path) == ["buttons[0].line", "buttons[2].line"])
    }

    @Test("suggestions catch other conventions and typos, but not unrelated words")
    func testSuggestion_NearMisses() {
        let keys = BoardValidator.displayKeys
        #expect(Suggestion.nearest(to: "externalVcc", in: keys) == "externalVCC")
        #expect(Suggestion.nearest(to: "column_offset", in: keys) == "columnOffset")
        #expect(Suggestion.nearest(to: "adress", in: keys) == "address")
        #expect(Suggestion.nearest(to: "bux", in: keys) == "bus")
        #expect(Suggestion.nearest(to: "contrast", in: keys) == nil)
    }

    @Test("valid documents parse into exactly their tree")
    func testParser_ValidDocuments_Tree() throws {
        let text = #"{"a": [1, -2.5e3, true, null, "\u00e9\n", "\ud83c\udf29"], "b": {}, "a2": 0.5,}"#
        #expect(try JSONValue.parse(Array(text.utf8)).get() == .object([
            "a": .array([.number(1), .number(-2500), .bool(true), .null, .string("é\n"), .string("🌩")]),
            "b": .object([:]),
            "a2": .number(0.5),
        ]))
        #expect(try JSONValue.parse(Array("\u{FEFF}{}".utf8)).get() == .object([:]))
        guard case .object = try JSONValue.parse(Array(BrokenDocuments.minimal().utf8)).get() else {
            Issue.record("the minimal board file is not an object")
            return
        }
        var parser = JSONParser(Array(#"{"d": 1, "d": 2}"#.utf8))
        #expect(try parser.parse().get() == .object(["d": .number(2)]))
        #expect(parser.duplicates == [JSONParser.Duplicate(path: "d", line: 1)])
    }

    @Test("syntax error columns count characters, not bytes")
    func testScanner_ColumnCountsCharacters() {
        let found = Self.problems("{ \"name\": \"Zürich\" x }")
        #expect(found.first?.message.hasPrefix("not valid JSON: line 1, column 20: expected ',' or '}'") == true)
    }

    @Test("\"sensor\": null means no sensor, and problems print as path: message")
    func testValidation_NullOptional_IsAbsent() throws {
        let text = BrokenDocuments.minimal().replacing(#""sensor": { "kind": "bme280", "address": "0x76" }"#, with: #""sensor": null"#)
        let config = try BoardConfig(json: Array(text.utf8))
        #expect(config.sensor == nil)
        #expect(BoardProblem(path: "display.address", message: "bad").description == "display.address: bad")
        #expect(BoardProblem(path: "", message: "not valid JSON").description == "not valid JSON")
    }

    @Test("the same file gives the same problems in the same order on every run")
    func testValidation_Order_IsStable() {
        let text = #"{"schema": 1, "zeta": 1, "alpha": 2, "beta": 3, "name": ""}"#
        let first = Self.problems(text)
        #expect(first.prefix(4).map(\.path) == ["alpha", "beta", "zeta", "name"])
        for _ in 0..<5 { #expect(Self.problems(text) == first) }
    }

    @Test("a misspelled required key is one problem, not an unknown key plus a missing field")
    func testValidation_MisspelledRequiredKey_OneProblem() {
        let text = BrokenDocuments.minimal().replacing(#""device": "/dev/serial0""#, with: #""devcie": "/dev/serial0""#)
        #expect(Self.problems(text) == [
            BoardProblem(path: "gps.devcie", message: #"unknown key "devcie"; did you mean "device"?"#),
        ])
    }
}

@Suite("JSON error messages")
struct JSONErrorMessageTests {
    @Test("a key quoted in a syntax error is one line: escapes are written back, long keys cut")
    func quotedKeys() {
        var parser = JSONParser(Array(#"{"time\nzone\u0001\"x": 1 "next": 2}"#.utf8))
        guard case .failure(let error) = parser.parse() else {
            Issue.record("the document is not valid JSON")
            return
        }
        #expect(error.reason == #"expected ',' or '}' after the value of "time\nzone\u0001\"x", found '"'"#)
        var long = JSONParser(Array(("{\"" + String(repeating: "k", count: 100) + "\" 1}").utf8))
        guard case .failure(let cut) = long.parse() else {
            Issue.record("a key without its ':' parsed as valid JSON")
            return
        }
        #expect(cut.reason == "expected ':' after the key \"" + String(repeating: "k", count: 60) + "…\", found '1'")
        var accented = JSONParser(Array(#"{"Zürich" 1}"#.utf8))
        guard case .failure(let plain) = accented.parse() else {
            Issue.record("an accented key without its ':' parsed as valid JSON")
            return
        }
        #expect(plain.reason == #"expected ':' after the key "Zürich", found '1'"#)
    }
}

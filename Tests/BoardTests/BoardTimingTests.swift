import Testing

@testable import Board

/// Button timing (`debounceMs`, `longPressMs`) and the `screens` section: valid values and
/// defaults. The broken values are rows of `BrokenDocuments.timingCases`.
@Suite("Board file: button timing and screens")
struct BoardTimingTests {
    static func config(_ text: String) throws -> BoardConfig { try BoardConfig(json: Array(text.utf8)) }

    static func withScreens(_ screens: String) -> String {
        BrokenDocuments.minimal().replacing(BrokenDocuments.location, with: "  \"screens\": \(screens),\n" + BrokenDocuments.location)
    }

    @Test("without the new fields every button gets 20 ms / 800 ms and screens get .standard")
    func testTiming_Defaults() throws {
        let config = try Self.config(BrokenDocuments.minimal(buttons: 4))
        #expect(config.buttons.allSatisfy { $0.debounce == .milliseconds(20) && $0.longPressDuration == .milliseconds(800) })
        #expect(config.screens == .standard)
        #expect(config.screens.rotateEvery == .seconds(60) && config.screens.orbit)
        #expect(try Self.config(Self.withScreens("null")).screens == .standard)
        #expect(try Self.config(Self.withScreens("{}")).screens == .standard)
        #expect(try Self.config(Self.withScreens(#"{ "rotate": null }"#)).screens == .standard)
        #expect(try Self.config(Self.withScreens(#"{ "rotate": false }"#)).screens == ScreenConfig(rotateEvery: nil))
    }

    @Test("a character LCD keeps the chosen screen unless the file asks for rotation")
    func testScreens_LCDDefault() throws {
        #expect(ScreenConfig.standard(for: .hd44780) == ScreenConfig(rotateEvery: nil))
        #expect(ScreenConfig.standard(for: .sh1106) == .standard)
    }

    @Test("the limits themselves are accepted, per button", arguments: [(0, 300), (200, 5000), (35, 1200)])
    func testTiming_ValidValues(debounceMs: Int, longPressMs: Int) throws {
        let text = BrokenDocuments.minimal().replacing(
            BrokenDocuments.buttonB,
            with: #"{ "name": "B", "line": "GPIO27", "debounceMs": \#(debounceMs), "longPressMs": \#(longPressMs) }"#)
        let buttons = try Self.config(text).buttons
        #expect(buttons[1].debounce == .milliseconds(debounceMs))
        #expect(buttons[1].longPressDuration == .milliseconds(longPressMs))
        #expect(buttons[0].debounce == ButtonConfig.defaultDebounce)
        #expect(buttons[0].longPressDuration == ButtonConfig.defaultLongPressDuration)
    }

    @Test("screens: rotation from 10 s to an hour, orbit off", arguments: [10, 60, 3600])
    func testScreens_ValidValues(seconds: Int) throws {
        let screens = try Self.config(Self.withScreens(#"{ "rotate": \#(seconds), "orbit": false }"#)).screens
        #expect(screens == ScreenConfig(rotateEvery: .seconds(seconds), orbit: false))
    }

    @Test("existing call sites keep compiling: the new initialiser parameters have defaults")
    func testTiming_InitialiserDefaults() {
        let button = ButtonConfig(
            name: "A", chip: nil, line: .name("GPIO17"), activeLow: true, bias: .pullUp,
            press: .nextScreen, longPress: .none)
        #expect(button.debounce == .milliseconds(20) && button.longPressDuration == .milliseconds(800))
    }

    @Test("each broken timing or screens value names the field and the reason", arguments: BrokenDocuments.timingCases)
    func testTiming_BrokenValue_Fails(_ broken: BrokenCase) {
        let found = BoardValidationTests.problems(broken.document)
        let match = found.contains { $0.path == broken.path && $0.message.contains(broken.fragment) }
        #expect(match, "expected \(broken.path): …\(broken.fragment)…, got:\n\(found.map(\.description).joined(separator: "\n"))")
        #expect(found.count == 1, "\(found)")
    }
}

extension BrokenDocuments {
    static func button(_ extra: String) -> [(String, String)] {
        [(buttonA, #"{ "name": "A", "line": "GPIO17", \#(extra) }"#)]
    }

    static func screens(_ screens: String) -> [(String, String)] {
        [(location, "  \"screens\": \(screens),\n" + location)]
    }

    static let timingCases: [BrokenCase] = [
        edit("debounce over 200 ms", button(#""debounceMs": 250"#),
            path: "buttons[0].debounceMs", fragment: "250 is out of range; the debounce time must be between 0 and 200 milliseconds"),
        edit("negative debounce", button(#""debounceMs": -1"#),
            path: "buttons[0].debounceMs", fragment: "-1 is out of range"),
        edit("debounce in quotes", button(#""debounceMs": "20""#),
            path: "buttons[0].debounceMs", fragment: #"found the string "20" (write the number without quotes)"#),
        edit("debounce with a fraction", button(#""debounceMs": 12.5"#),
            path: "buttons[0].debounceMs", fragment: "expected a whole number of milliseconds (0 to 200), found the number 12.5"),
        edit("debounce in another convention", button(#""debounce_ms": 20"#),
            path: "buttons[0].debounce_ms", fragment: #"did you mean "debounceMs"?"#),
        edit("long press under 300 ms", button(#""longPressMs": 200"#),
            path: "buttons[0].longPressMs", fragment: "200 is out of range; the long-press time must be between 300 and 5000 milliseconds"),
        edit("long press over 5 s", button(#""longPressMs": 6000"#),
            path: "buttons[0].longPressMs", fragment: "between 300 and 5000 milliseconds"),
        edit("long press as a bool", button(#""longPressMs": true"#),
            path: "buttons[0].longPressMs", fragment: "expected a whole number of milliseconds (300 to 5000), found true"),
        edit("long press in seconds, as a string", button(#""longPressMs": "1s""#),
            path: "buttons[0].longPressMs", fragment: #"found the string "1s""#),
        edit("screens as an array", screens("[]"),
            path: "screens", fragment: "expected an object { … }, found an array"),
        edit("unknown key in screens", screens(#"{ "interval": 30 }"#),
            path: "screens.interval", fragment: "known keys here: rotate, orbit"),
        edit("rotation every 5 s", screens(#"{ "rotate": 5 }"#),
            path: "screens.rotate", fragment: "5 is out of range; the time between screens must be between 10 and 3600 seconds"),
        edit("rotation every 2 h", screens(#"{ "rotate": 7200 }"#),
            path: "screens.rotate", fragment: "between 10 and 3600 seconds"),
        edit("rotation 0 for never", screens(#"{ "rotate": 0 }"#),
            path: "screens.rotate", fragment: "set it to false for no automatic rotation"),
        edit("rotation true", screens(#"{ "rotate": true }"#),
            path: "screens.rotate", fragment: "expected a number of seconds or false"),
        edit("rotation in quotes", screens(#"{ "rotate": "60" }"#),
            path: "screens.rotate", fragment: "(write the number without quotes)"),
        edit("rotation with a fraction", screens(#"{ "rotate": 30.5 }"#),
            path: "screens.rotate", fragment: "expected a whole number of seconds (10 to 3600), found the number 30.5"),
        edit("orbit as a string", screens(#"{ "orbit": "yes" }"#),
            path: "screens.orbit", fragment: #"expected true or false, found the string "yes""#),
    ]
}

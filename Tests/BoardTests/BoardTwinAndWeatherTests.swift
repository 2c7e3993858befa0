import Testing

@testable import Board

/// `"simulated"` on every part, `"weather"` and `display.onStop`: the fields the daemon reads.
@Suite("Board file: simulated parts, weather, onStop")
struct BoardTwinAndWeatherTests {
    typealias V = BoardValidationTests

    static func config(_ text: String) throws -> BoardConfig { try BoardConfig(json: Array(text.utf8)) }

    static func edited(_ edits: [(String, String)], base: String = BrokenDocuments.minimal()) -> String {
        var text = base
        for (old, new) in edits {
            precondition(text.contains(old), "edit not applied: \(old)")
            text = text.replacing(old, with: new)
        }
        return text
    }

    @Test("nothing is simulated unless the file says so")
    func testTwins_Default_NoneSimulated() throws {
        let config = try Self.config(BrokenDocuments.minimal())
        #expect(config.simulatedParts.isEmpty)
        #expect(config.weather == .standard)
        #expect(config.weather.provider == .openMeteo && config.weather.baseURL == nil && !config.weather.simulated)
    }

    @Test("a simulated GPS needs no device and takes the usual one's name")
    func testTwins_SimulatedGPS_NoDevice() throws {
        let config = try Self.config(Self.edited([(#""gps": { "device": "/dev/serial0" }"#, #""gps": { "simulated": true }"#)]))
        #expect(config.gps == GPSConfig(device: "/dev/serial0", baud: .auto, simulated: true))
        let real = V.problems(Self.edited([(#""gps": { "device": "/dev/serial0" }"#, #""gps": { "simulated": false }"#)]))
        #expect(real.map(\.path) == ["gps.device"])
        let typed = V.problems(Self.edited([(#""gps": { "device": "/dev/serial0" }"#, #""gps": { "simulated": "yes" }"#)]))
        #expect(typed.contains { $0.path == "gps.simulated" && $0.message.contains("expected true or false") })
    }

    @Test("a simulated button needs no line, and clashes with no line or reserved pin")
    func testTwins_SimulatedButtons_NoLine() throws {
        let twins = Self.edited([
            (#"{ "name": "A", "line": "GPIO17" }"#, #"{ "name": "A", "simulated": true }"#),
            (#"{ "name": "B", "line": "GPIO27" }"#, #"{ "name": "B", "line": "GPIO3", "simulated": true }"#),
        ])
        let config = try Self.config(twins)
        #expect(config.buttons.map(\.line) == [.simulated, .name("GPIO3")])
        #expect(config.buttons.allSatisfy { $0.simulated })
        #expect(config.simulatedParts == ["buttons"])
        // The same line twice is fine when one of them is a twin.
        let shared = Self.edited([(#"{ "name": "B", "line": "GPIO27" }"#, #"{ "name": "B", "line": "GPIO17", "simulated": true }"#)])
        #expect(V.problems(shared) == [])
        // A real button still needs its line, and a twin still needs its own name.
        let missing = V.problems(Self.edited([(#"{ "name": "A", "line": "GPIO17" }"#, #"{ "name": "A" }"#)]))
        #expect(missing.map(\.path) == ["buttons[0].line"])
        let named = V.problems(Self.edited([(#"{ "name": "B", "line": "GPIO27" }"#, #"{ "name": "a", "simulated": true }"#)]))
        #expect(named.map(\.path) == ["buttons[1].name"])
        let mixed = try Self.config(Self.edited([(#"{ "name": "B", "line": "GPIO27" }"#, #"{ "name": "B", "simulated": true }"#)]))
        #expect(mixed.simulatedParts == ["1 of 2 buttons"])
    }

    @Test("the header UART's pins are reserved under all its names, not for a simulated GPS")
    func testTwins_HeaderUART_Reserved() {
        for device in ["/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0"] {
            let text = Self.edited([
                (#""device": "/dev/serial0""#, #""device": "\#(device)""#),
                (#"{ "name": "B", "line": "GPIO27" }"#, #"{ "name": "B", "line": "GPIO15" }"#),
            ])
            let found = V.problems(text)
            #expect(found.contains { $0.path == "buttons[1].line" && $0.message.contains("RXD of \(device)") }, "\(device): \(found)")
        }
        let twin = Self.edited([
            (#""gps": { "device": "/dev/serial0" }"#, #""gps": { "simulated": true }"#),
            (#"{ "name": "B", "line": "GPIO27" }"#, #"{ "name": "B", "line": "GPIO15" }"#),
        ])
        #expect(V.problems(twin) == [])
    }

    @Test("a simulated display and sensor sit on the twins' bus: no address clash with real parts")
    func testTwins_SimulatedI2C_NoClashWithReal() throws {
        let clash = [(#""sensor": { "kind": "bme280", "address": "0x76" }"#, #""sensor": { "kind": "bme280", "address": "0x76" }"#),
                     (#""display": { "kind": "ssd1306" }"#, #""display": { "kind": "ssd1306", "address": "0x3D" }"#)]
        #expect(V.problems(Self.edited(clash)) == [])
        // Both real at one address on one bus: refused; one of them simulated: fine.
        let sameAddress = Self.edited([(#""sensor": { "kind": "bme280", "address": "0x76" }"#, #""sensor": { "kind": "bme280", "address": "0x77" }"#)])
        #expect(V.problems(sameAddress) == [])
        let config = try Self.config(Self.edited([
            (#""display": { "kind": "ssd1306" }"#, #""display": { "kind": "ssd1306", "simulated": true }"#),
            (#""sensor": { "kind": "bme280", "address": "0x76" }"#, #""sensor": { "kind": "bme280", "address": "0x76", "simulated": true }"#),
        ]))
        #expect(config.display.simulated && config.sensor?.simulated == true)
        #expect(config.simulatedParts == ["display", "sensor"])
    }

    @Test("onStop: off by default on an OLED, a message on an LCD, either when asked, nothing else")
    func testOnStop_DefaultsAndChoices() throws {
        #expect(try Self.config(BrokenDocuments.minimal()).display.onStop == .off)
        let lcd = Self.edited([(#""display": { "kind": "ssd1306" }"#, #""display": { "kind": "hd44780" }"#)])
        #expect(try Self.config(lcd).display.onStop == .message)
        let message = Self.edited([(#""display": { "kind": "ssd1306" }"#, #""display": { "kind": "ssd1306", "onStop": "message" }"#)])
        #expect(try Self.config(message).display.onStop == .message)
        let blank = V.problems(Self.edited([(#""display": { "kind": "ssd1306" }"#, #""display": { "kind": "ssd1306", "onStop": "blank" }"#)]))
        #expect(blank.contains { $0.path == "display.onStop" && $0.message.contains(#""off" or "message""#) }, "\(blank)")
    }

    @Test("weather: provider, address, contact; MET Norway needs a contact")
    func testWeather_Fields() throws {
        func board(_ weather: String) -> String {
            Self.edited([(#"  "defaultLocation""#, "  \"weather\": \(weather),\n  \"defaultLocation\"")])
        }
        let local = try Self.config(board(#"{ "baseURL": "http://127.0.0.1:8089/" }"#)).weather
        #expect(local == WeatherConfig(provider: .openMeteo, baseURL: "http://127.0.0.1:8089"))
        let met = try Self.config(board(#"{ "provider": "met-norway", "contact": "me@example.org" }"#)).weather
        #expect(met == WeatherConfig(provider: .metNorway, contact: "me@example.org"))
        #expect(try Self.config(board(#"{ "simulated": true }"#)).weather.simulated)
        #expect(try Self.config(board(#"{ "simulated": true }"#)).simulatedParts == ["weather"])

        let noContact = V.problems(board(#"{ "provider": "met-norway" }"#))
        #expect(noContact.contains { $0.path == "weather.contact" && $0.message.contains("MET Norway's terms require a contact") }, "\(noContact)")
        let scheme = V.problems(board(#"{ "baseURL": "ftp://example.org" }"#))
        #expect(scheme.contains { $0.path == "weather.baseURL" && $0.message.contains("https://") })
        let query = V.problems(board(#"{ "baseURL": "https://example.org/?key=1" }"#))
        #expect(query.map(\.path) == ["weather.baseURL"])
        let accented = V.problems(board(#"{ "provider": "met-norway", "contact": "José" }"#))
        #expect(accented.contains { $0.path == "weather.contact" && $0.message.contains("printable ASCII") }, "\(accented)")
        let provider = V.problems(board(#"{ "provider": "openmeteo" }"#))
        #expect(provider.contains { $0.path == "weather.provider" && $0.message.contains(#"did you mean "open-meteo""#) }, "\(provider)")
        let typo = V.problems(board(#"{ "baseUrl": "https://example.org" }"#))
        #expect(typo.contains { $0.path == "weather.baseUrl" && $0.message.contains(#"did you mean "baseURL""#) }, "\(typo)")
    }

    static func weatherBoard(baseURL: String) -> String {
        Self.edited([(#"  "defaultLocation""#, "  \"weather\": { \"baseURL\": \"\(baseURL)\" },\n  \"defaultLocation\"")])
    }

    /// `http://127.0.0.1:99999` passed `board check`, and then every fetch failed as a
    /// "network" error. An address the HTTP client can never request is one problem here.
    @Test("weather.baseURL: an address the client cannot request is refused, with the reason", arguments: [
        ("http://127.0.0.1:99999", "the port 99999 is out of range; a TCP port is 1 to 65535"),
        ("http://127.0.0.1:0", "the port 0 is out of range"),
        ("https://example.org:123456789012345678901234/", "is out of range"),
        ("http://127.0.0.1:80a", #"the port "80a" is not a number"#),
        ("https://me:secret@example.org", "user information"),
        ("http://[::1", #"no closing "]""#),
        ("http://[::1]8080", #"only ":port" may follow"#),
        ("http://[zz]:8080", #""[zz]" is not an IPv6 address"#),
        ("http://:8080", "no host before the port"),
        ("http://exa!mple.org", "characters a host name cannot have"),
    ])
    func testWeather_BaseURL_Unusable_Fails(url: String, reason: String) {
        let found = V.problems(Self.weatherBoard(baseURL: url))
        #expect(found.map(\.path) == ["weather.baseURL"], "\(found)")
        #expect(found.first?.message.hasPrefix("\"\(url)\" cannot be requested: ") == true, "\(found)")
        #expect(found.first?.message.contains(reason) == true, "\(found)")
    }

    @Test("weather.baseURL: ports 1 and 65535, an empty port, an IPv6 literal and a path prefix are fine", arguments: [
        ("http://127.0.0.1:65535", "http://127.0.0.1:65535"), ("http://127.0.0.1:1/", "http://127.0.0.1:1"),
        ("https://example.org:/", "https://example.org:"), ("http://[::1]:8089/", "http://[::1]:8089"),
        ("https://mirror.example.org/open-meteo", "https://mirror.example.org/open-meteo"),
    ])
    func testWeather_BaseURL_Usable(url: String, kept: String) throws {
        #expect(try Self.config(Self.weatherBoard(baseURL: url)).weather.baseURL == kept)
    }
}

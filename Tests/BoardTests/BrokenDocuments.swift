import Testing

/// One broken board file and the problem it must produce: the exact field path and a fragment
/// of the reason (fragments, not whole messages, so wording can improve without churn).
struct BrokenCase: Sendable, CustomTestStringConvertible {
    let label: String
    let document: String
    let path: String
    let fragment: String

    var testDescription: String { label }
}

/// A small valid board file and edits of it that break exactly one thing each.
enum BrokenDocuments {
    static func minimal(sensor: Bool = true, buttons: Int = 2) -> String {
        let lines = ["GPIO17", "GPIO27", "GPIO22", "GPIO23", "GPIO24"]
        let names = ["A", "B", "C", "D", "E"]
        let buttonList = (0..<buttons).map { #"    { "name": "\#(names[$0])", "line": "\#(lines[$0])" }"# }
        let sensorLine = sensor ? #"  "sensor": { "kind": "bme280", "address": "0x76" },"# + "\n" : ""
        return """
            {
              "schema": 1,
              "name": "Test build",
              "gps": { "device": "/dev/serial0" },
              "display": { "kind": "ssd1306" },
              "buttons": [
            \(buttonList.joined(separator: ",\n"))
              ],
            \(sensorLine)  "defaultLocation": { "name": "Berlin", "latitude": 52.52, "longitude": 13.405 }
            }
            """
    }

    /// `minimal()` with each `(old, new)` replaced. An edit that does not apply yields a
    /// document that fails loudly, so a stale table entry cannot pass by accident.
    static func edit(
        _ label: String, _ edits: [(String, String)], base: String = minimal(), path: String, fragment: String
    ) -> BrokenCase {
        var text = base
        for (old, new) in edits {
            guard text.contains(old) else {
                return BrokenCase(label: label, document: "edit not applied: \(old)", path: "edit", fragment: old)
            }
            text = text.replacing(old, with: new)
        }
        return BrokenCase(label: label, document: text, path: path, fragment: fragment)
    }

    static let display = #""kind": "ssd1306""#
    static let gps = #""device": "/dev/serial0""#
    static let buttonA = #"{ "name": "A", "line": "GPIO17" }"#
    static let buttonB = #"{ "name": "B", "line": "GPIO27" }"#
    static let latitude = #""latitude": 52.52"#
    static let location = #"  "defaultLocation""#

    static let cases: [BrokenCase] = [
        edit("unknown key with a suggestion", [(display, display + #", "adress": "0x3D""#)],
            path: "display.adress", fragment: #"unknown key "adress"; did you mean "address"?"#),
        edit("unknown key in another convention", [(buttonA, #"{ "name": "A", "line": "GPIO17", "long_press": "none" }"#)],
            path: "buttons[0].long_press", fragment: #"did you mean "longPress"?"#),
        edit("unknown top-level key lists the known ones", [(location, #"  "wifi": {},"# + "\n" + location)],
            path: "wifi", fragment: "known keys here: schema, name"),
        edit("wrong type: number for a string", [(#""name": "Test build""#, #""name": 42"#)],
            path: "name", fragment: "expected a string, found the number 42"),
        edit("wrong type: string for a bool", [(buttonA, #"{ "name": "A", "line": "GPIO17", "activeLow": "true" }"#)],
            path: "buttons[0].activeLow", fragment: "write true or false without quotes"),
        edit("wrong type: object for the buttons array", [(#""buttons": ["#, #""buttons": { "x": ["#), ("\n  ],", "\n  ]},")],
            path: "buttons", fragment: "expected an array of 1 to 4 buttons"),
        edit("required section is null", [(#""gps": { "device": "/dev/serial0" }"#, #""gps": null"#)],
            path: "gps", fragment: "is null, but it is required"),
        edit("address reserved by I²C", [(display, display + #", "address": "0x7F""#)],
            path: "display.address", fragment: "0x7F is outside 0x08–0x77, the 7-bit addresses a device may use"),
        edit("8-bit address from a data sheet", [(display, display + #", "address": "0x78""#)],
            path: "display.address", fragment: "whose 7-bit address is 0x3C"),
        edit("hex address without 0x", [(display, display + #", "address": "3C""#)],
            path: "display.address", fragment: #"did you mean "0x3C"?"#),
        edit("decimal 27 meant as 0x27", [(display, #""kind": "hd44780", "address": 27"#)],
            path: "display.address", fragment: #"did you mean "0x27"?"#),
        edit("sensor away from 0x76/0x77", [(#""address": "0x76""#, #""address": "0x75""#)],
            path: "sensor.address", fragment: "only at 0x76"),
        edit("bad baud", [(gps, gps + #", "baud": 9601"#)],
            path: "gps.baud", fragment: "the number 9601 is not a supported rate"),
        edit("baud in quotes", [(gps, gps + #", "baud": "9600""#)],
            path: "gps.baud", fragment: "as a number without quotes"),
        edit("GPS on an I²C bus", [(gps, #""device": "/dev/i2c-1""#)],
            path: "gps.device", fragment: "is an I²C bus, not a serial port"),
        edit("SH1106 column offset 5", [(display, #""kind": "sh1106", "columnOffset": 5"#)],
            path: "display.columnOffset", fragment: "must be 2"),
        edit("column offset on an SSD1306", [(display, display + #", "columnOffset": 2"#)],
            path: "display.columnOffset", fragment: "applies to sh1106 only"),
        edit("128x32 on an HD44780", [(display, #""kind": "hd44780", "geometry": "128x32""#)],
            path: "display.geometry", fragment: #"comes as "16x2" or "20x4""#),
        edit("rotation on an HD44780", [(display, #""kind": "hd44780", "rotation": 180"#)],
            path: "display.rotation", fragment: "OLED panels"),
        edit("rotation 90", [(display, display + #", "rotation": 90"#)],
            path: "display.rotation", fragment: "must be 0 or 180"),
        edit("unknown display kind", [(display, #""kind": "SSD1306""#)],
            path: "display.kind", fragment: #"did you mean "ssd1306"?"#),
        edit("bus as a number", [(display, display + #", "bus": 1"#)],
            path: "display.bus", fragment: #""/dev/i2c-1""#),
        edit("latitude 91", [(latitude, #""latitude": 91"#)],
            path: "defaultLocation.latitude", fragment: "between -90 and 90"),
        edit("latitude and longitude swapped", [(#""latitude": 52.52, "longitude": 13.405"#, #""latitude": 113.4, "longitude": 52.5"#)],
            path: "defaultLocation.latitude", fragment: "swapped"),
        edit("location name too long", [(#""name": "Berlin""#, #""name": "Berlin-Charlottenburg-Wilmersdorf-Nord""#)],
            path: "defaultLocation.name", fragment: "at most 32"),
        edit("button on the same line twice", [(buttonB, #"{ "name": "B", "line": "GPIO17" }"#)],
            path: "buttons[1].line", fragment: #"buttons[0] ("A") is already on GPIO17"#),
        edit("line name and offset on a Pi chip are one line",
            [(buttonA, #"{ "name": "A", "chip": "pinctrl-bcm2711", "line": "GPIO17" }"#),
             (buttonB, #"{ "name": "B", "chip": "pinctrl-bcm2711", "line": 17 }"#)],
            path: "buttons[1].line", fragment: "already on offset 17"),
        edit("duplicate button names", [(buttonB, #"{ "name": "a", "line": "GPIO27" }"#)],
            path: "buttons[1].name", fragment: "already has this name"),
        edit("display and sensor at one address", [(display, display + #", "address": "0x76""#)],
            path: "sensor.address", fragment: "the display already uses 0x76 on /dev/i2c-1"),
        edit("chip by number", [(buttonA, #"{ "name": "A", "chip": "gpiochip4", "line": "GPIO17" }"#)],
            path: "buttons[0].chip", fragment: "chip numbers change between kernels"),
        edit("offset without a chip", [(buttonA, #"{ "name": "A", "line": 17 }"#)],
            path: "buttons[0].line", fragment: "needs a chip label"),
        edit("sysfs number", [(buttonA, #"{ "name": "A", "line": 529 }"#)],
            path: "buttons[0].line", fragment: "sysfs GPIO number"),
        edit("pull-down on an active-low button", [(buttonA, #"{ "name": "A", "line": "GPIO17", "bias": "pull-down" }"#)],
            path: "buttons[0].bias", fragment: "reads as a button held down"),
        edit("bias spelled pullup", [(buttonA, #"{ "name": "A", "line": "GPIO17", "bias": "pullup" }"#)],
            path: "buttons[0].bias", fragment: #"did you mean "pull-up"?"#),
        edit("unknown action", [(buttonA, #"{ "name": "A", "line": "GPIO17", "press": "next-screens" }"#)],
            path: "buttons[0].press", fragment: #"did you mean "next-screen"?"#),
        edit("button on the I²C data pin", [(buttonA, #"{ "name": "A", "line": "GPIO2" }"#)],
            path: "buttons[0].line", fragment: "SDA of /dev/i2c-1, which the display and the sensor use"),
        edit("button on the GPS UART", [(buttonA, #"{ "name": "A", "line": "GPIO15" }"#)],
            path: "buttons[0].line", fragment: "RXD of /dev/serial0"),
        edit("five buttons", [], base: minimal(buttons: 5), path: "buttons", fragment: "has 5 buttons; at most 4"),
        edit("no buttons", [(buttonA + ",\n    " + buttonB, "")],
            path: "buttons", fragment: "at least one button"),
        edit("temperature offset out of range", [(#""address": "0x76""#, #""address": "0x76", "temperatureOffset": 12"#)],
            path: "sensor.temperatureOffset", fragment: "between -10 and 10"),
        edit("time zone as an offset", [(location, #"  "timeZone": "+02:00","# + "\n" + location)],
            path: "timeZone", fragment: "looks like an offset"),
        edit("time zone in lower case", [(location, #"  "timeZone": "europe/berlin","# + "\n" + location)],
            path: "timeZone", fragment: "not shaped like a zone name"),
        edit("schema 2", [(#""schema": 1"#, #""schema": 2"#)],
            path: "schema", fragment: "this build of thunderstorm reads schema 1"),
        edit("schema missing", [(#""schema": 1,"#, "")],
            path: "schema", fragment: #"add "schema": 1"#),
        edit("duplicate key", [(#""name": "Test build","#, #""name": "Test build", "name": "Again","#)],
            path: "name", fragment: "appears twice"),
        edit("syntax error: missing comma", [(#""name": "Test build","#, #""name": "Test build""#)],
            path: "", fragment: "line 4, column 3: expected ',' or '}' after the value of \"name\", found '\"'"),
        edit("syntax error: comment", [(#""schema": 1,"#, #""schema": 1, // version"#)],
            path: "", fragment: "JSON has no comments"),
        edit("syntax error: unquoted hex", [(display, display + #", "address": 0x3C"#)],
            path: "", fragment: #"write a hex address as a string: "0x3C""#),
        BrokenCase(label: "empty object", document: "{}", path: "name", fragment: #"missing required field "name""#),
        BrokenCase(label: "not an object", document: "[]", path: "", fragment: "a board file is one JSON object"),
        BrokenCase(label: "empty file", document: "  \n", path: "", fragment: "the file is empty"),
    ]
}

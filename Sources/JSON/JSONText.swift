/// Writing text into JSON and into the one-line messages about JSON documents: one escaper for
/// the CLI's JSON output, the simulation's report and the parsers' error messages.
public enum JSONText {
    /// `text` as a JSON string literal (RFC 8259 §7): quotes, backslashes and control
    /// characters escaped, everything else as it is.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars { append(scalar, to: &out, quoting: true) { $0.value < 0x20 } }
        return out + "\""
    }

    /// `text` as a message quotes it: JSON escapes, C1 controls and the line and paragraph
    /// separators escaped too, cut after `limit` characters, so a message stays one short line
    /// whatever an untrusted document holds.
    public static func quotedForMessage(_ text: String, limit: Int) -> String {
        var out = "\""
        for (count, scalar) in text.unicodeScalars.enumerated() {
            if count == limit { return out + "…\"" }
            append(scalar, to: &out, quoting: true, escaping: breaksLine)
        }
        return out + "\""
    }

    /// `text` with every control character and line or paragraph separator escaped (`\n`,
    /// `\u0007`) and nothing else changed: for messages that already quote what they cite, so
    /// a key or value from an untrusted document cannot break the message over lines.
    public static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: breaksLine) else { return text }
        var out = ""
        for scalar in text.unicodeScalars { append(scalar, to: &out, quoting: false, escaping: breaksLine) }
        return out
    }

    /// The one escaper: `\n`, `\r` and `\t` by name, the other scalars `escaping` picks as
    /// `\uXXXX`, and `"` and `\` too when the result goes between quotes.
    private static func append(
        _ scalar: Unicode.Scalar, to out: inout String, quoting: Bool, escaping: (Unicode.Scalar) -> Bool
    ) {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\"" where quoting: out += "\\\""
        case "\\" where quoting: out += "\\\\"
        case _ where escaping(scalar): out += unicodeEscape(scalar)
        default: out.unicodeScalars.append(scalar)
        }
    }

    /// C0 and C1 controls (line feed, carriage return, NEL…) and U+2028/U+2029.
    static func breaksLine(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    /// `\u001B`: four hex digits, upper case.
    static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

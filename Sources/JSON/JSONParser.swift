/// A JSON parser for documents people write (the board file) and services send (the weather):
/// a recursive descent over the bytes that builds the `JSONValue`
/// tree and, unlike Foundation's `JSONDecoder`, says *where* a document goes wrong (a line and
/// column, in characters; the decoder on Linux says only "not valid JSON") and which keys it
/// repeats (the decoder keeps one silently, so a second `"display"` block would quietly replace
/// the first). A trailing comma before `}` or `]` is accepted: it is the commonest slip in a
/// hand-edited file and changes nothing about what the file means.
public struct JSONParser {
    /// A key that appears twice in one object, by field path, with the line of the repeat.
    public struct Duplicate: Equatable, Sendable {
        public var path: String
        public var line: Int

        public init(path: String, line: Int) {
            self.path = path
            self.line = line
        }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    public private(set) var duplicates: [Duplicate] = []

    /// Deeper than any board file or weather response; keeps the recursion far from the stack limit on a Pi.
    private static let maximumDepth = 256

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte-order mark, as some Windows editors write, is not an error.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3; lineStart = 3 }
    }

    /// The document's tree, or the first syntax error; `duplicates` holds the repeated keys.
    public mutating func parse() -> Result<JSONValue, JSONSyntaxError> {
        do throws(JSONSyntaxError) {
            skipWhitespace()
            if index == bytes.count { throw fail("the document is empty") }
            let root = try value(path: "", depth: 0)
            skipWhitespace()
            if index < bytes.count { throw fail("unexpected \(found) after the end of the document") }
            return .success(root)
        } catch {
            return .failure(error)
        }
    }

    // MARK: Grammar

    private mutating func value(path: String, depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) levels deep") }
        guard index < bytes.count else { throw fail("expected a value, found \(found)") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(path: path, depth: depth)
        case UInt8(ascii: "["): return try array(path: path, depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "'"): throw fail("strings take double quotes \"…\", not single quotes")
        case UInt8(ascii: "/"), UInt8(ascii: "#"): throw fail(Self.noComments)
        default: throw fail("expected a value (string, number, true, false, null, { or [), found \(found)")
        }
    }

    private mutating func object(path: String, depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if consume("}") { return .object(members) }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                if index < bytes.count, bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "#") {
                    throw fail(Self.noComments)
                }
                throw fail("expected a key in double quotes, found \(found)")
            }
            let keyLine = line
            let key = try string()
            let memberPath = path.isEmpty ? key : path + "." + key
            skipWhitespace()
            guard consume(":") else { throw fail("expected ':' after the key \(Self.quoted(key)), found \(found)") }
            skipWhitespace()
            // A repeated key is reported; the last value stands, as most JSON readers do.
            if members.updateValue(try value(path: memberPath, depth: depth + 1), forKey: key) != nil {
                duplicates.append(Duplicate(path: memberPath, line: keyLine))
            }
            skipWhitespace()
            if consume("}") { return .object(members) }
            guard consume(",") else { throw fail("expected ',' or '}' after the value of \(Self.quoted(key)), found \(found)") }
            skipWhitespace()
            if consume("}") { return .object(members) }
        }
    }

    private mutating func array(path: String, depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if consume("]") { return .array(elements) }
        while true {
            elements.append(try value(path: "\(path)[\(elements.count)]", depth: depth + 1))
            skipWhitespace()
            if consume("]") { return .array(elements) }
            guard consume(",") else { throw fail("expected ',' or ']' after an array element, found \(found)") }
            skipWhitespace()
            if consume("]") { return .array(elements) }
        }
    }

    /// Reads a string and returns its content with escapes resolved.
    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var content: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                // Catches what the lead-byte check lets through: overlong forms and surrogates.
                guard let text = String(validating: content, as: UTF8.self) else {
                    throw fail("invalid UTF-8 in the string before this point; save the file as UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { throw fail("unterminated string; expected a closing \"") }
                let escape = bytes[index + 1]
                let simple: [UInt8: UInt8] = [
                    UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
                    UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
                    UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
                ]
                if let resolved = simple[escape] {
                    content.append(resolved)
                    index += 2
                } else if escape == UInt8(ascii: "u") {
                    let scalar = try unicodeEscape()
                    content.append(contentsOf: String(Character(scalar)).utf8)
                } else {
                    index += 1
                    throw fail("unknown escape \\\(Self.describe(escape)) in a string")
                }
            case 0x0A:
                throw fail("line break inside a string; close the string with \" on the same line")
            case 0x00..<0x20:
                throw fail("control character (byte 0x\(String(byte, radix: 16))) inside a string")
            case 0x80...0xFF:
                // The lead byte says how many continuation bytes (10xxxxxx) follow.
                let length = byte >= 0xF5 ? 0 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 ? 2 : 0
                guard length > 0, index + length <= bytes.count,
                    bytes[(index + 1)..<(index + length)].allSatisfy({ $0 & 0xC0 == 0x80 })
                else { throw fail("invalid UTF-8 (\(Self.describe(byte))); save the file as UTF-8") }
                content.append(contentsOf: bytes[index..<(index + length)])
                index += length
            default:
                content.append(byte)
                index += 1
            }
        }
        throw fail("unterminated string; expected a closing \"")
    }

    /// `\uXXXX` at `index`, joining a UTF-16 surrogate pair (`\uD83C\uDF29` is one scalar).
    private mutating func unicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let high = try hexQuad(at: index + 2)
        index += 6
        if (0xD800...0xDBFF).contains(high), bytes[index...].starts(with: [0x5C, UInt8(ascii: "u")]) {
            let low = try hexQuad(at: index + 2)
            if (0xDC00...0xDFFF).contains(low), let joined = Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (low - 0xDC00)) {
                index += 6
                return joined
            }
        }
        guard let scalar = Unicode.Scalar(high) else { throw fail("\\u\(String(high, radix: 16)) is half of a UTF-16 surrogate pair") }
        return scalar
    }

    private func hexQuad(at start: Int) throws(JSONSyntaxError) -> UInt32 {
        guard start + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[start..<(start + 4)], as: UTF8.self), radix: 16)
        else { throw fail("\\u must be followed by four hex digits") }
        return value
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        _ = consume("-")
        guard digits() > 0 else { throw fail("expected a digit, found \(found)") }
        if consume(".") { guard digits() > 0 else { throw fail("expected a digit after '.', found \(found)") } }
        if consume("e") || consume("E") {
            _ = consume("+") || consume("-")
            guard digits() > 0 else { throw fail("expected a digit in the exponent, found \(found)") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "x") || bytes[index] == UInt8(ascii: "X") {
            throw fail("JSON numbers are decimal; write a hex address as a string: \"0x3C\"")
        }
        // The grammar above admits only what Double's own parser reads.
        return Double(String(decoding: bytes[start..<index], as: UTF8.self)) ?? .nan
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else {
                throw fail("expected \(word), found \(found) (strings need double quotes)")
            }
            index += 1
        }
    }

    // MARK: Helpers

    private static let noComments = "JSON has no comments; put a note in a key starting with \"_\", e.g. \"_comment\""

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    private mutating func consume(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    private var found: String {
        index < bytes.count ? Self.describe(bytes[index]) : "the end of the file"
    }

    private static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// A key as an error message quotes it: escapes undone by the string reader (a `\n` in a key)
    /// are written as escapes again and a long key is cut (a weather service's answer is
    /// untrusted).
    static func quoted(_ text: String) -> String { JSONText.quotedForMessage(text, limit: 60) }

    /// An error at the current position; the column counts characters (UTF-8 lead bytes).
    private func fail(_ reason: String) -> JSONSyntaxError {
        let end = min(index, bytes.count)
        let column = bytes[min(lineStart, end)..<end].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return JSONSyntaxError(line: line, column: column, reason: reason)
    }
}

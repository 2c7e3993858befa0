/// A JSON document as a plain tree, before any meaning is attached to it.
///
/// The board file is decoded into this tree first and validated second, instead of decoding
/// straight into `Decodable` config structs: synthesized `Decodable` stops at the first problem
/// and says nothing about unknown keys, while a maker fixing a board file wants every mistake,
/// each with the field path, in one run.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// Every JSON number, as `Double`; the validator decides where only integers make sense.
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members by key. JSON object order carries no meaning, so none is kept.
    case object([String: JSONValue])

    /// The JSON type as a maker would name it, with the value where it is short, for messages
    /// such as "expected a string, found the number 9600".
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .number(let value): return "the number \(JSONValue.format(value))"
        case .string(let value):
            return value.count <= 40 ? "the string \"\(value)\"" : "a string"
        case .array: return "an array [ … ]"
        case .object: return "an object { … }"
        }
    }

    /// The number as an integer when it is one (every JSON number is kept as a `Double`).
    public var integer: Int? {
        guard case .number(let value) = self, value.isFinite, value.rounded() == value,
            abs(value) <= 9_007_199_254_740_992
        else { return nil }
        return Int(value)
    }

    /// `9600` rather than `9600.0`, so messages quote numbers the way the file wrote them.
    public static func format(_ value: Double) -> String {
        if value.isFinite, value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}

/// Why a document is not JSON: where (when known) and what is wrong.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line and column; columns count characters, not bytes.
    public var line: Int
    public var column: Int
    public var reason: String

    public var description: String { "line \(line), column \(column): \(reason)" }
}

extension JSONValue {
    /// Parses a JSON document (see `JSONParser`).
    public static func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONSyntaxError> {
        var parser = JSONParser(bytes)
        return parser.parse()
    }
}

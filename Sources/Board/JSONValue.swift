import FoundationEssentials

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
    var kindDescription: String {
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

    /// The number as an integer when it is one (JSONDecoder gives `9600.0` for `9600`).
    var integer: Int? {
        guard case .number(let value) = self, value.isFinite, value.rounded() == value,
            abs(value) <= 9_007_199_254_740_992
        else { return nil }
        return Int(value)
    }

    /// `9600` rather than `9600.0`, so messages quote numbers the way the file wrote them.
    static func format(_ value: Double) -> String {
        if value.isFinite, value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}

extension JSONValue: Decodable {
    /// Any string is a valid key; the validator, not the decoder, decides which keys belong.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in keyed.allKeys {
                members[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }
}

/// Why a document is not JSON: where (when known) and what is wrong.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line and column (columns count characters, not bytes); nil when only the decoder
    /// noticed the problem and the scanner could not place it.
    public var line: Int?
    public var column: Int?
    public var reason: String

    public var description: String {
        guard let line, let column else { return reason }
        return "line \(line), column \(column): \(reason)"
    }
}

extension JSONValue {
    /// Decodes `bytes` with `JSONDecoder` and, when that fails, asks `JSONSyntaxScanner` where:
    /// the decoder on Linux says only "The given data was not valid JSON.", which does not tell
    /// a maker which of forty lines lost its comma.
    public static func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONSyntaxError> {
        do {
            return .success(try JSONDecoder().decode(JSONValue.self, from: Data(bytes)))
        } catch {
            let decoderSays = decoderMessage(error)
            var scanner = JSONSyntaxScanner(bytes)
            if let located = scanner.firstError() {
                var result = located
                result.reason += " (JSONDecoder: \(decoderSays))"
                return .failure(result)
            }
            return .failure(JSONSyntaxError(line: nil, column: nil, reason: "JSONDecoder: \(decoderSays)"))
        }
    }

    /// The decoder's own words, without the enum-case noise of `DecodingError`'s description.
    private static func decoderMessage(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .dataCorrupted(let context), .keyNotFound(_, let context),
            .typeMismatch(_, let context), .valueNotFound(_, let context):
            return context.debugDescription
        @unknown default:
            return "\(decoding)"
        }
    }
}

import JSON

/// A JSON object read field by field with its path, so a wrong type is reported as
/// "current.temperature_2m: expected a number, found the string \"warm\"" instead of being
/// guessed around. Missing fields and `null` read as nil: the services write `null` for any
/// value they do not have (Open-Meteo `JsonWriter.swift`), and optional blocks may be absent.
struct JSONFields {
    let members: [String: JSONValue]
    let path: String

    init(_ value: JSONValue, path: String) throws(WeatherError) {
        guard case .object(let members) = value else {
            throw .malformed("\(path.isEmpty ? "the body" : path): expected an object, found \(value.kindDescription)")
        }
        self.members = members
        self.path = path
    }

    /// Parses a body as a JSON object.
    static func document(_ body: [UInt8]) throws(WeatherError) -> JSONFields {
        guard !body.isEmpty else { throw .malformed("the body is empty") }
        switch JSONValue.parse(body) {
        case .success(let root): return try JSONFields(root, path: "")
        case .failure(let error): throw .malformed("not JSON (\(error))")
        }
    }

    func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func value(_ key: String) -> JSONValue? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    func object(_ key: String) throws(WeatherError) -> JSONFields? {
        guard let value = value(key) else { return nil }
        return try JSONFields(value, path: at(key))
    }

    func number(_ key: String) throws(WeatherError) -> Double? {
        guard let value = value(key) else { return nil }
        return try JSONFields.number(value, at: at(key))
    }

    func requiredNumber(_ key: String) throws(WeatherError) -> Double {
        guard let number = try number(key) else { throw .malformed("\(at(key)) is missing") }
        return number
    }

    func string(_ key: String) throws(WeatherError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else {
            throw .malformed("\(at(key)): expected a string, found \(value.kindDescription)")
        }
        return text
    }

    func array(_ key: String) throws(WeatherError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else {
            throw .malformed("\(at(key)): expected an array, found \(value.kindDescription)")
        }
        return items
    }

    /// A number, with `-0.0` (the server prints the sign of tiny negatives) read as 0, and
    /// values outside what any weather field can hold refused.
    /// `path` is built only on failure: a 3 KB answer has ~200 values, and building every
    /// path up front was most of a decode's allocations (SensorBenchmarks.OpenMeteoDecode).
    static func number(_ value: JSONValue, at path: @autoclosure () -> String) throws(WeatherError) -> Double {
        guard case .number(let number) = value else {
            throw .malformed("\(path()): expected a number, found \(value.kindDescription)")
        }
        guard number.isFinite, abs(number) < 1e9 else { throw .malformed("\(path()): \(number) is out of range") }
        return number == 0 ? 0 : number
    }

    /// A column of numbers where `null` marks a missing value.
    static func numbers(_ items: [JSONValue], at path: String) throws(WeatherError) -> [Double?] {
        var result: [Double?] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            result.append(item == .null ? nil : try number(item, at: "\(path)[\(index)]"))
        }
        return result
    }

    /// A whole number (WMO codes, percentages), refusing 2.5.
    static func integer(_ value: Double, at path: @autoclosure () -> String) throws(WeatherError) -> Int {
        guard value.rounded() == value else { throw .malformed("\(path()): expected a whole number, found \(value)") }
        return Int(value)
    }
}

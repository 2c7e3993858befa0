import JSON
/// Walks a `JSONValue` tree against the board-file schema and collects every problem.
///
/// Each reader reports what is wrong at its path and returns nil, and the caller carries on
/// with the next field; that is how one run lists all mistakes instead of the first. The
/// readers are the only place that knows how a JSON type error is worded, so every message
/// reads the same ("expected …, found …").
struct BoardValidator {
    private(set) var problems: [BoardProblem] = []
    /// Paths of required fields that an unknown key already points at ("did you mean"), so a
    /// typo is one problem, not an unknown key plus a missing field.
    private var suggestedPaths: Set<String> = []

    mutating func report(_ path: String, _ message: String) {
        problems.append(BoardProblem(path: path, message: message))
    }

    /// The members of an object, after reporting a non-object and every unknown key.
    /// Keys starting with `_` are comments (JSON has none) and are ignored.
    mutating func members(of value: JSONValue, at path: String, allowed: [String]) -> [String: JSONValue]? {
        guard case .object(let members) = value else {
            report(path, "expected an object { … }, found \(value.kindDescription)")
            return nil
        }
        for key in members.keys.sorted() where !allowed.contains(key) && !key.hasPrefix("_") {
            let hint = Suggestion.hint(for: key, in: allowed)
            if let target = Suggestion.nearest(to: key, in: allowed), members[target] == nil {
                suggestedPaths.insert(FieldPath.member(path, target))
            }
            let listing = hint.isEmpty ? "; known keys here: \(allowed.joined(separator: ", "))" : hint
            report(FieldPath.member(path, key), "unknown key \"\(key)\"\(listing)")
        }
        return members
    }

    /// A required member; reports it missing (with what it is for) or null.
    mutating func required(_ members: [String: JSONValue], _ key: String, at base: String, what: String) -> JSONValue? {
        let path = FieldPath.member(base, key)
        guard let value = members[key] else {
            if !suggestedPaths.contains(path) { report(path, "missing required field \"\(key)\": \(what)") }
            return nil
        }
        if case .null = value {
            report(path, "is null, but it is required: \(what)")
            return nil
        }
        return value
    }

    /// An optional member; `null` counts as absent, so `"sensor": null` reads as "no sensor".
    func optional(_ members: [String: JSONValue], _ key: String) -> JSONValue? {
        guard let value = members[key] else { return nil }
        if case .null = value { return nil }
        return value
    }

    mutating func string(_ value: JSONValue, at path: String) -> String? {
        guard case .string(let text) = value else {
            report(path, "expected a string, found \(value.kindDescription)")
            return nil
        }
        return text
    }

    mutating func bool(_ value: JSONValue, at path: String) -> Bool? {
        guard case .bool(let flag) = value else {
            let hint: String
            if case .string(let text) = value, ["true", "false"].contains(text.lowercased()) {
                hint = " (write true or false without quotes)"
            } else {
                hint = ""
            }
            report(path, "expected true or false, found \(value.kindDescription)\(hint)")
            return nil
        }
        return flag
    }

    /// A finite number within `range`; `what` names the unit and sign convention for messages.
    mutating func number(_ value: JSONValue, at path: String, in range: ClosedRange<Double>, what: String) -> Double? {
        guard case .number(let number) = value, number.isFinite else {
            report(path, "expected a number, found \(value.kindDescription)")
            return nil
        }
        guard range.contains(number) else {
            report(path, "\(JSONValue.format(number)) is out of range; \(what) must be between \(JSONValue.format(range.lowerBound)) and \(JSONValue.format(range.upperBound))")
            return nil
        }
        return number
    }

    /// A whole number within `range`, for counts and times: `unit` is what it counts
    /// ("milliseconds"), `what` names it and `why` explains the bounds in the out-of-range message.
    mutating func wholeNumber(
        _ value: JSONValue, at path: String, in range: ClosedRange<Int>, unit: String, what: String, why: String
    ) -> Int? {
        let bounds = "\(range.lowerBound) to \(range.upperBound)"
        guard let number = value.integer else {
            let hint = if case .string(let text) = value, Int(text) != nil { " (write the number without quotes)" } else { "" }
            report(path, "expected a whole number of \(unit) (\(bounds)), found \(value.kindDescription)\(hint)")
            return nil
        }
        guard range.contains(number) else {
            report(path, "\(number) is out of range; \(what) must be between \(range.lowerBound) and \(range.upperBound) \(unit) (\(why))")
            return nil
        }
        return number
    }

    /// One of an enumeration's raw values, with a suggestion for near misses.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ value: JSONValue, at path: String, of type: Choice.Type
    ) -> Choice? where Choice.RawValue == String {
        let allowed = Choice.allCases.map(\.rawValue)
        guard case .string(let text) = value else {
            report(path, "expected one of \(Suggestion.list(allowed)), found \(value.kindDescription)")
            return nil
        }
        guard let choice = Choice(rawValue: text) else {
            let hint = Suggestion.hint(for: text, in: allowed)
            report(path, "\"\(text)\" is not one of \(Suggestion.list(allowed))\(hint)")
            return nil
        }
        return choice
    }

    /// A string that passes `label`.
    mutating func text(_ value: JSONValue, at path: String, maximum: Int) -> String? {
        string(value, at: path).flatMap { label($0, at: path, maximum: maximum) }
    }

    /// A human-readable label: not blank, no control characters, at most `maximum` characters.
    mutating func label(_ text: String, at path: String, maximum: Int) -> String? {
        if text.allSatisfy(\.isWhitespace) {
            report(path, "must not be empty")
            return nil
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            report(path, "must not contain control characters (tabs, line breaks)")
            return nil
        }
        guard text.count <= maximum else {
            report(path, "is \(text.count) characters long; at most \(maximum) fit")
            return nil
        }
        return text
    }

    /// Reports a key that exists in the schema but means nothing for the chosen kind, so a
    /// leftover `"columnOffset"` on an SSD1306 is not silently ignored.
    mutating func rejectInapplicable(_ members: [String: JSONValue], _ keys: [String], at base: String, because reason: String) {
        for key in keys where members[key] != nil {
            report(FieldPath.member(base, key), reason)
        }
    }
}

/// Field paths, written the way they read in the board file.
enum FieldPath {
    static func member(_ base: String, _ key: String) -> String { base.isEmpty ? key : "\(base).\(key)" }
    static func element(_ base: String, _ index: Int) -> String { "\(base)[\(index)]" }
}

/// "Did you mean …" for keys and enumerated values.
///
/// Makers mistype in two ways: the spelling of another convention (`long_press`, `pullup`,
/// `externalVcc`, `SSD1306`) and plain typos (`adress`). The first is caught by comparing with
/// case, `-` and `_` removed; the second by edit distance, at most 2 and at most a third of the
/// word, so that a short key like `bus` is never "corrected" to an unrelated one.
enum Suggestion {
    static func nearest(to word: String, in candidates: [String]) -> String? {
        let folded = fold(word)
        if let exact = candidates.first(where: { fold($0) == folded }) { return exact }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(folded, fold(candidate))
            let limit = min(2, max(1, candidate.count / 3))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// `"; did you mean "address"?"`, or nothing when no candidate is close.
    static func hint(for word: String, in candidates: [String]) -> String {
        guard let match = nearest(to: word, in: candidates) else { return "" }
        return "; did you mean \"\(match)\"?"
    }

    /// `a, b or c`, for "must be one of" messages.
    static func list(_ words: [String], quoted: Bool = true) -> String {
        let shown = quoted ? words.map { "\"\($0)\"" } : words
        guard shown.count > 1, let last = shown.last else { return shown.first ?? "" }
        return shown.dropLast().joined(separator: ", ") + " or " + last
    }

    private static func fold(_ word: String) -> [Character] {
        Array(word.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
    }

    /// Levenshtein distance with one rolling row; keys are short, so this is cheap.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

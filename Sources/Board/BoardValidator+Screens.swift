import JSON

/// The optional `"screens"` section: automatic rotation and the burn-in orbit.
extension BoardValidator {
    static let screensKeys = ["rotate", "orbit"]

    mutating func screens(_ value: JSONValue, at path: String) -> ScreenConfig? {
        guard let members = members(of: value, at: path, allowed: Self.screensKeys) else { return nil }
        // `null` reads as absent, which is the default: no rotation.
        let rotate = field(members, "rotate", at: path, default: Duration?.none) { $0.rotate($1, at: $2) }
        let orbit = field(members, "orbit", at: path, default: ScreenConfig.standard.orbit) { $0.bool($1, at: $2) }
        guard let rotate, let orbit else { return nil }
        return ScreenConfig(rotateEvery: rotate, orbit: orbit)
    }

    /// Seconds between screens. `false` and `0` are the natural ways to say "never" and are
    /// pointed at `null`, which is how the file says it.
    private mutating func rotate(_ value: JSONValue, at path: String) -> Duration?? {
        let never = "leave rotate out or set it to null for no automatic rotation"
        if case .bool(false) = value {
            report(path, "expected a number of seconds or null; \(never)")
            return nil
        }
        if value.integer == 0 {
            report(path, "0 is out of range; \(never), or give 10 to 3600 seconds")
            return nil
        }
        let range = ScreenConfig.rotateRange
        let seconds = wholeNumber(value, at: path, in: range, unit: "seconds", what: "the time between screens",
            why: "a screen needs about 10 s to be read; null for no automatic rotation")
        return seconds.map { .some(.seconds($0)) }
    }
}

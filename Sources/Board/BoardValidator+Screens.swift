import JSON

/// The optional `"screens"` section: automatic rotation and the burn-in orbit.
extension BoardValidator {
    static let screensKeys = ["rotate", "orbit"]

    mutating func screens(_ value: JSONValue, at path: String, display: DisplayKind?) -> ScreenConfig? {
        guard let members = members(of: value, at: path, allowed: Self.screensKeys) else { return nil }
        // `null` reads as absent, which is the display's default (60 s on an OLED, none on an LCD).
        let standard = ScreenConfig.standard(for: display)
        let rotate = field(members, "rotate", at: path, default: standard.rotateEvery) { $0.rotate($1, at: $2) }
        let orbit = field(members, "orbit", at: path, default: standard.orbit) { $0.bool($1, at: $2) }
        guard let rotate, let orbit else { return nil }
        return ScreenConfig(rotateEvery: rotate, orbit: orbit)
    }

    /// Seconds between screens, or `false` for none (`null` is the display's default, as every
    /// optional field's `null` is; `0` is pointed at `false`).
    private mutating func rotate(_ value: JSONValue, at path: String) -> Duration?? {
        let never = "set it to false for no automatic rotation"
        if case .bool(false) = value { return .some(nil) }
        if case .bool(true) = value {
            report(path, "expected a number of seconds or false; give the seconds between screens (10 to 3600), e.g. 60")
            return nil
        }
        if value.integer == 0 {
            report(path, "0 is out of range; \(never), or give 10 to 3600 seconds")
            return nil
        }
        let range = ScreenConfig.rotateRange
        let seconds = wholeNumber(value, at: path, in: range, unit: "seconds", what: "the time between screens",
            why: "a screen needs about 10 s to be read; false for no automatic rotation")
        return seconds.map { .some(.seconds($0)) }
    }
}

import App
import HAL
import Weather

/// The zones of the App tests: loaded from the machine's tzdata through `ZoneRules.load` (the
/// way the device loads them), or, where tzdata is not installed, the same rules from the zone's
/// POSIX TZ string, which holds for the years the tests use.
enum TestZones {
    static func berlin() -> ZoneRules { zone("Europe/Berlin", posix: "CET-1CEST,M3.5.0,M10.5.0/3") }
    static func sydney() -> ZoneRules { zone("Australia/Sydney", posix: "AEST-10AEDT,M10.1.0,M4.1.0/3") }
    /// Tromsø keeps Norway's time.
    static func oslo() -> ZoneRules { zone("Europe/Oslo", posix: "CET-1CEST,M3.5.0,M10.5.0/3") }

    static func zone(_ identifier: String, posix: String) -> ZoneRules {
        if case .success(let rules) = SimulationSetup.hostZone(identifier) { return rules }
        return ZoneRules.parse(posix: posix)!
    }
}

extension WallTime {
    /// `2026-01-15T08:15:00Z`.
    static func utc(_ text: String) -> WallTime {
        ISO8601.parse(text)!.instant(offsetSeconds: 0)
    }
}

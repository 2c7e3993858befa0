import HAL
import Weather

/// The Moon of one day as the screens draw it, decided for the place: the named phase of the
/// local day (`MoonPhase.name(from:to:)`), the lit fraction at its middle, and on which side
/// the lit limb is.
///
/// North of the equator a waxing Moon is lit on the right (it is east of the Sun, which set in
/// the west); south of it the observer faces north to see the Moon, so the same Moon is lit on
/// the left. Near the equator the lit limb points up or down more than sideways; the sign of the
/// latitude still picks the side that it leans to.
public struct MoonMark: Sendable, Equatable {
    public var name: MoonPhase.Name
    /// 0 (new) to 1 (full), at the middle of the day.
    public var illuminated: Double
    /// Whether the lit limb is on the right as seen from the place.
    public var litOnRight: Bool

    public init(name: MoonPhase.Name, illuminated: Double, litOnRight: Bool) {
        self.name = name
        self.illuminated = illuminated
        self.litOnRight = litOnRight
    }

    /// The Moon over `start ..< end` (a local day) at `latitude`, degrees north.
    public init(from start: WallTime, to end: WallTime, latitude: Double) {
        let phase = MoonPhase(at: start + (end - start) / 2)
        name = MoonPhase.name(from: start, to: end)
        // Rounded to a percent so that the model, compared at every rebuild, changes only when
        // the picture could.
        illuminated = (phase.illuminated * 100).rounded() / 100
        litOnRight = phase.isWaxing == (latitude >= 0)
    }

    /// The Moon of the local `date` in `zone`.
    public init(date: CivilDate, zone: ZoneRules, latitude: Double) {
        let start = Self.midnight(date, zone)
        let end = Self.midnight(CivilDate(daysSinceEpoch: date.daysSinceEpoch + 1), zone)
        self.init(from: start, to: end, latitude: latitude)
    }

    /// Local midnight: the offset looked up twice, so a day that starts just after a DST change
    /// starts at the right hour.
    static func midnight(_ date: CivilDate, _ zone: ZoneRules) -> WallTime {
        let civil = CivilDateTime(date: date, hour: 0, minute: 0)
        let guess = civil.instant(offsetSeconds: zone.offset(at: civil.instant(offsetSeconds: 0)))
        return civil.instant(offsetSeconds: zone.offset(at: guess))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HAL

/// The Moon's phase at an instant, computed on the device: no service sends it, and it needs
/// nothing but the clock.
///
/// From Jean Meeus, *Astronomical Algorithms* (2nd ed., 1998):
/// - the phase angle and the illuminated fraction from ch. 48 "Illuminated Fraction of the
///   Moon's Disk", the direct formula 48.4 with the mean elongation D, the Sun's and the Moon's
///   mean anomalies M and M′ of ch. 47 (47.2–47.4), and k = (1 + cos i) / 2 (48.1);
/// - the instants of new moon, first quarter, full moon and last quarter from ch. 49 "Phases of
///   the Moon" (49.1 with every periodic and planetary term of the chapter), which the chapter
///   gives to well under a minute against the full lunar theory.
/// Measured against JPL's DE421 ephemeris (Skyfield) over 2025–2030 in `MoonPhaseTests`.
///
/// Nothing here allocates: a few dozen sines per call.
public struct MoonPhase: Sendable, Equatable {
    /// The angle Sun–Moon–Earth, degrees: 0 at full moon, 180 at new moon.
    public var phaseAngle: Double
    /// The fraction of the disc that is lit, 0 (new) to 1 (full).
    public var illuminated: Double
    /// Whether the lit part grows: from new moon to full moon.
    public var isWaxing: Bool
    /// Days since the last new moon (0 to about 29.5).
    public var age: Double

    /// The phase at `time`.
    public init(at time: WallTime) {
        let seconds = Double(time.seconds) + Double(time.nanoseconds) / 1e9
        // Meeus ch. 48 and 49 run on Dynamical Time; TT − UTC has been 69.2 s since 2017 (32.184 s
        // plus 37 leap seconds, IERS Bulletin C). A minute moves the Moon by 0.01°.
        let jde = seconds / 86_400 + Self.unixEpochJD + Self.deltaT / 86_400
        let angle = Self.phaseAngle(jde: jde)
        phaseAngle = abs(angle)
        illuminated = (1 + cos(angle * Self.degrees)) / 2
        // i = 180° − D − …: positive while the elongation is under 180°, from new to full.
        isWaxing = angle > 0
        age = jde - Self.lastNewMoon(atOrBefore: jde)
    }

    /// The principal phases, in the order of a lunation.
    public enum Principal: Int, Sendable, CaseIterable {
        case new = 0, firstQuarter, full, lastQuarter
    }

    /// The named phases: the four principal ones, and the four stretches between them.
    public enum Name: Sendable, Equatable, CaseIterable {
        case new, waxingCrescent, firstQuarter, waxingGibbous, full, waningGibbous, lastQuarter, waningCrescent
    }

    /// The name of the phase over `start ..< end` (a day at the place): the principal phase
    /// whose instant falls inside, as almanacs and calendars name a date; otherwise crescent or
    /// gibbous, waxing or waning, from the phase at the middle. Wrong only when a principal
    /// instant lies within a minute or so of `start` or `end`.
    public static func name(from start: WallTime, to end: WallTime) -> Name {
        let middle = start + (end - start) / 2
        let phase = MoonPhase(at: middle)
        // The next principal instant after the one at or before `start`.
        let startJD = julianEphemerisDay(start)
        let endJD = julianEphemerisDay(end)
        var k = (((startJD - 2_451_550.097_66) / synodicMonth) * 4).rounded(.down) / 4 - 0.25
        for _ in 0..<4 {
            let instant = principalJDE(k: k)
            if instant >= startJD && instant < endJD {
                switch Int(((k - k.rounded(.down)) * 4).rounded()) & 3 {
                case 0: return .new
                case 1: return .firstQuarter
                case 2: return .full
                default: return .lastQuarter
                }
            }
            k += 0.25
        }
        if phase.isWaxing { return phase.illuminated < 0.5 ? .waxingCrescent : .waxingGibbous }
        return phase.illuminated < 0.5 ? .waningCrescent : .waningGibbous
    }

    /// The instant of the principal phase `kind` nearest to `time` (Meeus ch. 49).
    public static func instant(of kind: Principal, near time: WallTime) -> WallTime {
        let jde = julianEphemerisDay(time)
        let quarter = Double(kind.rawValue) / 4
        let k = ((jde - 2_451_550.097_66) / synodicMonth - quarter).rounded() + quarter
        let seconds = (principalJDE(k: k) - deltaT / 86_400 - unixEpochJD) * 86_400
        return WallTime(seconds: Int64(seconds.rounded()))
    }

    // MARK: The calculation

    static let degrees = Double.pi / 180
    /// JD of 1970-01-01T00:00 UTC.
    static let unixEpochJD = 2_440_587.5
    /// TT − UTC in seconds (see `init(at:)`).
    static let deltaT = 69.184
    /// The mean synodic month in days (Meeus 49.1).
    static let synodicMonth = 29.530_588_861

    static func julianEphemerisDay(_ time: WallTime) -> Double {
        (Double(time.seconds) + Double(time.nanoseconds) / 1e9 + deltaT) / 86_400 + unixEpochJD
    }

    /// The phase angle i in degrees, −180 … 180, negative while waning (Meeus 48.4 with 47.2–47.4).
    static func phaseAngle(jde: Double) -> Double {
        let t = (jde - 2_451_545) / 36_525
        let t2 = t * t, t3 = t2 * t, t4 = t3 * t
        let d = (297.850_192_1 + 445_267.111_403_4 * t - 0.001_881_9 * t2 + t3 / 545_868 - t4 / 113_065_000) * degrees
        let m = (357.529_109_2 + 35_999.050_290_9 * t - 0.000_153_6 * t2 + t3 / 24_490_000) * degrees
        let mm = (134.963_396_4 + 477_198.867_505_5 * t + 0.008_741_4 * t2 + t3 / 69_699 - t4 / 14_712_000) * degrees
        let i = 180 - d / degrees - 6.289 * sin(mm) + 2.100 * sin(m) - 1.274 * sin(2 * d - mm) - 0.658 * sin(2 * d)
            - 0.214 * sin(2 * mm) - 0.110 * sin(d)
        // Into −180 … 180.
        return i - 360 * ((i + 180) / 360).rounded(.down)
    }

    /// The JDE of the last new moon at or before `jde`.
    static func lastNewMoon(atOrBefore jde: Double) -> Double {
        var k = ((jde - 2_451_550.097_66) / synodicMonth).rounded(.down)
        var instant = principalJDE(k: k)
        while instant > jde {
            k -= 1
            instant = principalJDE(k: k)
        }
        let next = principalJDE(k: k + 1)
        return next <= jde ? next : instant
    }
}

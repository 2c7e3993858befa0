#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HAL

/// Whether and when the sun rises and sets on one day at one place.
public enum SolarDay: Sendable, Equatable {
    case normal(sunrise: WallTime, sunset: WallTime)
    /// The sun stays below the horizon all day (Tromsø in December).
    case polarNight
    /// The sun stays above the horizon all day (Tromsø in June).
    case midnightSun
}

/// Sunrise and sunset, computed on the device: MET Norway's compact forecast has none, and
/// Open-Meteo's are local times in the single offset of the request, wrong after a DST change
/// (open-meteo.com/en/docs; docs/design/parts.md#the-weather-service: "sunrise/sunset off by an
/// hour" is a common complaint about Pi weather clocks).
///
/// The method is NOAA's Solar Calculator (Global Monitoring Laboratory, "NOAA Solar Calculator"
/// and its spreadsheet notes "General Solar Position Calculations"), whose sun position comes
/// from Jean Meeus, *Astronomical Algorithms* (2nd ed., 1998): ch. 25 "Solar Coordinates"
/// (low-accuracy method) and ch. 28 "Equation of Time". Sunrise and sunset are when the sun's
/// centre is 0.833° below the horizon: 0.567° of standard refraction plus 0.266° for the disc's
/// radius (zenith 90.833°). NOAA quotes about a minute of accuracy within ±72° latitude; the
/// unknowable refraction of a given evening is the larger error.
public enum SolarEvents {
    /// Sunrise and sunset on `date` at the place, `latitude` in degrees north, `longitude` in
    /// degrees east (both negative for south/west).
    ///
    /// `date` is the calendar date at the place. It is turned into UTC by the longitude: the
    /// day's solar noon is near 12:00 − longitude/15 h UTC of that date, and the sunrise and the
    /// sunset returned are the ones around that noon. Where the legal time is more than 12 hours
    /// from the longitude's (east of the date line in Kiribati, Samoa, Tonga, Chatham) that picks
    /// the neighbouring solar day; use `day(date:latitude:longitude:utcOffsetSeconds:)` there.
    public static func day(date: CivilDate, latitude: Double, longitude: Double) -> SolarDay {
        let noonGuess = Double(date.daysSinceEpoch) * 86_400 + 43_200 - longitude * 240
        return day(near: noonGuess, latitude: latitude, longitude: longitude)
    }

    /// As `day(date:latitude:longitude:)`, with the day chosen by the local clock's UTC offset
    /// (solar noon nearest 12:00 local time), which is right across the date line too.
    public static func day(date: CivilDate, latitude: Double, longitude: Double, utcOffsetSeconds: Int) -> SolarDay {
        let noonGuess = Double(date.daysSinceEpoch) * 86_400 + 43_200 - Double(utcOffsetSeconds)
        return day(near: noonGuess, latitude: latitude, longitude: longitude)
    }

    // MARK: The calculation

    private static func day(near noonGuess: Double, latitude: Double, longitude: Double) -> SolarDay {
        // Keep away from the poles, where cos(latitude) = 0 would divide by zero.
        let latitude = min(max(latitude, -89.999), 89.999) * degrees
        // Mean solar noon: 720 − 4·longitude minutes after 00:00 UTC (NOAA), on the UTC day
        // that puts it nearest the guess.
        let meanNoonOfEpochDay = 43_200 - longitude * 240
        let meanNoon = meanNoonOfEpochDay + ((noonGuess - meanNoonOfEpochDay) / 86_400).rounded() * 86_400

        // True solar noon: shift by the equation of time, evaluated at noon (twice, to settle).
        var noon = meanNoon - equationOfTime(at: meanNoon) * 60
        noon = meanNoon - equationOfTime(at: noon) * 60

        let cosine = hourAngleCosine(latitude: latitude, declination: declination(at: noon))
        if cosine > 1 { return .polarNight }
        if cosine < -1 { return .midnightSun }

        // Each event: start from noon's hour angle, then re-evaluate the sun at the event's own
        // time (the declination moves up to 0.4° a day, a minute or so of sunrise).
        var sunrise = noon - acos(cosine) / degrees * 240
        var sunset = noon + acos(cosine) / degrees * 240
        for _ in 0..<3 {
            sunrise = event(at: sunrise, meanNoon: meanNoon, latitude: latitude, sign: -1)
            sunset = event(at: sunset, meanNoon: meanNoon, latitude: latitude, sign: 1)
        }
        return .normal(sunrise: WallTime(seconds: Int64(sunrise.rounded())), sunset: WallTime(seconds: Int64(sunset.rounded())))
    }

    private static func event(at time: Double, meanNoon: Double, latitude: Double, sign: Double) -> Double {
        // Clamped: near the polar circles the sun may only just graze the horizon at the event.
        let cosine = min(max(hourAngleCosine(latitude: latitude, declination: declination(at: time)), -1), 1)
        return meanNoon - equationOfTime(at: time) * 60 + sign * acos(cosine) / degrees * 240
    }

    /// cos of the hour angle at which the sun's centre is 0.833° below the horizon (NOAA:
    /// `HA = acos(cos(90.833°) / (cos φ cos δ) − tan φ tan δ)`). Above 1: never up; below −1:
    /// never down.
    private static func hourAngleCosine(latitude: Double, declination: Double) -> Double {
        cos(90.833 * degrees) / (cos(latitude) * cos(declination)) - tan(latitude) * tan(declination)
    }

    /// The sun's apparent declination, radians (Meeus 25.7 with 25.8 for the apparent obliquity).
    private static func declination(at time: Double) -> Double {
        let sun = SunPosition(unixSeconds: time)
        return asin(sin(sun.obliquity) * sin(sun.apparentLongitude))
    }

    /// The equation of time in minutes, apparent minus mean solar time (Meeus 28.3, Smart's
    /// series, as NOAA uses it).
    private static func equationOfTime(at time: Double) -> Double {
        let sun = SunPosition(unixSeconds: time)
        let y = tan(sun.obliquity / 2) * tan(sun.obliquity / 2)
        let l0 = sun.meanLongitude, m = sun.meanAnomaly, e = sun.eccentricity
        let radians = y * sin(2 * l0) - 2 * e * sin(m) + 4 * e * y * sin(m) * cos(2 * l0)
            - 0.5 * y * y * sin(4 * l0) - 1.25 * e * e * sin(2 * m)
        return 4 * radians / degrees
    }

    static let degrees = Double.pi / 180
}

/// The sun's geometric and apparent coordinates at an instant (Meeus ch. 25, low accuracy:
/// about 0.01° in longitude), the quantities of NOAA's spreadsheet columns G–R.
private struct SunPosition {
    /// Mean longitude L0, radians (Meeus 25.2).
    var meanLongitude: Double
    /// Mean anomaly M, radians (25.3).
    var meanAnomaly: Double
    /// Eccentricity of Earth's orbit e (25.4).
    var eccentricity: Double
    /// Apparent longitude λ, radians (true longitude corrected for nutation and aberration).
    var apparentLongitude: Double
    /// Obliquity of the ecliptic corrected for nutation ε, radians (22.2 and 25.8).
    var obliquity: Double

    init(unixSeconds: Double) {
        let d = SolarEvents.degrees
        // Julian centuries since J2000.0 (JD 2451545.0 = 2000-01-01T12:00 TT; the ~70 s between
        // TT and UTC moves sunrise by well under a second).
        let t = (unixSeconds / 86_400 + 2_440_587.5 - 2_451_545) / 36_525
        let l0 = (280.46646 + t * (36_000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
        let m = 357.52911 + t * (35_999.05029 - 0.0001537 * t)
        let e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        // Equation of the centre C and the true longitude ⊙ = L0 + C.
        let c = sin(m * d) * (1.914602 - t * (0.004817 + 0.000014 * t)) + sin(2 * m * d) * (0.019993 - 0.000101 * t)
            + sin(3 * m * d) * 0.000289
        let omega = 125.04 - 1_934.136 * t
        let lambda = l0 + c - 0.00569 - 0.00478 * sin(omega * d)
        let epsilon0 = 23 + (26 + (21.448 - t * (46.8150 + t * (0.00059 - t * 0.001813))) / 60) / 60
        meanLongitude = l0 * d
        meanAnomaly = m * d
        eccentricity = e
        apparentLongitude = lambda * d
        obliquity = (epsilon0 + 0.00256 * cos(omega * d)) * d
    }
}

/// A user's correction of a sensor that reads warm (a BME280 next to the Pi's SoC reads
/// 3–10 °C high), and what it does to the relative humidity.
///
/// The sensor measures air the board has warmed. Warming at constant pressure adds no water,
/// so the water vapour pressure e (and with it the dew point and the mixing ratio) is the same
/// in the warm air at the sensor and in the room: RH = e / e_w(T). With the corrected
/// temperature T' = T + offset:
///
///     RH' = RH · e_w(T) / e_w(T')
///
/// where e_w is the saturation vapour pressure over water, by the Magnus formula with the
/// coefficients of WMO-No. 8, *Guide to Meteorological Instruments and Methods of Observation*
/// (7th ed. 2008 and later), Annex 4.B (after Sonntag 1990), stated for −45…60 °C:
///
///     e_w(t) = 6.112 hPa · exp(17.62 · t / (243.12 + t))
///
/// A negative offset (the room is cooler than the sensor) raises RH. The result is clamped
/// to 0…100 %RH, as the sensor's own output is. Pure `Double` arithmetic with a local `exp`:
/// the Drivers target links neither Foundation nor libm, and nothing here allocates.
public enum TemperatureOffset {
    /// Magnus coefficients over water (WMO-No. 8, Annex 4.B).
    public static let magnusA = 6.112
    public static let magnusB = 17.62
    public static let magnusC = 243.12

    /// Saturation vapour pressure over water at `celsius`, in hPa.
    public static func saturationVapourPressure(celsius t: Double) -> Double {
        magnusA * exponential(magnusB * t / (magnusC + t))
    }

    /// The relative humidity `percent`, measured at `measuredCelsius`, for the same air at
    /// `correctedCelsius` (same vapour pressure), clamped to 0…100.
    public static func relativeHumidity(_ percent: Double, measuredAt measuredCelsius: Double, correctedTo correctedCelsius: Double) -> Double {
        if measuredCelsius == correctedCelsius { return percent }
        // The ratio of the two e_w is exp of the difference of the exponents: one exp, and
        // the 6.112 hPa cancels.
        let exponent =
            magnusB * measuredCelsius / (magnusC + measuredCelsius)
            - magnusB * correctedCelsius / (magnusC + correctedCelsius)
        let result = percent * exponential(exponent)
        return min(max(result, 0), 100)
    }

    /// e^x for |x| < 700: x = k·ln 2 + r with |r| ≤ ln 2 / 2, e^r by its Taylor series to the
    /// 14th term (error below 1e-16 for |r| ≤ 0.35), then scaled by 2^k exactly.
    static func exponential(_ x: Double) -> Double {
        let ln2 = 0.693_147_180_559_945_309_417_232_121_458
        let k = (x / ln2).rounded()
        let r = x - k * ln2
        var term = 1.0
        var sum = 1.0
        for n in 1...14 {
            term *= r / Double(n)
            sum += term
        }
        return Double(sign: .plus, exponent: Int(k), significand: sum)
    }
}

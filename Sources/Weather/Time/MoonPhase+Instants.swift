#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MoonPhase {
    /// The JDE (Dynamical Time) of the principal phase number `k` (Meeus ch. 49): an integer `k`
    /// is a new moon, +0.25 a first quarter, +0.5 a full moon, +0.75 a last quarter; k = 0 is the
    /// new moon of 2000-01-06. The mean phase (49.1) plus the periodic terms of the chapter's
    /// three tables (new, full, quarters, with the W correction of the quarters) and the 14
    /// planetary terms A1–A14.
    static func principalJDE(k: Double) -> Double {
        let d = degrees
        let t = k / 1_236.85
        let t2 = t * t, t3 = t2 * t, t4 = t3 * t
        let mean = 2_451_550.097_66 + synodicMonth * k + 0.000_154_37 * t2 - 0.000_000_150 * t3 + 0.000_000_000_73 * t4
        // Eccentricity of Earth's orbit (47.6), the Sun's and the Moon's mean anomalies, the
        // Moon's argument of latitude and the longitude of its ascending node (49.4–49.7).
        let e = 1 - 0.002_516 * t - 0.000_007_4 * t2
        let m = (2.553_4 + 29.105_356_70 * k - 0.000_001_4 * t2 - 0.000_000_11 * t3) * d
        let mm = (201.564_3 + 385.816_935_28 * k + 0.010_758_2 * t2 + 0.000_012_38 * t3 - 0.000_000_058 * t4) * d
        let f = (160.710_8 + 390.670_502_84 * k - 0.001_611_8 * t2 - 0.000_002_27 * t3 + 0.000_000_011 * t4) * d
        let omega = (124.774_6 - 1.563_755_88 * k + 0.002_067_2 * t2 + 0.000_002_15 * t3) * d

        let phase = Int(((k - k.rounded(.down)) * 4).rounded()) & 3
        var correction: Double
        switch phase {
        case 0, 2:
            // New moon, and full moon where its coefficients differ.
            let full = phase == 2
            correction = (full ? -0.406_14 : -0.407_20) * sin(mm)
                + (full ? 0.173_02 : 0.172_41) * e * sin(m)
                + (full ? 0.016_14 : 0.016_08) * sin(2 * mm)
                + (full ? 0.010_43 : 0.010_39) * sin(2 * f)
                + (full ? 0.007_34 : 0.007_39) * e * sin(mm - m)
                + (full ? -0.005_15 : -0.005_14) * e * sin(mm + m)
                + (full ? 0.002_09 : 0.002_08) * e * e * sin(2 * m)
                - 0.001_11 * sin(mm - 2 * f)
                - 0.000_57 * sin(mm + 2 * f)
                + 0.000_56 * e * sin(2 * mm + m)
                - 0.000_42 * sin(3 * mm)
                + 0.000_42 * e * sin(m + 2 * f)
                + 0.000_38 * e * sin(m - 2 * f)
                - 0.000_24 * e * sin(2 * mm - m)
                - 0.000_17 * sin(omega)
                - 0.000_07 * sin(mm + 2 * m)
                + 0.000_04 * sin(2 * mm - 2 * f)
                + 0.000_04 * sin(3 * m)
                + 0.000_03 * sin(mm + m - 2 * f)
                + 0.000_03 * sin(2 * mm + 2 * f)
                - 0.000_03 * sin(mm + m + 2 * f)
                + 0.000_03 * sin(mm - m + 2 * f)
                - 0.000_02 * sin(mm - m - 2 * f)
                - 0.000_02 * sin(3 * mm + m)
                + 0.000_02 * sin(4 * mm)
        default:
            correction = -0.628_01 * sin(mm)
                + 0.171_72 * e * sin(m)
                - 0.011_83 * e * sin(mm + m)
                + 0.008_62 * sin(2 * mm)
                + 0.008_04 * sin(2 * f)
                + 0.004_54 * e * sin(mm - m)
                + 0.002_04 * e * e * sin(2 * m)
                - 0.001_80 * sin(mm - 2 * f)
                - 0.000_70 * sin(mm + 2 * f)
                - 0.000_40 * sin(3 * mm)
                - 0.000_34 * e * sin(2 * mm - m)
                + 0.000_32 * e * sin(m + 2 * f)
                + 0.000_32 * e * sin(m - 2 * f)
                - 0.000_28 * e * e * sin(mm + 2 * m)
                + 0.000_27 * e * sin(2 * mm + m)
                - 0.000_17 * sin(omega)
                - 0.000_05 * sin(mm - m - 2 * f)
                + 0.000_04 * sin(2 * mm + 2 * f)
                - 0.000_04 * sin(mm + m + 2 * f)
                + 0.000_04 * sin(mm - 2 * m)
                + 0.000_03 * sin(mm + m - 2 * f)
                + 0.000_03 * sin(3 * m)
                + 0.000_02 * sin(2 * mm - 2 * f)
                + 0.000_02 * sin(mm - m + 2 * f)
                - 0.000_02 * sin(3 * mm + m)
            let w = 0.003_06 - 0.000_38 * e * cos(m) + 0.000_26 * cos(mm) - 0.000_02 * cos(mm - m)
                + 0.000_02 * cos(mm + m) + 0.000_02 * cos(2 * f)
            correction += phase == 1 ? w : -w
        }
        return mean + correction + planetaryTerms(k: k, t2: t2)
    }

    /// The 14 planetary arguments A1–A14 and their coefficients (ch. 49), days.
    private static func planetaryTerms(k: Double, t2: Double) -> Double {
        let d = degrees
        var sum = 0.000_325 * sin((299.77 + 0.107_408 * k - 0.009_173 * t2) * d)
        sum += 0.000_165 * sin((251.88 + 0.016_321 * k) * d)
        sum += 0.000_164 * sin((251.83 + 26.651_886 * k) * d)
        sum += 0.000_126 * sin((349.42 + 36.412_478 * k) * d)
        sum += 0.000_110 * sin((84.66 + 18.206_239 * k) * d)
        sum += 0.000_062 * sin((141.74 + 53.303_771 * k) * d)
        sum += 0.000_060 * sin((207.14 + 2.453_732 * k) * d)
        sum += 0.000_056 * sin((154.84 + 7.306_860 * k) * d)
        sum += 0.000_047 * sin((34.52 + 27.261_239 * k) * d)
        sum += 0.000_042 * sin((207.19 + 0.121_824 * k) * d)
        sum += 0.000_040 * sin((291.34 + 1.844_379 * k) * d)
        sum += 0.000_037 * sin((161.72 + 24.198_154 * k) * d)
        sum += 0.000_035 * sin((239.56 + 25.513_099 * k) * d)
        sum += 0.000_023 * sin((331.55 + 3.592_518 * k) * d)
        return sum
    }
}

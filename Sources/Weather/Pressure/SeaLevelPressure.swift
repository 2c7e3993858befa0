#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Station pressure reduced to mean sea level, so a reading compares with the forecast's and
/// with yesterday's at another height.
///
/// The hypsometric equation for a fictitious air column between the station and sea level
/// (WMO Guide to Instruments and Methods of Observation, WMO-No. 8, Part I, chapter 3,
/// "Measurement of atmospheric pressure", reduction of pressure to mean sea level):
///
///     p₀ = p · exp(g · h / (R_d · T_m))
///
/// with g = 9.80665 m/s², R_d = 287.05 J/(kg·K) for dry air, and T_m the column's mean
/// temperature: the outdoor temperature at the station plus half the standard lapse rate's
/// warming down to sea level (0.0065 K/m · h / 2). The indoor sensor's own temperature is not
/// the air column's: the caller passes the outdoor temperature (the forecast's "now"), or none
/// for the standard atmosphere's 15 °C at sea level.
///
/// How much the altitude matters: near sea level 1 hPa is about 8.3 m, so a GPS fix's vertical
/// error of ±10 m is ±1.2 hPa on the reduced value. The altitude must be smoothed, and a
/// change of it is not a change of the weather.
public enum SeaLevelPressure {
    static let gravity = 9.80665
    static let dryAirGasConstant = 287.05
    static let lapseRate = 0.0065

    /// `stationHectopascals` at `altitude` metres above mean sea level, with the outdoor air at
    /// `outdoorCelsius` (nil: the standard atmosphere's temperature at that height).
    public static func reduce(stationHectopascals p: Double, altitude h: Double, outdoorCelsius: Double? = nil) -> Double {
        let stationKelvin = (outdoorCelsius ?? 15 - lapseRate * h) + 273.15
        let meanKelvin = stationKelvin + lapseRate * h / 2
        return p * exp(gravity * h / (dryAirGasConstant * meanKelvin))
    }

    /// How many hPa of the reduced pressure a vertical move of `metres` is worth near
    /// `hectopascals` (the hypsometric equation's derivative): what a move explains.
    public static func hectopascals(perMetres metres: Double, near hectopascals: Double = 1013.25, celsius: Double = 15) -> Double {
        hectopascals * gravity * metres / (dryAirGasConstant * (celsius + 273.15))
    }
}

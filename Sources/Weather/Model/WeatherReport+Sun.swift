extension WeatherReport {
    /// Gives every day whose sunrise and sunset the service did not send (MET Norway's compact
    /// product has none; Open-Meteo sends polar day and night as 00:00 → 00:00) the computed
    /// ones for the place (NOAA's solar calculator, `SolarEvents`), which also tells polar night
    /// from midnight sun. The screens' night icons and night dimming need them.
    /// `utcOffsetSeconds` says which local day a date is (the report's own by default).
    mutating func computeMissingSunTimes(utcOffsetSeconds offset: Int? = nil) {
        for index in days.indices where days[index].sun == .unknown {
            switch SolarEvents.day(
                date: days[index].date, latitude: latitude, longitude: longitude, utcOffsetSeconds: offset ?? utcOffsetSeconds)
            {
            case .normal(let sunrise, let sunset): days[index].sun = .times(sunrise: sunrise, sunset: sunset)
            case .polarNight: days[index].sun = .polarNight
            case .midnightSun: days[index].sun = .midnightSun
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import HALSim
import Weather

/// One day of `SimulatedClimate`, a day of mean solar time at the place (local midnight to
/// midnight by the sun, not by the zone): its sky, its low and high and when they happen, its
/// rain or snow spell, its wind.
struct SimulatedDay: Sendable {
    enum Sky: Sendable { case clear, fair, cloudy, wet }

    /// What the generator decides for the day; cheap, no sun calculation.
    struct Weather: Sendable {
        var sky: Sky
        /// Added to the climate's mean, °C.
        var anomaly: Double
        /// At solar noon, hPa.
        var pressure: Double
        /// m/s, before the afternoon's stronger mixing.
        var windMean: Double
        /// Degrees, where the wind comes from.
        var windDirection: Double
        var gustFactor: Double
        /// Fog around sunrise (clear or fair and cold nights).
        var fog: Bool
        /// The wet day's spell, in solar hours of the day: it never crosses midnight.
        var spell: Spell?
    }

    struct Spell: Sendable {
        enum Kind: Sendable { case rain, showers, thunder }
        var kind: Kind
        var startHour: Double
        var hours: Double
        /// mm/h at the spell's height.
        var peakRate: Double
        /// mm/h now (set by `SimulatedDay.spell(at:)`).
        var rate = 0.0

        /// WMO 4677 for the spell at `temperature`: drizzle, rain, showers or thunder; snow or
        /// snow showers below +0.5 °C (a thunderstorm stays one).
        func code(temperature: Double) -> Int {
            switch kind {
            case .thunder: return 95
            case .showers where temperature < 0.5: return rate < 2 ? 85 : 86
            case .showers: return rate < 2 ? 80 : rate < 6 ? 81 : 82
            case .rain where temperature < 0.5: return rate < 1 ? 71 : rate < 3 ? 73 : 75
            case .rain where peakRate < 0.6: return rate < 0.3 ? 51 : 53
            case .rain: return rate < 1 ? 61 : rate < 4 ? 63 : 65
            }
        }
    }

    let day: Int64
    let weather: Weather
    /// Midnight of the solar day, seconds since the epoch.
    let start: Double
    let sun: SolarDay
    let mean: Double
    let low: Double
    let high: Double
    /// When the low and the high happen.
    let coolest: Double
    let warmest: Double

    init(climate: SimulatedClimate, day: Int64) {
        self.day = day
        weather = Self.weather(climate: climate, day: day)
        start = Double(day) * 86_400 - climate.longitude * 240
        let noon = start + 43_200
        sun = SolarEvents.day(date: CivilDate(daysSinceEpoch: day), latitude: climate.latitude, longitude: climate.longitude)
        let range: Double
        switch weather.sky {
        case .clear: range = 11
        case .fair: range = 8
        case .cloudy: range = 4
        case .wet: range = 5
        }
        // The day's swing scales with the daylight; the warmest hour comes early in the afternoon.
        let daylight: Double
        switch sun {
        case .normal(let rise, let set):
            let sunrise = Double(rise.seconds), sunset = Double(set.seconds)
            coolest = sunrise
            warmest = max(min((sunrise + sunset) / 2 + 9_000, sunset - 1_800), sunrise + 3_600)
            daylight = min(max((sunset - sunrise) / 43_200, 0.15), 1)
        case .polarNight, .midnightSun:
            let polarNight = sun == .polarNight
            coolest = noon - (polarNight ? 21_600 : 32_400)
            warmest = noon + 9_000
            daylight = polarNight ? 0.15 : 0.8
        }
        mean = climate.climateMean(day: day) + weather.anomaly
        low = mean - range * daylight / 2
        high = mean + range * daylight / 2
    }

    static func weather(climate: SimulatedClimate, day: Int64) -> Weather {
        var random = climate.generator(day: day, stream: 1)
        let draw = Double(random.next() >> 11) * 0x1p-53
        let sky: Sky = draw < 0.3 ? .clear : draw < 0.55 ? .fair : draw < 0.75 ? .cloudy : .wet
        let anomaly = Double(random.next(in: -30...30)) / 10
        let basePressure: Double
        switch sky {
        case .clear: basePressure = 1024
        case .fair: basePressure = 1017
        case .cloudy: basePressure = 1011
        case .wet: basePressure = 1002
        }
        var weather = Weather(
            sky: sky, anomaly: anomaly, pressure: basePressure + Double(random.next(in: -40...40)) / 10,
            windMean: Double(random.next(in: 15...70)) / 10 + (sky == .wet ? 2 : sky == .clear ? -1 : 0),
            windDirection: Double(random.next(in: 0...359)), gustFactor: Double(random.next(in: 15...19)) / 10,
            fog: false, spell: nil)
        let mean = climate.climateMean(day: day) + anomaly
        if sky == .wet {
            let pick = random.next(in: 0...9)
            let kind: Spell.Kind = mean > 18 ? (pick < 4 ? .thunder : pick < 7 ? .showers : .rain)
                : mean > 8 ? (pick < 4 ? .showers : .rain) : .rain
            let hours: Double = kind == .thunder ? Double(random.next(in: 1...3)) : Double(random.next(in: 2...8))
            // Showers and storms build in the afternoon; rain comes at any hour.
            let earliest = kind == .rain ? 2 : 12
            let startHour = Double(random.next(in: earliest...(23 - Int(hours))))
            let peak: Double
            switch kind {
            case .rain: peak = Double(random.next(in: 4...30)) / 10
            case .showers: peak = Double(random.next(in: 10...60)) / 10
            case .thunder: peak = Double(random.next(in: 30...150)) / 10
            }
            weather.spell = Spell(kind: kind, startHour: startHour, hours: hours, peakRate: peak)
        } else if sky != .cloudy, mean < 8 {
            weather.fog = random.chance(0.35)
        }
        return weather
    }

    /// Hours since the solar day's midnight, 0..<24.
    func solarHour(at t: Double) -> Double { (t - start) / 3_600 }

    /// The spell with its rate at `t`, if it rains or snows then: a swell from 30 % to the
    /// peak and back.
    func spell(at t: Double) -> Spell? {
        guard var spell = weather.spell else { return nil }
        let f = (solarHour(at: t) - spell.startHour) / spell.hours
        guard f >= 0, f < 1 else { return nil }
        spell.rate = spell.peakRate * (0.3 + 0.7 * sin(Double.pi * f))
        return spell
    }

    /// The code when nothing falls: fog around sunrise, a few fair-weather clouds in the
    /// afternoon of a clear day, clouds thickening before a spell and breaking after it.
    func dryCode(hour: Double) -> Int {
        if weather.fog, abs(hour - sunriseHour) <= 2 { return 45 }
        switch weather.sky {
        case .clear: return (11..<17).contains(hour) ? 1 : 0
        case .fair: return (9..<18).contains(hour) ? 2 : 1
        case .cloudy: return 3
        case .wet:
            guard let spell = weather.spell else { return 3 }
            if hour < spell.startHour { return spell.startHour - hour <= 3 ? 3 : 2 }
            return hour - (spell.startHour + spell.hours) < 2 ? 3 : 2
        }
    }

    /// Probability of precipitation when nothing falls, %.
    func dryChance(at t: Double) -> Double {
        switch weather.sky {
        case .clear: return weather.fog ? 5 : 0
        case .fair: return 5
        case .cloudy: return 15
        case .wet:
            guard let spell = weather.spell else { return 20 }
            let hour = solarHour(at: t)
            let distance = hour < spell.startHour ? spell.startHour - hour : hour - spell.startHour - spell.hours
            return distance <= 3 ? 40 : 20
        }
    }

    var cloudCover: Double {
        switch weather.sky {
        case .clear: 5
        case .fair: 40
        case .cloudy: 95
        case .wet: 85
        }
    }

    /// Relative humidity at the day's high, %; the cool hours add up to 30.
    var humidityBase: Double {
        switch weather.sky {
        case .clear: 40
        case .fair: 50
        case .cloudy: 65
        case .wet: 75
        }
    }

    /// Stronger in the afternoon, when the sun mixes the air: ×0.75 at night to ×1.25 at 14:00.
    func windSpeed(hour: Double) -> Double {
        max(0.3, weather.windMean) * (0.75 + 0.5 * max(0, sin(Double.pi * (hour - 8) / 12)))
    }

    func isDay(at t: Double) -> Bool {
        switch sun {
        case .normal(let rise, let set): Double(rise.seconds) <= t && t < Double(set.seconds)
        case .polarNight: false
        case .midnightSun: true
        }
    }

    /// The solar hour of sunrise (06:00 without one).
    var sunriseHour: Double {
        if case .normal(let rise, _) = sun { return solarHour(at: Double(rise.seconds)) }
        return 6
    }
}

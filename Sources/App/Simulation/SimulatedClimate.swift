#if canImport(Glibc)
import Glibc
#endif
import HAL
import HALSim
import Weather

/// The made-up but plausible weather of `SimulatedOpenMeteo`: the same place, instant and seed
/// always give the same values, so a simulated run and its test see the same forecast every
/// time, and neighbouring hours and days follow on from each other like real weather.
///
/// All in SI (°C, m/s, mm, hPa, %), in three layers:
/// - **climate**: the mean temperature of the day from latitude and day of year. The annual
///   mean falls from 27 °C at the equator as 30·sin²φ (Berlin ~8, Sydney ~18, Tromsø ~0; real
///   normals are 10, 18 and 3), the seasonal swing is ±15·sin²φ, coldest around 20 January in
///   the north and 20 July in the south (a month after the solstice: the seasonal lag).
/// - **the day's weather** (`SimulatedDay`), drawn from a `SplitMix64` seeded by the seed, the
///   day and the 0.1° cell, so a GPS that wanders a few metres does not change the weather: a
///   sky (clear, fair, cloudy, wet), an anomaly of ±3 °C, a rain or snow spell, morning fog,
///   wind, pressure.
/// - **the hour**: the diurnal curve runs from the day's low at sunrise to its high in the
///   mid-afternoon (2½ h after solar noon, before sunset) and down to the next sunrise's low,
///   each leg a half cosine; the range is wide under a clear sky and small under cloud and in
///   the polar night (the textbook shape: minimum near sunrise, maximum 2–3 h after noon).
///   Sunrise and sunset are `SolarEvents`' (NOAA), and `isDay` is whether the sun is up.
struct SimulatedClimate: Sendable {
    var latitude: Double
    var longitude: Double
    var seed: UInt64
    /// A scripted low on top of the generated weather (`SimulatedStorm`), nil for none.
    var storm: SimulatedStorm?

    /// What the weather is at one instant.
    struct Sample: Sendable, Equatable {
        var temperature: Double
        var humidity: Double
        var apparentTemperature: Double
        /// mm per hour, now.
        var precipitationRate: Double
        var precipitationChance: Double
        /// WMO 4677 as Open-Meteo uses it (WMO code table 4677; docs/design/parts.md#weather-codes).
        var weatherCode: Int
        var cloudCover: Double
        var pressure: Double
        var windSpeed: Double
        var windDirection: Double
        var windGusts: Double
        var isDay: Bool

        /// Snow or snow showers (WMO 71–77, 85, 86): what falls is counted as snowfall, not rain.
        var isSnow: Bool { (71...77).contains(weatherCode) || weatherCode == 85 || weatherCode == 86 }
    }

    /// The day (mean solar time at the longitude) that `seconds` falls in.
    func solarDay(containing seconds: Double) -> Int64 {
        Int64(((seconds + longitude * 240) / 86_400).rounded(.down))
    }

    func sample(at time: WallTime) -> Sample {
        let t = Double(time.seconds)
        let today = SimulatedDay(climate: self, day: solarDay(containing: t))
        let temperature = self.temperature(at: t, today: today)
        let hour = today.solarHour(at: t)
        let spell = today.spell(at: t)
        var code = today.dryCode(hour: hour)
        var rate = 0.0
        var chance = today.dryChance(at: t)
        var cloud = today.cloudCover
        var humidity = today.humidityBase + 30 * (today.high - temperature) / max(today.high - today.low, 1)
        if let spell {
            rate = spell.rate
            code = spell.code(temperature: temperature)
            chance = min(95, 60 + 10 * spell.peakRate)
            cloud = 100
            humidity = max(humidity, 92)
        } else if code == 45 {
            cloud = 100
            humidity = 99
        }
        humidity = min(max(humidity, 15), 100)
        let wind = today.windSpeed(hour: hour)
        // The direction veers by up to 25° over the day.
        let direction = today.weather.windDirection + 25 * sin(2 * Double.pi * hour / 24) + 360
        return Sample(
            temperature: temperature, humidity: humidity,
            apparentTemperature: Self.apparentTemperature(temperature, humidity: humidity, wind: wind),
            precipitationRate: rate, precipitationChance: chance, weatherCode: code, cloudCover: cloud,
            pressure: pressure(at: t), windSpeed: wind,
            windDirection: direction.truncatingRemainder(dividingBy: 360),
            windGusts: wind * today.weather.gustFactor, isDay: today.isDay(at: t))
    }

    /// The diurnal curve: half cosines between the lows (sunrise) and highs (afternoon) of
    /// yesterday, today and tomorrow.
    func temperature(at t: Double, today: SimulatedDay) -> Double {
        let yesterday = SimulatedDay(climate: self, day: today.day - 1)
        let tomorrow = SimulatedDay(climate: self, day: today.day + 1)
        var anchors: [(time: Double, value: Double)] = []
        for day in [yesterday, today, tomorrow] {
            anchors.append((day.coolest, day.low))
            anchors.append((day.warmest, day.high))
        }
        for (a, b) in zip(anchors, anchors.dropFirst()) where a.time <= t && t < b.time && a.time < b.time {
            let f = (t - a.time) / (b.time - a.time)
            return a.value + (b.value - a.value) * (1 - cos(Double.pi * f)) / 2
        }
        return today.mean  // not reached: yesterday's low is before today's start, tomorrow's high after its end
    }

    /// Sea-level pressure: a straight line from one solar noon's value to the next, and a front
    /// through every wet day (`frontDip`); with a scripted storm, the storm's trough over it
    /// (`SimulatedStorm.pressure`).
    func pressure(at t: Double) -> Double {
        guard let storm else { return weatherPressure(at: t) }
        return storm.pressure(at: t, weather: weatherPressure(at:))
    }

    private func weatherPressure(at t: Double) -> Double {
        let x = (t + longitude * 240 - 43_200) / 86_400
        let day = Int64(x.rounded(.down))
        let f = x - Double(day)
        let a = SimulatedDay.weather(climate: self, day: day).pressure
        let b = SimulatedDay.weather(climate: self, day: day + 1).pressure
        return a + (b - a) * f - frontDip(at: t)
    }

    /// How far a passing front pulls the pressure down at `t`, hPa: a trough centred on a wet
    /// day's spell, 24 hours wide, falling ahead of the rain and rising behind it as a cold
    /// front's does; 3 hPa plus 1 per mm/h of the spell's peak, at most 10. The steepest 3 hours
    /// of a 10 hPa trough fall 3.8 hPa, just past the Met Office's "falling quickly" (3.6 hPa in
    /// 3 h, `PressureTendency.Rate`), so the simulated barograph sees slow and quick falls alike
    /// (on top of the day-to-day line).
    func frontDip(at t: Double) -> Double {
        let halfWidth = 12.0 * 3_600
        let today = solarDay(containing: t)
        var dip = 0.0
        for day in (today - 1)...(today + 1) {
            guard let spell = SimulatedDay.weather(climate: self, day: day).spell else { continue }
            let centre = Double(day) * 86_400 - longitude * 240 + (spell.startHour + spell.hours / 2) * 3_600
            let distance = abs(t - centre)
            guard distance < halfWidth else { continue }
            dip += min(3 + spell.peakRate, 10) * (1 + cos(Double.pi * distance / halfWidth)) / 2
        }
        return dip
    }

    /// The day's mean temperature from the climate alone (no weather), °C.
    func climateMean(day: Int64) -> Double {
        let date = CivilDate(daysSinceEpoch: day)
        let dayOfYear = Double(day - CivilDate(year: date.year, month: 1, day: 1).daysSinceEpoch)
        let s = sin(latitude * Double.pi / 180)
        let annual = 27 - 30 * s * s
        // s·|s| carries the hemisphere: the southern summer is the northern winter.
        return annual - 15 * s * abs(s) * cos(2 * Double.pi * (dayOfYear - 20) / 365.25)
    }

    /// Steadman's apparent temperature for shade (Steadman 1994, *J. Appl. Meteor.*; the form
    /// the Australian Bureau of Meteorology publishes and Open-Meteo uses):
    /// AT = Ta + 0.33·e − 0.70·ws − 4.00, with e the water vapour pressure in hPa
    /// (RH/100 · 6.105 · exp(17.27·Ta / (237.7 + Ta))) and ws the wind speed in m/s.
    static func apparentTemperature(_ t: Double, humidity: Double, wind: Double) -> Double {
        let e = humidity / 100 * 6.105 * exp(17.27 * t / (237.7 + t))
        return t + 0.33 * e - 0.70 * wind - 4.00
    }

    /// A generator for one day at the place: seed, day and 0.1° cell mixed through SplitMix64.
    func generator(day: Int64, stream: UInt64) -> SplitMix64 {
        var state = seed
        for value in [UInt64(bitPattern: day), UInt64(bitPattern: Int64((latitude * 10).rounded())),
                      UInt64(bitPattern: Int64((longitude * 10).rounded())), stream] {
            var mixer = SplitMix64(seed: state ^ value)
            state = mixer.next()
        }
        return SplitMix64(seed: state)
    }
}

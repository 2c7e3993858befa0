import Graphics

/// Today and the next days, one row each: the day, the icon, the Moon, low/high, the
/// precipitation sum; sunrise and sunset on the bottom row. 128×64 shows three days; 128×32 shows two rows
/// of 16 pixels and no sun times. Under the storm banner one day fewer, below it.
enum DaysScreen {
    static func drawTall<Target: DrawTarget>(_ model: ScreenModel, into target: inout Target) {
        guard let forecast = model.weather.forecast, !forecast.days.isEmpty else {
            HoursScreen.noForecast(model, y: 24, into: &target)
            return
        }
        // By index: an unoptimised `enumerated()` over a slice allocates. Under a storm banner
        // the days move down a row and the third gives way, so today is never the row it hides.
        let top = Self.bannerInset(model)
        for index in 0..<min(top == 0 ? 3 : 2, forecast.days.count) {
            row(forecast.days[index], model, y: top + index * 17, into: &target)
        }
        guard let sunrise = forecast.sunrise, let sunset = forecast.sunset else { return }
        let y = target.height - Font.small.height
        let notation = model.settings.time
        var x = target.drawText("Rise ", font: .small, x: 0, y: y)
        x += target.drawText(UnitFormat.clock(sunrise, notation), font: .small, x: x, y: y)
        x += target.drawText(" Set ", font: .small, x: x, y: y, maxWidth: target.width - x)
        target.drawText(UnitFormat.clock(sunset, notation), font: .small, x: x, y: y, maxWidth: target.width - x)
    }

    static func drawShort<Target: DrawTarget>(_ model: ScreenModel, into target: inout Target) {
        guard let forecast = model.weather.forecast, !forecast.days.isEmpty else {
            HoursScreen.noForecast(model, y: 10, into: &target)
            return
        }
        let top = Self.bannerInset(model)
        for index in 0..<min(top == 0 ? 2 : 1, forecast.days.count) {
            row(forecast.days[index], model, y: top + index * 16, into: &target)
        }
    }

    /// The rows the storm banner takes over this screen (`OLEDScreens.draw`): 0 without one.
    private static func bannerInset(_ model: ScreenModel) -> Int {
        model.barograph.alarm == nil ? 0 : StormBanner.height
    }

    /// One day in 16 rows: "Today [icon] [moon] 14/25°  6.4mm". The Moon is a 9-pixel disc
    /// between the weather icon and the temperatures, which keep one degree sign (as on the
    /// character LCDs) to make room for it.
    private static func row<Target: DrawTarget>(_ day: DayForecast, _ model: ScreenModel, y: Int, into target: inout Target) {
        let textY = y + (16 - Font.small.height) / 2
        target.drawText(day.label, font: .small, x: 0, y: textY, maxWidth: 30, overflow: .clip)
        target.drawIcon(day.icon, night: false, size: .small, x: 31, y: y)
        // Centred on the digits, whose ink is rows 2–9 of the text line.
        if let moon = day.moon { target.drawMoon(moon, x: moonX, y: textY + 1, diameter: moonDiameter) }
        let notation = model.settings.temperature
        var x = temperatureX
        x += target.drawText(UnitFormat.temperatureNumber(day.low, notation), font: .small, x: x, y: textY)
        x += target.drawText("/", font: .small, x: x, y: textY)
        x += target.drawText(
            UnitFormat.temperature(day.high, notation, unit: false), font: .small, x: x, y: textY,
            maxWidth: target.width - x - Font.small.width(of: "0mm"))
        // The full figure where it fits after the temperatures; one decimal fewer where it does
        // not (a wide temperature, a rain sum over 10 mm, the burn-in orbit's narrower canvas)
        // rather than an ellipsis.
        let room = target.width - x
        var precipitation = UnitFormat.precipitation(day.precipitation, model.settings.units, compact: true)
        if Font.small.width(of: precipitation) > room {
            precipitation = UnitFormat.precipitation(day.precipitation, model.settings.units, compact: true, coarse: true)
        }
        target.drawText(precipitation, font: .small, x: x, y: textY, maxWidth: room, alignment: .trailing)
    }

    static let moonX = 48
    static let moonDiameter = 9
    static let temperatureX = 60
}

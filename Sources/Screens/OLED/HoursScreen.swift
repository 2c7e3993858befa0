import Graphics

/// The next hours, one column each: the hour, the icon, the temperature, the chance of rain.
/// 128×64 shows four columns of 32 pixels under the header; 128×32 shows three columns of 42
/// pixels (hour on top, icon and temperature side by side) without one.
enum HoursScreen {
    static func drawTall<Target: DrawTarget>(_ model: ScreenModel, into target: inout Target) {
        ScreenParts.header("Next hours", model, into: &target)
        guard let hours = model.weather.forecast?.hours, !hours.isEmpty else {
            noForecast(model, y: 24, into: &target)
            return
        }
        let row = Font.small.height
        let width = target.width / 4
        // By index: an unoptimised `enumerated()` over a slice allocates, and the rotation draws
        // this screen every few minutes.
        for index in 0..<min(4, hours.count) {
            let hour = hours[index]
            let x = index * width
            // "13:00" where the column leaves a gap around it (128 pixels); "13" on a narrower
            // canvas (the burn-in orbit's), where the labels would touch.
            var label = UnitFormat.hour(hour.time, model.settings.time)
            if Font.small.width(of: label) + 2 > width { label = UnitFormat.hourNumber(hour.time, model.settings.time) }
            target.drawText(label, font: .small, x: x, y: row, maxWidth: width, alignment: .center, overflow: .clip)
            target.drawIcon(hour.icon, night: hour.isNight, size: .small, x: x + (width - 16) / 2, y: 2 * row)
            target.drawText(
                UnitFormat.temperature(hour.temperature, model.settings.temperature, unit: false), font: .small,
                x: x, y: 2 * row + 16, maxWidth: width, alignment: .center)
            target.drawText(
                UnitFormat.percent(hour.precipitationChance), font: .small, x: x, y: 3 * row + 16,
                maxWidth: width, alignment: .center)
        }
    }

    static func drawShort<Target: DrawTarget>(_ model: ScreenModel, into target: inout Target) {
        guard let hours = model.weather.forecast?.hours, !hours.isEmpty else {
            noForecast(model, y: 10, into: &target)
            return
        }
        let width = target.width / 3
        for index in 0..<min(3, hours.count) {
            let hour = hours[index]
            let x = index * width
            target.drawText(
                UnitFormat.hour(hour.time, model.settings.time), font: .small, x: x, y: 0, maxWidth: width - 2,
                alignment: .center, overflow: .clip)
            target.drawIcon(hour.icon, night: hour.isNight, size: .small, x: x + 1, y: 14)
            target.drawText(
                UnitFormat.temperature(hour.temperature, model.settings.temperature, unit: false), font: .small,
                x: x + 18, y: 16, maxWidth: width - 20)
        }
    }

    /// No forecast: "No forecast yet", and the problem line when there is one.
    static func noForecast<Target: DrawTarget>(_ model: ScreenModel, y: Int, into target: inout Target) {
        target.drawText("No forecast yet", font: .small, x: 0, y: y, maxWidth: target.width, alignment: .center)
        if let problem = ScreenParts.problem(model) {
            ScreenParts.drawPair(
                problem.text, problem.detail, font: .small, x: 0, y: y + Font.small.height, width: target.width,
                into: &target)
        }
    }
}

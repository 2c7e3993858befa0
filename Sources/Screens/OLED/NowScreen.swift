import Graphics

/// The screen a person looks at most: where, how warm, what the sky does, what time it is.
///
/// 128×64: the place and the clock on the top row; the temperature in the large digits and the
/// condition icon (32×32) in pages 2–5, page-aligned so both are byte copies; humidity and wind
/// on the bottom row, replaced by the problem line when something is wrong. The clock sits
/// alone at the right end of the top row, so a minute tick changes one or two glyphs there.
enum NowScreen {
    static func drawTall<Target: DrawTarget>(_ model: ScreenModel, into target: inout Target) {
        ScreenParts.header(model.place.name, suffix: ScreenParts.placeSuffix(model), model, into: &target)
        let bottom = target.height - Font.small.height
        guard let forecast = model.weather.forecast else {
            waiting(model, y: 22, into: &target)
            return
        }
        let current = forecast.current
        let notation = model.settings.temperature
        let number = UnitFormat.temperatureNumber(current.temperature, notation)
        let numberWidth = target.drawText(number, font: .large, x: 0, y: 16)
        target.drawText(UnitFormat.temperatureUnit(notation), font: .medium, x: numberWidth + 2, y: 16)
        if let icon = current.icon { target.drawIcon(icon, night: current.isNight, size: .large, x: target.width - 32, y: 16) }
        if let problem = ScreenParts.problem(model) {
            ScreenParts.drawPair(problem.text, problem.detail, font: .small, x: 0, y: bottom, width: target.width, into: &target)
        } else {
            details(current, model, y: bottom, into: &target)
        }
    }

    static func drawShort<Target: DrawTarget>(_ model: ScreenModel, into target: inout Target) {
        ScreenParts.header(model.place.name, suffix: ScreenParts.placeSuffix(model), model, into: &target)
        guard let forecast = model.weather.forecast else {
            waiting(model, y: 14, into: &target)
            return
        }
        let current = forecast.current
        let y = target.height - Font.medium.height
        let temperature = UnitFormat.temperature(current.temperature, model.settings.temperature)
        let width = target.drawText(temperature, font: .medium, x: 0, y: y)
        if let icon = current.icon { target.drawIcon(icon, night: current.isNight, size: .small, x: width + 3, y: y) }
        let x = width + 3 + 16 + 3
        let textY = y + (Font.medium.height - Font.small.height) / 2
        if let problem = ScreenParts.problem(model) {
            ScreenParts.drawPair(problem.text, problem.detail, font: .small, x: x, y: textY, width: target.width - x, into: &target)
        } else {
            let humidity = target.drawText(UnitFormat.percent(current.humidity), font: .small, x: x, y: textY)
            let windX = x + humidity + Font.small.advance(of: " ")
            let wind = UnitFormat.wind(current.windSpeed, model.settings.units)
            target.drawText(wind, font: .small, x: windX, y: textY, maxWidth: target.width - windX)
        }
    }

    /// "64%  12 km/h SW" on one row.
    private static func details<Target: DrawTarget>(
        _ current: Conditions, _ model: ScreenModel, y: Int, into target: inout Target
    ) {
        let humidity = target.drawText(UnitFormat.percent(current.humidity), font: .small, x: 0, y: y)
        let wind = UnitFormat.wind(current.windSpeed, model.settings.units)
        var x = humidity + Font.small.advance(of: " ") * 2
        x += target.drawText(wind, font: .small, x: x, y: y, maxWidth: target.width - x)
        if let direction = current.windDirection {
            x += Font.small.advance(of: " ")
            target.drawText(UnitFormat.compass(direction), font: .small, x: x, y: y, maxWidth: target.width - x)
        }
    }

    /// No forecast yet: say so, and why if known.
    private static func waiting<Target: DrawTarget>(_ model: ScreenModel, y: Int, into target: inout Target) {
        target.drawText(
            "Waiting for weather", font: .small, x: 0, y: y, maxWidth: target.width, alignment: .center)
        if let problem = ScreenParts.problem(model) {
            ScreenParts.drawPair(
                problem.text, problem.detail, font: .small, x: 0, y: y + Font.small.height,
                width: target.width, into: &target)
        }
    }
}

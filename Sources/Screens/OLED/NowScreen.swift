import Graphics

/// The screen a person looks at most: where, how warm, what the sky does, what time it is.
///
/// 128×64: the place and the clock on the top row; the temperature in the large digits and the
/// condition icon (32×32) in pages 2–5, page-aligned so both are byte copies; one row at the
/// bottom for the problem when something is wrong, else the "next two hours", else humidity and
/// wind. A second full row does not fit: the top row, the 32-row digits and two rows of the
/// small font are 68 rows, and `glass` reads a glyph only when no other ink lies in its cell.
/// So when the outlook takes the bottom row, wind and humidity move beside the digits, under the unit
/// (rows 32–43, left of the icon), each only if it fits whole: a three-digit temperature
/// leaves room for one of them. The clock sits alone at the right end of the top row, so a
/// minute tick changes one or two glyphs there.
///
/// 128×32 has one row beside the temperature: the problem first, else the next two hours, else
/// humidity and wind. Those give way because they describe now, which the icon and the
/// temperature already do; what is coming is the one thing the small panel cannot show elsewhere.
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
            // As before the outlook: the problem hides humidity and wind (fewer pixels lit for
            // hours while a fault lasts: docs/design/parts.md#burn-in, BurnInTests).
            ScreenParts.drawPair(problem.text, problem.detail, font: .small, x: 0, y: bottom, width: target.width, into: &target)
        } else if let outlook = model.outlook, drawOutlook(outlook, model, x: 0, y: bottom, width: target.width, into: &target) {
            beside(current, model, x: numberWidth + 2, into: &target)
        } else {
            details(current, model, y: bottom, into: &target)
        }
    }

    /// Wind, then humidity, under the unit and left of the icon ("12km/h 64%"), each whole or
    /// not at all. The unit's ink ends at row 27 and its cell at 31; the digits' cell is left of
    /// `x` and the icon's right of 96, so this row's cell (32–43) holds no other ink.
    private static func beside<Target: DrawTarget>(_ current: Conditions, _ model: ScreenModel, x: Int, into target: inout Target) {
        let font = Font.small
        let end = target.width - 32
        let y = 32
        var pen = x
        let wind = UnitFormat.wind(current.windSpeed, model.settings.units, compact: true)
        if pen + font.width(of: wind) <= end { pen += target.drawText(wind, font: font, x: pen, y: y) + font.advance(of: " ") }
        let humidity = UnitFormat.percent(current.humidity)
        if pen + font.width(of: humidity) <= end { target.drawText(humidity, font: font, x: pen, y: y) }
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
        } else if let outlook = model.outlook,
            drawOutlook(outlook, model, x: x, y: textY, width: target.width - x, into: &target)
        {
            return
        } else {
            let humidity = target.drawText(UnitFormat.percent(current.humidity), font: .small, x: x, y: textY)
            let windX = x + humidity + Font.small.advance(of: " ")
            let wind = UnitFormat.wind(current.windSpeed, model.settings.units)
            target.drawText(wind, font: .small, x: windX, y: textY, maxWidth: target.width - windX)
        }
    }

    /// The longest form of the outlook that fits in `width`; false (and nothing drawn) if none does.
    @discardableResult
    static func drawOutlook<Target: DrawTarget>(
        _ line: OutlookLine, _ model: ScreenModel, x: Int, y: Int, width: Int, into target: inout Target
    ) -> Bool {
        // Three tries spelled out: a loop over `Form.allCases` would build an array per frame.
        drawOutlook(OutlookText(line, model.settings, form: .full), x: x, y: y, width: width, into: &target)
            || drawOutlook(OutlookText(line, model.settings, form: .compact), x: x, y: y, width: width, into: &target)
            || drawOutlook(OutlookText(line, model.settings, form: .tiny), x: x, y: y, width: width, into: &target)
    }

    private static func drawOutlook<Target: DrawTarget>(
        _ text: OutlookText, x: Int, y: Int, width: Int, into target: inout Target
    ) -> Bool {
        let font = Font.small
        guard font.width(of: text.lead) + font.width(of: text.value) + font.width(of: text.trail) <= width else {
            return false
        }
        var pen = x
        pen += target.drawText(text.lead, font: font, x: pen, y: y)
        pen += target.drawText(text.value, font: font, x: pen, y: y)
        target.drawText(text.trail, font: font, x: pen, y: y)
        return true
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

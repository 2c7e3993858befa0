import Drivers
import Graphics
import HAL
import HALSim
import Screens

/// Each OLED screen's draw calls (Screens/OLED/*Screen.swift), as `OLEDLayout` records them.
extension OLEDLayout {
    mutating func nowTall(_ model: ScreenModel) {
        header(model.place.name, suffix: Self.suffix(model), model)
        guard let current = model.weather.forecast?.current else { preconditionFailure("every sample scene has a forecast") }
        let notation = model.settings.temperature
        let numberWidth = draw(UnitFormat.temperatureNumber(current.temperature, notation), .large, x: 0, y: 16)
        draw(UnitFormat.temperatureUnit(notation), .medium, x: numberWidth + 2, y: 16)
        icon(current.icon, night: current.isNight, .large, x: width - 32, y: 16)
        let bottom = height - 12
        if let problem = Self.problem(model) {
            pair(problem.text, problem.detail, x: 0, y: bottom, width: width)
            return
        } else if let outlook = model.outlook, outlookText(outlook, model, x: 0, y: bottom) {
        } else {
            let humidity = draw(UnitFormat.percent(current.humidity), x: 0, y: bottom)
            var x = humidity + 12
            x += draw(UnitFormat.wind(current.windSpeed, model.settings.units), x: x, y: bottom, maxWidth: width - x)
            if let direction = current.windDirection {
                x += 6
                draw(UnitFormat.compass(direction), x: x, y: bottom, maxWidth: width - x)
            }
            return
        }
        // Beside the digits, under the unit: wind, then humidity, each only if it fits before the icon.
        var pen = numberWidth + 2
        let wind = UnitFormat.wind(current.windSpeed, model.settings.units, compact: true)
        if pen + Font.small.width(of: wind) <= width - 32 { pen += draw(wind, x: pen, y: 32) + 6 }
        let humidity = UnitFormat.percent(current.humidity)
        if pen + Font.small.width(of: humidity) <= width - 32 { draw(humidity, x: pen, y: 32) }
    }

    mutating func nowShort(_ model: ScreenModel) {
        header(model.place.name, suffix: Self.suffix(model), model)
        guard let current = model.weather.forecast?.current else { preconditionFailure("every sample scene has a forecast") }
        let y = height - 16
        let temperatureWidth = draw(UnitFormat.temperature(current.temperature, model.settings.temperature), .medium, x: 0, y: y)
        icon(current.icon, night: current.isNight, .small, x: temperatureWidth + 3, y: y)
        let x = temperatureWidth + 3 + 16 + 3
        if let problem = Self.problem(model) {
            pair(problem.text, problem.detail, x: x, y: y + 2, width: width - x)
            return
        }
        if let outlook = model.outlook, outlookText(outlook, model, x: x, y: y + 2) { return }
        let humidity = draw(UnitFormat.percent(current.humidity), x: x, y: y + 2)
        let windX = x + humidity + 6
        draw(UnitFormat.wind(current.windSpeed, model.settings.units), x: windX, y: y + 2, maxWidth: width - windX)
    }

    /// The longest form of the "next two hours" line that fits between `x` and the right edge,
    /// as one string (its three pieces are drawn side by side).
    @discardableResult
    mutating func outlookText(_ line: OutlookLine, _ model: ScreenModel, x: Int, y: Int) -> Bool {
        for form in OutlookText.Form.allCases {
            let text = OutlookText(line, model.settings, form: form)
            let whole = text.lead + text.value + text.trail
            guard Font.small.width(of: whole) <= width - x else { continue }
            draw(whole, x: x, y: y)
            return true
        }
        return false
    }

    mutating func hoursTall(_ model: ScreenModel) {
        header("Next hours", model)
        let hours = model.weather.forecast?.hours ?? []
        let column = width / 4
        for (index, hour) in hours.prefix(4).enumerated() {
            let x = index * column
            var label = UnitFormat.hour(hour.time, model.settings.time)
            if Font.small.width(of: label) + 2 > column { label = UnitFormat.hourNumber(hour.time, model.settings.time) }
            draw(label, x: x, y: 12, maxWidth: column, alignment: .center, overflow: .clip)
            icon(hour.icon, night: hour.isNight, .small, x: x + (column - 16) / 2, y: 24)
            let temperature = UnitFormat.temperature(hour.temperature, model.settings.temperature, unit: false)
            draw(temperature, x: x, y: 40, maxWidth: column, alignment: .center)
            draw(UnitFormat.percent(hour.precipitationChance), x: x, y: 52, maxWidth: column, alignment: .center)
        }
    }

    mutating func hoursShort(_ model: ScreenModel) {
        let hours = model.weather.forecast?.hours ?? []
        let column = width / 3
        for (index, hour) in hours.prefix(3).enumerated() {
            let x = index * column
            draw(UnitFormat.hour(hour.time, model.settings.time), x: x, y: 0, maxWidth: column - 2, alignment: .center, overflow: .clip)
            icon(hour.icon, night: hour.isNight, .small, x: x + 1, y: 14)
            let temperature = UnitFormat.temperature(hour.temperature, model.settings.temperature, unit: false)
            draw(temperature, x: x + 18, y: 16, maxWidth: column - 20)
        }
    }

    mutating func days(_ model: ScreenModel, tall: Bool) {
        guard let forecast = model.weather.forecast else { preconditionFailure("every sample scene has a forecast") }
        let temperature = model.settings.temperature
        for (index, day) in forecast.days.prefix(tall ? 3 : 2).enumerated() {
            let y = index * (tall ? 17 : 16)
            draw(day.label, x: 0, y: y + 2, maxWidth: 30, overflow: .clip)
            icon(day.icon, night: false, .small, x: 31, y: y)
            if let moon = day.moon { moonPixels += Self.litPixels(moon) }
            var x = 60
            x += draw(UnitFormat.temperatureNumber(day.low, temperature), x: x, y: y + 2)
            x += draw("/", x: x, y: y + 2)
            x += draw(
                UnitFormat.temperature(day.high, temperature, unit: false), x: x, y: y + 2,
                maxWidth: width - x - Font.small.width(of: "0mm"))
            var rain = UnitFormat.precipitation(day.precipitation, model.settings.units, compact: true)
            if Font.small.width(of: rain) > width - x {
                rain = UnitFormat.precipitation(day.precipitation, model.settings.units, compact: true, coarse: true)
            }
            draw(rain, x: x, y: y + 2, maxWidth: width - x, alignment: .trailing)
        }
        guard tall, let sunrise = forecast.sunrise, let sunset = forecast.sunset else { return }
        let y = height - 12
        var x = draw("Rise ", x: 0, y: y)
        x += draw(UnitFormat.clock(sunrise, model.settings.time), x: x, y: y)
        x += draw(" Set ", x: x, y: y, maxWidth: width - x)
        draw(UnitFormat.clock(sunset, model.settings.time), x: x, y: y, maxWidth: width - x)
    }

    mutating func indoor(_ model: ScreenModel, tall: Bool) {
        header("Indoor", model)
        guard case .reading(let temperature, let humidity, let pressure) = model.indoor else {
            preconditionFailure("every sample scene has an indoor reading")
        }
        let notation = model.settings.temperature
        if tall {
            let numberWidth = draw(UnitFormat.temperatureNumber(temperature, notation, decimals: 1), .large, x: 0, y: 16)
            draw(UnitFormat.temperatureUnit(notation), .medium, x: numberWidth + 2, y: 16)
            var x = 0
            if let humidity { x = draw(UnitFormat.percent(Int(humidity.rounded())), x: 0, y: height - 12) + 12 }
            x += draw(UnitFormat.pressure(pressure, model.settings.units), x: x, y: height - 12, maxWidth: width - x)
            // The tendency arrow after a space, where it fits: ↗ and ↘ are pictures of 9 lit
            // pixels (Screens/OLED/TendencyArrow.swift); the change follows only with room for it.
            if let trend = model.barograph.trend, x + 12 <= width, Int((trend.change * 10).rounded()) != 0 {
                arrowPixels += 9
            }
        } else {
            let y = height - 16
            var x = draw(UnitFormat.temperature(temperature, notation, decimals: 1), .medium, x: 0, y: y) + 6
            if let humidity { x += draw(UnitFormat.percent(Int(humidity.rounded())), x: x, y: y + 2) + 6 }
            // With a trend and no room for the arrow after the unit, the number stands alone.
            let full = UnitFormat.pressure(pressure, model.settings.units)
            if let trend = model.barograph.trend, x + 6 * full.count + 12 > width, let cut = full.firstIndex(of: " ") {
                x += draw(String(full[..<cut]), x: x, y: y + 2, maxWidth: width - x)
                if x + 12 <= width, Int((trend.change * 10).rounded()) != 0 { arrowPixels += 9 }
            } else {
                draw(full, x: x, y: y + 2, maxWidth: width - x)
            }
        }
    }

    mutating func status(_ model: ScreenModel, rows: Int) {
        var lines: [(Int, StatusLine)] = []
        model.forEachStatusLine(limit: rows) { lines.append(($0, $1)) }
        for (row, line) in lines {
            let y = row * 12
            let mark = line.isProblem ? 6 : 0
            let labelWidth = draw(line.label, x: 0, y: y, maxWidth: 36 - 2 - mark, overflow: .clip)
            if line.isProblem { draw("!", x: labelWidth, y: y) }
            draw(line.text, x: 36, y: y, maxWidth: width - 36)
        }
    }
}

/// What an HD44780 shows for a frame the layout filled (`CharacterScreens`): each cell's
/// scalar through the driver's ROM A00 table (`HD44780ROMCodes`) and the model's names for the
/// codes, the degree sign as °, and every other picture as the placeholder, named.
enum CharacterLayout {
    static func expected(_ frame: CharacterFrame) -> (rows: [String], pictures: [CharacterGlassReading.Picture]) {
        var rows: [String] = []
        var pictures: [CharacterGlassReading.Picture] = []
        for row in 0..<frame.rows {
            var line = ""
            for column in 0..<frame.columns {
                switch frame[column, row] {
                case .scalar("°"), .glyph(.degree): line += "°"
                case .scalar(let scalar): line += HD44780Model.character(HD44780ROMCodes.codeA00(for: scalar))
                case .glyph(let glyph):
                    line.append(CharacterGlassReading.placeholder)
                    pictures.append(.init(column: column, row: row, name: "\(glyph)"))
                }
            }
            rows.append(line)
        }
        return (rows, pictures)
    }
}

extension OLEDLayout {
    /// Screens/OLED/BarographScreen.swift: the value, the arrow (a picture), the change; the
    /// scale's labels. The graph is a picture no template reads (`hasPictures`).
    mutating func barograph(_ model: ScreenModel, tall: Bool) {
        let panel = model.barograph
        guard let current = panel.current, let trend = panel.trend else {
            preconditionFailure("the barograph scene has a pressure and a tendency")
        }
        let x = draw(PressureText.value(current, model.settings.units), x: 0, y: 0) + 6 + 6  // a space, the arrow
        let change = PressureText.change(trend.change, model.settings.units, unsure: trend.unsure)
        draw(change, x: max(x + 6, width - Font.small.width(of: change)), y: 0, maxWidth: width - x - 6)
        hasPictures = true
    }
}

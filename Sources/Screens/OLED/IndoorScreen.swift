import Graphics

/// The optional BME280/BMP280: the indoor temperature large, humidity and pressure below.
enum IndoorScreen {
    static func drawTall<Target: DrawTarget>(_ model: ScreenModel, into target: inout Target) {
        ScreenParts.header("Indoor", model, into: &target)
        switch model.indoor {
        case .absent:
            target.drawText("No indoor sensor", font: .small, x: 0, y: 26, maxWidth: target.width, alignment: .center)
        case .offline(let problem):
            target.drawText("Sensor offline", font: .small, x: 0, y: 20, maxWidth: target.width, alignment: .center)
            target.drawText(problem, font: .small, x: 0, y: 32, maxWidth: target.width, alignment: .center)
        case .reading(let temperature, let humidity, let pressure):
            let notation = model.settings.temperature
            let number = UnitFormat.temperatureNumber(temperature, notation, decimals: 1)
            let width = target.drawText(number, font: .large, x: 0, y: 16)
            target.drawText(UnitFormat.temperatureUnit(notation), font: .medium, x: width + 2, y: 16)
            let y = target.height - Font.small.height
            var x = 0
            if let humidity {
                x = target.drawText(UnitFormat.percent(Int(humidity.rounded())), font: .small, x: 0, y: y)
                x += 2 * Font.small.advance(of: " ")
            }
            x += target.drawText(UnitFormat.pressure(pressure, model.settings.units), font: .small, x: x, y: y, maxWidth: target.width - x)
            trend(model, x: x, y: y, into: &target)
        }
    }

    /// " ↘ −3.2/3h" (" ↘ −0.09/3h" in inHg) after the pressure, as much as fits: the arrow,
    /// then the change.
    static func trend<Target: DrawTarget>(_ model: ScreenModel, x: Int, y: Int, into target: inout Target) {
        guard let trend = model.barograph.trend else { return }
        let space = Font.small.advance(of: " ")
        var x = x + space
        guard x + 6 <= target.width else { return }
        x += TendencyArrow.draw(PressureText.Arrow(change: trend.change), x: x, y: y, into: &target)
        let change = PressureText.change(trend.change, model.settings.units, unsure: trend.unsure)
        guard x + space + Font.small.width(of: change) <= target.width else { return }
        target.drawText(change, font: .small, x: x + space, y: y)
    }

    static func drawShort<Target: DrawTarget>(_ model: ScreenModel, into target: inout Target) {
        ScreenParts.header("Indoor", model, into: &target)
        let y = target.height - Font.medium.height
        switch model.indoor {
        case .absent:
            target.drawText("No indoor sensor", font: .small, x: 0, y: y + 2, maxWidth: target.width)
        case .offline(let problem):
            ScreenParts.drawPair("Offline: ", problem, font: .small, x: 0, y: y + 2, width: target.width, into: &target)
        case .reading(let temperature, let humidity, let pressure):
            let text = UnitFormat.temperature(temperature, model.settings.temperature, decimals: 1)
            var x = target.drawText(text, font: .medium, x: 0, y: y) + 6
            let textY = y + (Font.medium.height - Font.small.height) / 2
            if let humidity {
                x += target.drawText(UnitFormat.percent(Int(humidity.rounded())), font: .small, x: x, y: textY)
                x += Font.small.advance(of: " ")
            }
            // 128 pixels hold "21.6°C 45% 1013 hPa" and no more: with a trend to show, the
            // unit gives way to the arrow (the number alone is plain: 1013 is hPa, 29.92 inHg).
            var shown = UnitFormat.pressure(pressure, model.settings.units)
            if model.barograph.trend != nil, x + Font.small.width(of: shown) + Font.small.advance(of: " ") + TendencyArrow.width > target.width {
                shown = PressureText.value(pressure, model.settings.units)
            }
            x += target.drawText(shown, font: .small, x: x, y: textY, maxWidth: target.width - x)
            trend(model, x: x, y: textY, into: &target)
        }
    }
}

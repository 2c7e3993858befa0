import Graphics

/// The same screens as text for HD44780 character LCDs (16×2, 20×4): the place and the clock
/// on the first row, then the most important values, with `CellGlyph`s for the weather and
/// `°` (the driver puts them in CGRAM). Rows are filled left to right and cut at the edge; a
/// piece that does not fit whole is left out rather than cut, except the place name.
public enum CharacterScreens {
    public static func render(_ model: ScreenModel, _ screen: Screen, into frame: inout CharacterFrame) {
        frame.clear()
        switch screen {
        case .now: now(model, into: &frame)
        case .hours: hours(model, into: &frame)
        case .days: days(model, into: &frame)
        case .indoor: indoor(model, into: &frame)
        case .barograph: barograph(model, into: &frame)
        case .status: status(model, into: &frame)
        }
        if let change = model.barograph.alarm {
            if screen == .days || screen == .hours || screen == .status { moveDownUnderBanner(&frame) }
            stormRow(change, model, into: &frame)
        }
    }

    static func now(_ model: ScreenModel, into frame: inout CharacterFrame) {
        header(model.place.name, model, into: &frame)
        guard let forecast = model.weather.forecast else {
            var row = RowWriter(row: 1, in: frame)
            row.put("Waiting for data", into: &frame)
            problemRow(model, row: frame.rows - 1, into: &frame)
            return
        }
        let current = forecast.current
        var row = RowWriter(row: 1, in: frame)
        row.put(current.icon.map { .glyph(CellGlyph($0, night: current.isNight)) } ?? .blank, into: &frame)
        row.putWhole(UnitFormat.temperature(current.temperature, model.settings.temperature), into: &frame)
        // 20×4: the next two hours take the last row from today's summary (the days screen
        // shows it anyway); the problem then takes the details' row (humidity, wind), as on
        // the 128×64 OLED. 16×2: one row for the problem, else the next two hours in the shortest
        // form that fits, else humidity and wind.
        if frame.rows >= 4 {
            row.putWhole("  ", into: &frame)
            row.put(current.icon.map(WeatherText.name) ?? "", into: &frame)
            if let outlook = model.outlook, outlookCells(outlook, model, row: 3, into: &frame) {
                if !problemRow(model, row: 2, into: &frame) { detailsRow(current, model, into: &frame) }
            } else {
                detailsRow(current, model, into: &frame)
                if !problemRow(model, row: 3, into: &frame), let today = forecast.days.first {
                    var last = RowWriter(row: 3, in: frame)
                    dayCells(today, model, into: &frame, writer: &last)
                }
            }
        } else if !problemRow(model, row: 1, column: row.column + 1, into: &frame) {
            if let outlook = model.outlook, outlookCells(outlook, model, row: 1, column: row.column + 1, into: &frame) {
                return
            }
            row.putWhole(" ", into: &frame)
            row.putWhole(UnitFormat.percent(current.humidity), into: &frame)
            row.putWhole(" ", into: &frame)
            row.putWhole(UnitFormat.wind(current.windSpeed, model.settings.units, compact: true), into: &frame)
        }
    }

    /// Row 2 of the 20×4: "💧64%  ≈12 km/h SW".
    private static func detailsRow(_ current: Conditions, _ model: ScreenModel, into frame: inout CharacterFrame) {
        var details = RowWriter(row: 2, in: frame)
        details.put(.glyph(.drop), into: &frame)
        details.putWhole(UnitFormat.percent(current.humidity), into: &frame)
        details.putWhole("  ", into: &frame)
        details.put(.glyph(.wind), into: &frame)
        details.putWhole(UnitFormat.wind(current.windSpeed, model.settings.units), into: &frame)
        if let direction = current.windDirection {
            details.putWhole(" ", into: &frame)
            details.putWhole(UnitFormat.compass(direction), into: &frame)
        }
    }

    /// The longest form of the outlook that fits from `column` to the row's end; false (and
    /// nothing written) if none does.
    private static func outlookCells(
        _ line: OutlookLine, _ model: ScreenModel, row: Int, column: Int = 0, into frame: inout CharacterFrame
    ) -> Bool {
        let room = frame.columns - column
        var text = OutlookText(line, model.settings, form: .full)
        if text.count > room { text = OutlookText(line, model.settings, form: .compact) }
        if text.count > room { text = OutlookText(line, model.settings, form: .tiny) }
        guard text.count <= room else { return false }
        var writer = RowWriter(row: row, in: frame, from: column)
        writer.put(text.lead, into: &frame)
        writer.put(text.value, into: &frame)
        writer.put(text.trail, into: &frame)
        return true
    }

    static func hours(_ model: ScreenModel, into frame: inout CharacterFrame) {
        guard let hours = model.weather.forecast?.hours, !hours.isEmpty else {
            noForecast(model, into: &frame)
            return
        }
        // 20×4: one hour per row. 16×2: two per row, 8 cells each.
        let perRow = frame.rows >= 4 ? 1 : 2
        let cellWidth = frame.columns / perRow
        for (index, hour) in hours.prefix(frame.rows * perRow).enumerated() {
            var writer = RowWriter(row: index / perRow, in: frame, from: (index % perRow) * cellWidth, width: cellWidth)
            if perRow == 1 {
                writer.putWhole(UnitFormat.hour(hour.time, model.settings.time), into: &frame)
                writer.putWhole(" ", into: &frame)
            } else {
                writer.putWhole(UnitFormat.hourNumber(hour.time, model.settings.time), into: &frame)
            }
            writer.put(.glyph(CellGlyph(hour.icon, night: hour.isNight)), into: &frame)
            writer.putWhole(UnitFormat.temperature(hour.temperature, model.settings.temperature, unit: perRow == 1), into: &frame)
            if perRow == 1 {
                writer.putWhole("  ", into: &frame)
                writer.putWhole(UnitFormat.percent(hour.precipitationChance), into: &frame)
            }
        }
    }

    static func days(_ model: ScreenModel, into frame: inout CharacterFrame) {
        guard let forecast = model.weather.forecast, !forecast.days.isEmpty else {
            noForecast(model, into: &frame)
            return
        }
        let dayRows = frame.rows >= 4 ? 3 : 2
        for (index, day) in forecast.days.prefix(dayRows).enumerated() {
            var writer = RowWriter(row: index, in: frame)
            dayCells(day, model, moon: true, into: &frame, writer: &writer)
        }
        if frame.rows >= 4, let sunrise = forecast.sunrise, let sunset = forecast.sunset {
            var writer = RowWriter(row: 3, in: frame)
            writer.putWhole("Rise ", into: &frame)
            writer.putWhole(UnitFormat.clock(sunrise, model.settings.time), into: &frame)
            writer.putWhole(" Set ", into: &frame)
            writer.putWhole(UnitFormat.clock(sunset, model.settings.time), into: &frame)
        }
    }

    static func indoor(_ model: ScreenModel, into frame: inout CharacterFrame) {
        header("Indoor", model, into: &frame)
        var writer = RowWriter(row: 1, in: frame)
        switch model.indoor {
        case .absent: writer.put("No sensor", into: &frame)
        case .offline(let problem):
            writer.putWhole("Offline: ", into: &frame)
            writer.put(problem, into: &frame)
        case .reading(let temperature, let humidity, let pressure):
            writer.putWhole(UnitFormat.temperature(temperature, model.settings.temperature, decimals: 1), into: &frame)
            if let humidity {
                writer.putWhole(" ", into: &frame)
                writer.putWhole(UnitFormat.percent(Int(humidity.rounded())), into: &frame)
            }
            var pressureRow = frame.rows >= 4 ? RowWriter(row: 2, in: frame) : writer
            if frame.rows < 4 { pressureRow.putWhole(" ", into: &frame) }
            if pressureRow.putWhole(UnitFormat.pressure(pressure, model.settings.units), into: &frame),
                let trend = model.barograph.trend
            {
                // "1013 hPa ↘ −3.2/3h", "29.92 inHg ↘−0.09/3h": the arrow beside the pressure,
                // the change if it fits.
                putTrend(trend, model.settings.units, into: &frame, writer: &pressureRow)
            }
        }
    }

    static func status(_ model: ScreenModel, into frame: inout CharacterFrame) {
        model.forEachStatusLine(limit: frame.rows) { row, line in
            var writer = RowWriter(row: row, in: frame)
            writer.putWhole(line.label, into: &frame)
            writer.putWhole(line.isProblem ? "! " : " ", into: &frame)
            writer.put(line.text, into: &frame)
        }
    }
}

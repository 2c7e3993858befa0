import Graphics
import HAL

/// Writes cells left to right into one row of a `CharacterFrame`, within a column range.
struct RowWriter {
    let row: Int
    private(set) var column: Int
    let end: Int

    init(row: Int, in frame: CharacterFrame, from start: Int = 0, width: Int? = nil) {
        self.row = row
        column = start
        end = min(frame.columns, start + (width ?? frame.columns))
    }

    var room: Int { end - column }

    mutating func put(_ cell: CharacterFrame.Cell, into frame: inout CharacterFrame) {
        guard column < end else { return }
        frame[column, row] = cell
        column += 1
    }

    /// Puts as much of `text` as fits.
    mutating func put(_ text: String, into frame: inout CharacterFrame) {
        for scalar in text.unicodeScalars {
            guard column < end else { return }
            put(Self.cell(scalar), into: &frame)
        }
    }

    /// Puts `text` only if all of it fits; returns whether it did.
    @discardableResult
    mutating func putWhole(_ text: String, into frame: inout CharacterFrame) -> Bool {
        guard text.unicodeScalars.count <= room else { return false }
        put(text, into: &frame)
        return true
    }

    /// `°`, `↗` and `↘` become glyphs (the driver gives them CGRAM slots); other scalars stay
    /// text for the driver to map to its character ROM (`→` is A00's 0x7E, `−` its `-`).
    static func cell(_ scalar: Unicode.Scalar) -> CharacterFrame.Cell {
        switch scalar {
        case "°": .glyph(.degree)
        case "\u{2197}": .glyph(.rising)
        case "\u{2198}": .glyph(.falling)
        default: .scalar(scalar)
        }
    }
}

extension CharacterScreens {
    /// Row 0: `title` on the left, the clock on the right.
    static func header(_ title: String, _ model: ScreenModel, into frame: inout CharacterFrame) {
        let clockCells = clock(model, into: &frame)
        var writer = RowWriter(row: 0, in: frame, width: frame.columns - clockCells - (clockCells > 0 ? 1 : 0))
        writer.put(title, into: &frame)
    }

    /// The clock at the right end of row 0 (the headers', and the storm banner's); returns the
    /// cells it took, 0 without a clock.
    static func clock(_ model: ScreenModel, into frame: inout CharacterFrame) -> Int {
        guard let clock = model.clock else { return 0 }
        let text = UnitFormat.clock(clock, model.settings.time)
        let cells = text.unicodeScalars.count
        var writer = RowWriter(row: 0, in: frame, from: frame.columns - cells)
        writer.put(text, into: &frame)
        return cells
    }

    /// The problem line in `row` from `column`, if there is a problem; returns whether it wrote.
    @discardableResult
    static func problemRow(_ model: ScreenModel, row: Int, column: Int = 0, into frame: inout CharacterFrame) -> Bool {
        guard let problem = ScreenParts.problem(model) else { return false }
        var writer = RowWriter(row: row, in: frame, from: column)
        // `problem` reports the weather service first; without one the problem is the GPS's.
        writer.put(.glyph(model.weather.problem == nil ? .satellite : .warning), into: &frame)
        writer.put(problem.text, into: &frame)
        if let detail = problem.detail { writer.put(detail, into: &frame) }
        return true
    }

    static func noForecast(_ model: ScreenModel, into frame: inout CharacterFrame) {
        var writer = RowWriter(row: 0, in: frame)
        writer.put("No forecast yet", into: &frame)
        problemRow(model, row: 1, into: &frame)
    }

    /// "Today ☂14/25° 6.4mm": the label, the icon, low/high, the precipitation if it fits.
    /// With `moon`, the day's Moon takes the cell after the label ("Today◑☂14/25° 6.4mm"; the
    /// longest label is 5 cells), so it costs no room on either LCD.
    static func dayCells(
        _ day: DayForecast, _ model: ScreenModel, moon: Bool = false, into frame: inout CharacterFrame, writer: inout RowWriter
    ) {
        let notation = model.settings.temperature
        var label = RowWriter(row: writer.row, in: frame, from: writer.column, width: 6)
        if moon, let mark = day.moon {
            label = RowWriter(row: writer.row, in: frame, from: writer.column, width: 5)
            var cell = RowWriter(row: writer.row, in: frame, from: writer.column + 5, width: 1)
            cell.put(.glyph(CellGlyph(mark)), into: &frame)
        }
        label.put(day.label, into: &frame)
        var cells = RowWriter(row: writer.row, in: frame, from: writer.column + 6)
        cells.put(.glyph(CellGlyph(day.icon, night: false)), into: &frame)
        cells.putWhole(UnitFormat.temperatureNumber(day.low, notation), into: &frame)
        cells.putWhole("/", into: &frame)
        cells.putWhole(UnitFormat.temperature(day.high, notation, unit: false), into: &frame)
        cells.putWhole(" ", into: &frame)
        cells.putWhole(UnitFormat.precipitation(day.precipitation, model.settings.units, compact: true), into: &frame)
        writer = cells
    }
}

extension CellGlyph {
    /// The cell picture of a weather icon group.
    init(_ icon: ConditionGroup, night: Bool) {
        switch icon {
        case .clear: self = night ? .moon : .sun
        case .partlyCloudy: self = .partlyCloudy
        case .cloudy: self = .cloud
        case .fog: self = .fog
        case .drizzle: self = .drizzle
        case .rain: self = .rain
        case .snow: self = .snow
        case .showers: self = .showers
        case .thunderstorm: self = .thunder
        }
    }
}

extension CellGlyph {
    /// The cell picture of a day's Moon: the phase, lit on the side the place sees.
    init(_ moon: MoonMark) {
        let right = moon.litOnRight
        switch moon.name {
        case .new: self = .moonNew
        case .full: self = .moonFull
        case .waxingCrescent, .waningCrescent: self = right ? .moonCrescentRight : .moonCrescentLeft
        case .firstQuarter, .lastQuarter: self = right ? .moonQuarterRight : .moonQuarterLeft
        case .waxingGibbous, .waningGibbous: self = right ? .moonGibbousRight : .moonGibbousLeft
        }
    }
}

/// Names of the icon groups, for the 20×4 now screen.
enum WeatherText {
    static func name(_ icon: ConditionGroup) -> String {
        switch icon {
        case .clear: "Clear"
        case .partlyCloudy: "Partly cloudy"
        case .cloudy: "Cloudy"
        case .fog: "Fog"
        case .drizzle: "Drizzle"
        case .rain: "Rain"
        case .snow: "Snow"
        case .showers: "Showers"
        case .thunderstorm: "Thunderstorm"
        }
    }
}

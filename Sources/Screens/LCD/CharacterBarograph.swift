import Graphics
import Store

/// The barograph as text on the character LCDs, and the storm alarm's row, in the settings'
/// units (`PressureText`).
///
/// 20×4: "Pressure" and the clock; "1009 hPa ↘ −3.2/3h" ("29.80inHg ↘ −0.09/3h": with the
/// space, 21 cells); the tendency in the Met Office's words ("Falling quickly"); the
/// provider's tendency when the sensor's is the one above ("Fcst ↘ −2.9/3h"), or where the
/// values come from. 16×2: "Pressure" and the clock, then "1009 ↘ −3.2/3h" or
/// "29.80 ↘ −0.09/3h" (the unit does not fit 16; the number alone is plain). The arrows are
/// CGRAM glyphs (`CellGlyph.rising`, `.falling`; → is ROM A00's 0x7E).
extension CharacterScreens {
    static func barograph(_ model: ScreenModel, into frame: inout CharacterFrame) {
        header("Pressure", model, into: &frame)
        let panel = model.barograph
        var row = RowWriter(row: 1, in: frame)
        guard let current = panel.current else {
            row.put("No pressure yet", into: &frame)
            return
        }
        let units = model.settings.units
        let value = PressureText.value(current, units)
        row.putWhole(value, into: &frame)
        if frame.columns >= 20 {
            // The unit after a space where the whole row fits, else against the number.
            let change = panel.trend.map { PressureText.change($0.change, units, unsure: $0.unsure) } ?? ""
            let unit = PressureText.unit(units)
            let tail = change.isEmpty ? 0 : 3 + change.unicodeScalars.count  // " ↘ " and the change
            let spaced = value.unicodeScalars.count + 1 + unit.unicodeScalars.count + tail <= frame.columns
            if spaced { row.putWhole(" ", into: &frame) }
            row.putWhole(unit, into: &frame)
        }
        guard let trend = panel.trend else { return }
        putTrend(trend, units, into: &frame, writer: &row)
        guard frame.rows >= 4 else { return }
        var words = RowWriter(row: 2, in: frame)
        words.put(Self.words(trend), into: &frame)
        if trend.unsure { words.putWhole(" (moved?)", into: &frame) }
        var source = RowWriter(row: 3, in: frame)
        if panel.sensorTrend != nil, let provider = panel.providerTrend {
            source.putWhole("Fcst", into: &frame)
            putTrend(provider, units, into: &frame, writer: &source)
        } else {
            source.put(panel.sensorTrend == nil ? "From the forecast" : "From the sensor", into: &frame)
        }
    }

    /// " ↘ −3.2/3h", the change only if it fits whole; the space before the change gives way
    /// first (" ↘−0.09/3h?" ends the 16 cells of a 16×2's "29.80").
    static func putTrend(
        _ trend: BarographPanel.Trend, _ units: UnitsNotation, into frame: inout CharacterFrame, writer: inout RowWriter
    ) {
        writer.putWhole(" ", into: &frame)
        writer.put(RowWriter.cell(PressureText.Arrow(change: trend.change).scalar), into: &frame)
        let change = PressureText.change(trend.change, units, unsure: trend.unsure)
        if writer.room > change.unicodeScalars.count { writer.putWhole(" ", into: &frame) }
        writer.putWhole(change, into: &frame)
    }

    /// "Falling quickly": the shipping forecast's words for the three-hour change.
    static func words(_ trend: BarographPanel.Trend) -> String {
        let falling = trend.change < 0
        switch trend.rate {
        case .steady: return "Steady"
        case .slowly: return falling ? "Falling slowly" : "Rising slowly"
        case .moderately: return falling ? "Falling" : "Rising"
        case .quickly: return falling ? "Falling quickly" : "Rising quickly"
        case .veryRapidly: return falling ? "Falling very fast" : "Rising very fast"
        }
    }

    /// The storm alarm over the top row until acknowledged (an LCD has no inverse video): on
    /// 20 columns the warning glyph, "STORM", the change in the first of
    /// `PressureText.bannerForms` that fits, and the clock at the right end (the row it hides
    /// is where the headers keep the clock): "⚠ STORM −4.2      14:05", "STORM −4.2 14:05" on
    /// 16. Where no form fits beside the clock, "STORM" and the clock.
    static func stormRow(_ change: Double, _ model: ScreenModel, into frame: inout CharacterFrame) {
        for column in 0..<frame.columns { frame[column, 0] = .blank }
        let units = model.settings.units
        let clockCells = clock(model, into: &frame)
        var row = RowWriter(row: 0, in: frame, width: frame.columns - (clockCells > 0 ? clockCells + 1 : 0))
        if frame.columns >= 20 {
            row.put(.glyph(.warning), into: &frame)
            row.putWhole(" ", into: &frame)
        }
        row.putWhole("STORM", into: &frame)
        // By index, no `where` clause: an unoptimised filtered loop allocates.
        let forms = PressureText.bannerForms(units)
        var index = 0
        while index < forms.count {
            let text = PressureText.change(change, units, form: forms[index])
            if text.unicodeScalars.count + 1 <= row.room {
                row.put(" ", into: &frame)
                row.put(text, into: &frame)
                break
            }
            index += 1
        }
    }

    /// Under the banner, a screen whose top row is content (days, hours, status), not a header
    /// the banner stands in for, moves down a row and gives up its last.
    static func moveDownUnderBanner(_ frame: inout CharacterFrame) {
        var row = frame.rows - 1
        while row > 0 {
            for column in 0..<frame.columns { frame[column, row] = frame[column, row - 1] }
            row -= 1
        }
    }
}

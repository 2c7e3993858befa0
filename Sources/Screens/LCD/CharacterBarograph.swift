import Graphics

/// The barograph as text on the character LCDs, and the storm alarm's row.
///
/// 20×4: "Pressure" and the clock; "1009 hPa ↘ −3.2/3h"; the tendency in the Met Office's
/// words ("Falling quickly"); the provider's tendency when the sensor's is the one above
/// ("Fcst ↘ −2.9/3h"), or where the values come from. 16×2: "Pressure" and the clock, then
/// "1009 ↘ −3.2/3h" (18 cells with " hPa" do not fit 16). The arrows are CGRAM glyphs
/// (`CellGlyph.rising`, `.falling`; → is ROM A00's 0x7E).
extension CharacterScreens {
    static func barograph(_ model: ScreenModel, into frame: inout CharacterFrame) {
        header("Pressure", model, into: &frame)
        let panel = model.barograph
        var row = RowWriter(row: 1, in: frame)
        guard let current = panel.current else {
            row.put("No pressure yet", into: &frame)
            return
        }
        row.putWhole(PressureText.value(current), into: &frame)
        let wide = frame.columns >= 20
        if wide { row.putWhole(" hPa", into: &frame) }
        guard let trend = panel.trend else { return }
        putTrend(trend, into: &frame, writer: &row)
        guard frame.rows >= 4 else { return }
        var words = RowWriter(row: 2, in: frame)
        words.put(Self.words(trend), into: &frame)
        if trend.unsure { words.putWhole(" (moved?)", into: &frame) }
        var source = RowWriter(row: 3, in: frame)
        if panel.sensorTrend != nil, let provider = panel.providerTrend {
            source.putWhole("Fcst", into: &frame)
            putTrend(provider, into: &frame, writer: &source)
        } else {
            source.put(panel.sensorTrend == nil ? "From the forecast" : "From the sensor", into: &frame)
        }
    }

    /// " ↘ −3.2/3h", the change only if it fits whole.
    static func putTrend(_ trend: BarographPanel.Trend, into frame: inout CharacterFrame, writer: inout RowWriter) {
        writer.putWhole(" ", into: &frame)
        writer.put(RowWriter.cell(PressureText.Arrow(change: trend.change).scalar), into: &frame)
        writer.putWhole(" ", into: &frame)
        writer.putWhole(PressureText.change(trend.change, unsure: trend.unsure), into: &frame)
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

    /// The storm alarm over the top row until acknowledged (an LCD has no inverse video): the
    /// warning glyph and "STORM −4.2 hPa/3h" on 20 columns, "STORM −4.2hPa/3h" on 16, the unit
    /// left out when a fall of 10 hPa or more needs the cell.
    static func stormRow(_ change: Double, into frame: inout CharacterFrame) {
        for column in 0..<frame.columns { frame[column, 0] = .blank }
        var row = RowWriter(row: 0, in: frame)
        let wide = frame.columns >= 20
        if wide {
            row.put(.glyph(.warning), into: &frame)
            row.putWhole(" ", into: &frame)
        }
        row.putWhole("STORM ", into: &frame)
        if !row.putWhole(PressureText.change(change, per: wide ? " hPa/3h" : "hPa/3h"), into: &frame) {
            row.putWhole(PressureText.change(change), into: &frame)
        }
    }
}

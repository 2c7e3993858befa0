import Graphics
import Store

/// The barograph: the pressure now with its three-hour tendency on the top row
/// ("1009 ↘ −3.2/3h"), and under it the last 48 hours and the provider's next 16 as a graph,
/// one 40-minute column per pixel. No clock on this screen: the change takes its place.
///
/// The sensor's trace is solid; the provider's is dotted (every other column), and so is its
/// past when a sensor trace is there to compare, so the two never look alike. A dotted vertical
/// marks now. A column with a sample taken moving or without a trusted altitude gets a dot
/// on the bottom row: the trace there is unsure. A column without samples is a gap.
/// The scale is the whole hectopascals around the values, at least 8 hPa tall (a flat week
/// must not look like a storm), labelled at the top and the bottom on the left. In imperial
/// units the value and the change are in inHg ("29.80 ↘ −0.09/3h") and the scale is on
/// 0.1-inHg steps ("29.8", "30.1"), at least 0.3 inHg (10.2 hPa: the first 0.1-inHg step at
/// or above 8 hPa); the plot stays in tenths of hPa, its bounds converted from the labels'.
///
/// 128×64: the graph in rows 13–63 with the labels beside it. 128×32: rows 13–31, the labels
/// on the right. Each plot column is built as a bit mask first and then lit run by run, so
/// every pixel is written once however the traces cross.
enum BarographScreen {
    static let minimumSpan = 80  // tenths of hPa
    static let minimumImperialSpan = 3  // tenths of inHg

    /// The plot's bounds in tenths of hPa and their labels.
    struct Scale: Equatable {
        var low: Int
        var high: Int
        var lowLabel: String
        var highLabel: String
    }

    static func draw<Target: DrawTarget>(_ model: ScreenModel, tall: Bool, into target: inout Target) {
        let panel = model.barograph
        guard let current = panel.current else {
            target.drawText("No pressure yet", font: .small, x: 0, y: tall ? 26 : 16, maxWidth: target.width, alignment: .center)
            return
        }
        let units = model.settings.units
        var x = target.drawText(PressureText.value(current, units), font: .small, x: 0, y: 0)
        if let trend = panel.trend {
            x += Font.small.advance(of: " ")
            x += TendencyArrow.draw(PressureText.Arrow(change: trend.change), x: x, y: 0, into: &target)
            // The change at the right end, where the other screens have the clock: at the left,
            // its minus sign lay on the titles' middle strokes, and that pixel was lit 50.5 %
            // of two simulated days (`BurnInTests`, pixel 37, 6).
            let change = PressureText.change(trend.change, units, unsure: trend.unsure)
            let width = Font.small.width(of: change)
            target.drawText(change, font: .small, x: max(x + 6, target.width - width), y: 0, maxWidth: target.width - x - 6)
        } else {
            target.drawText(units == .metric ? " hPa" : " inHg", font: .small, x: x, y: 0)
        }
        let top = Font.small.height + 1
        let bottom = target.height - 1  // the unsure dots' row
        let plotHeight = bottom - top   // rows top ..< bottom
        guard let scale = scale(panel, units) else { return }
        let labelWidth = Font.small.width(of: "0000")  // "29.8" is narrower
        let plotX = tall ? labelWidth + 2 : 0
        // Labels: digits have ink in rows 2–9 of their 12-row cell.
        let labelX = tall ? 0 : plotX + BarographPanel.columns + 3
        target.drawText(scale.highLabel, font: .small, x: labelX, y: top - 2)
        target.drawText(scale.lowLabel, font: .small, x: labelX, y: tall ? bottom - 10 : top + 7)
        plot(panel, low: scale.low, high: scale.high, x: plotX, top: top, height: plotHeight, into: &target)
    }

    /// The bottom and top of the scale, tenths of hPa, on whole hectopascals or on 0.1 inHg.
    static func scale(_ panel: BarographPanel, _ units: UnitsNotation) -> Scale? {
        guard let range = panel.range else { return nil }
        var (low, high) = (range.lowerBound, range.upperBound)
        if units == .imperial {
            // Tenths of hPa × inches per hPa = tenths of inHg.
            let perTenth = PressureText.inchesPerHectopascal
            low = Int((Double(low) * perTenth).rounded(.down))
            high = Int((Double(high) * perTenth).rounded(.up))
            if high - low < minimumImperialSpan {
                low -= (minimumImperialSpan - (high - low)) / 2
                high = low + minimumImperialSpan
            }
            // Back to tenths of hPa. Rounding keeps every value inside: an integer at or above
            // low / perTenth is at or above its rounding, and likewise below the top.
            return Scale(
                low: Int((Double(low) / perTenth).rounded()), high: Int((Double(high) / perTenth).rounded()),
                lowLabel: tenthsLabel(low), highLabel: tenthsLabel(high))
        }
        low = low / 10 * 10
        high = (high + 9) / 10 * 10
        if high - low < minimumSpan {
            let middle = (low + high) / 20 * 10
            low = middle - minimumSpan / 2
            high = middle + minimumSpan / 2
        }
        return Scale(low: low, high: high, lowLabel: wholeLabel(low / 10), highLabel: wholeLabel(high / 10))
    }

    /// "1016" (whole hPa) or, from tenths of inHg, "29.8".
    static func wholeLabel(_ whole: Int) -> String {
        var text = ShortText()
        text.append(whole)
        return text.string
    }

    static func tenthsLabel(_ tenths: Int) -> String {
        var text = ShortText()
        text.append(tenths / 10)
        text.append(".")
        text.append(tenths % 10)
        return text.string
    }

    private static func plot<Target: DrawTarget>(
        _ panel: BarographPanel, low: Int, high: Int, x plotX: Int, top: Int, height: Int, into target: inout Target
    ) {
        // Row within the plot (0 at the top) of a value.
        func row(_ tenths: Int16) -> Int {
            let span = high - low
            return (height - 1) - (Int(tenths) - low) * (height - 1) / span
        }
        func span(_ a: Int, _ b: Int) -> UInt64 {
            let (from, to) = (min(a, b), max(a, b))
            return (UInt64.max >> UInt64(63 - (to - from))) << UInt64(from)
        }
        let solidProvider = panel.sensorCount == 0
        // The columns read through locals: indexing `panel.sensor` in the loop copied the whole
        // inline array at every step (a memmove per column in `perf`).
        let sensor = panel.sensor
        let sensorUnsure = panel.sensorUnsure
        let provider = panel.provider
        var previousSensor: Int?
        var previousProvider: Int?
        for column in 0...BarographPanel.columns {
            var mask: UInt64 = 0
            var unsure = false
            let nowColumn = column == BarographPanel.pastColumns
            if nowColumn {
                // The now mark: every other row.
                for r in stride(from: 0, to: height, by: 2) { mask |= 1 << UInt64(r) }
            } else {
                let c = column > BarographPanel.pastColumns ? column - 1 : column
                if c < BarographPanel.pastColumns, sensor[c] != BarographPanel.missing {
                    let r = row(sensor[c])
                    mask |= span(previousSensor ?? r, r)
                    previousSensor = r
                    unsure = sensorUnsure[c]
                } else {
                    previousSensor = nil
                }
                if provider[c] != BarographPanel.missing {
                    let r = row(provider[c])
                    if solidProvider && c < BarographPanel.pastColumns {
                        mask |= span(previousProvider ?? r, r)
                    } else if c % 2 == 0 {
                        mask |= 1 << UInt64(r)
                    }
                    previousProvider = r
                } else {
                    previousProvider = nil
                }
            }
            // Each run of lit rows as one 1-pixel-wide rectangle: the framebuffer fills it a
            // page byte at a time (a steep fall is one call, not thirty pixels).
            let x = plotX + column
            while mask != 0 {
                let first = mask.trailingZeroBitCount
                let run = (~(mask >> UInt64(first))).trailingZeroBitCount
                if run == 1 {
                    target.setPixel(x: x, y: top + first, on: true)  // a dot: no clipping to compute
                } else {
                    target.fillRect(x: x, y: top + first, width: 1, height: run, on: true)
                }
                mask &= run >= 64 ? 0 : ~(((1 << UInt64(run)) - 1) << UInt64(first))
            }
            if unsure { target.setPixel(x: x, y: top + height, on: true) }
        }
    }
}

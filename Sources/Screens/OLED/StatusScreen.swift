import Graphics

/// What the device knows about itself: one row per part (GPS, network, store, display), the
/// label on the left, a `!` after the label of a part with a problem.
/// Rows with problems come first when the panel has fewer rows than lines.
enum StatusScreen {
    static let labelWidth = 36

    static func draw<Target: DrawTarget>(_ model: ScreenModel, rows: Int, into target: inout Target) {
        // Under the storm banner the lines move down a row and the last gives way, so the
        // first (the GPS, or the worst problem) is never the one it hides.
        let top = model.barograph.alarm == nil ? 0 : 1
        model.forEachStatusLine(limit: rows - top) { row, line in
            draw(line, y: (row + top) * Font.small.height, into: &target)
        }
    }

    private static func draw<Target: DrawTarget>(_ line: StatusLine, y: Int, into target: inout Target) {
        let mark = line.isProblem ? Font.small.advance(of: "!") : 0
        let width = target.drawText(line.label, font: .small, x: 0, y: y, maxWidth: labelWidth - 2 - mark, overflow: .clip)
        if line.isProblem { target.drawText("!", font: .small, x: width, y: y) }
        target.drawText(line.text, font: .small, x: labelWidth, y: y, maxWidth: target.width - labelWidth)
    }
}

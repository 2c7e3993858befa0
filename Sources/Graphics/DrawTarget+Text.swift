/// Where a line of text sits in the room it is given.
public enum TextAlignment: Sendable, Hashable, CaseIterable {
    case leading, center, trailing
}

/// What happens to text wider than the room it is given.
public enum Overflow: Sendable, Hashable, CaseIterable {
    /// Cut at the edge, through the middle of a glyph if need be.
    case clip
    /// Whole glyphs followed by `…` (or `...`), all inside the room; trailing spaces before
    /// the mark are dropped ("Sankt …" becomes "Sankt…").
    case ellipsis
}

/// What will be drawn for a line of text in a given room: computed once, then used both to
/// measure (`fittingWidth`) and to draw, so that the two always agree.
struct TextLayout {
    /// Width of the text that is drawn (before any ellipsis; the whole line when it fits).
    var textWidth: Int
    /// How many scalars are drawn; `Int.max` for all of them.
    var scalarCount = Int.max
    /// Where drawing stops, relative to the start of the line; `Int.max` for nowhere.
    var clipWidth = Int.max
    /// Width of the ellipsis drawn after the text; 0 for none.
    var markWidth = 0
    /// Whether the line fits, so that alignment applies.
    var fits = true

    /// The width actually drawn, ellipsis included.
    var drawnWidth: Int {
        clipWidth == Int.max ? textWidth + markWidth : min(textWidth, clipWidth)
    }
}

extension Font {
    func layout(_ text: some StringProtocol, maxWidth: Int?, overflow: Overflow) -> TextLayout {
        let total = width(of: text)
        guard let maxWidth else { return TextLayout(textWidth: total) }
        let room = max(0, min(maxWidth, 2 * Clip.coordinateLimit))
        if total <= room { return TextLayout(textWidth: total) }
        let mark = ellipsisWidth
        if overflow == .clip || mark > room {
            return TextLayout(textWidth: total, clipWidth: room, fits: false)
        }
        // The longest prefix that leaves room for the mark and does not end in a space.
        var count = 0, width = 0, bestCount = 0, bestWidth = 0
        for scalar in text.unicodeScalars {
            let advance = advance(of: scalar)
            if width + advance + mark > room { break }
            width += advance
            count += 1
            if scalar != " " && scalar != "\u{00A0}" {
                bestCount = count
                bestWidth = width
            }
        }
        return TextLayout(textWidth: bestWidth, scalarCount: bestCount, markWidth: mark, fits: false)
    }

    /// The width `drawText` draws for `text` in `maxWidth` pixels with `overflow`: the text's
    /// width when it fits, else at most `maxWidth` (what layouts place the next item after).
    public func fittingWidth(of text: some StringProtocol, maxWidth: Int?, overflow: Overflow = .ellipsis) -> Int {
        layout(text, maxWidth: maxWidth, overflow: overflow).drawnWidth
    }
}

extension DrawTarget {
    /// Draws one line of `text` with its top at `y` and returns the width drawn.
    ///
    /// With `maxWidth`, the line is placed inside `x ..< x + maxWidth` by `alignment`; text that
    /// does not fit starts at `x` and is cut as `overflow` says, so nothing is drawn past the
    /// room (when even the ellipsis does not fit, the text is clipped instead). Without
    /// `maxWidth`, `.leading` starts the line at `x`, `.center` centres it on `x` and `.trailing`
    /// ends it at `x` (exclusive), so a right-aligned clock is `x: width, alignment: .trailing`.
    ///
    /// The line is one line: a newline is a glyph like any other (the font's fallback). `mode`
    /// says how glyphs combine with what is under them (`.erase` for dark text on a lit bar).
    /// No allocation: glyphs are views into the font's tables, scalars are walked in place.
    @discardableResult
    public mutating func drawText(
        _ text: some StringProtocol, font: Font, x: Int, y: Int, maxWidth: Int? = nil,
        alignment: TextAlignment = .leading, overflow: Overflow = .ellipsis, mode: BitmapMode = .overlay
    ) -> Int {
        let layout = font.layout(text, maxWidth: maxWidth, overflow: overflow)
        let x = Clip.clamp(x), y = Clip.clamp(y)
        var pen = x
        if layout.fits {
            let room = maxWidth.map { max(0, min($0, 2 * Clip.coordinateLimit)) }
            switch (alignment, room) {
            case (.leading, _): break
            case (.center, let room?): pen += (room - layout.textWidth) / 2
            case (.trailing, let room?): pen += room - layout.textWidth
            case (.center, nil): pen -= layout.textWidth / 2
            case (.trailing, nil): pen -= layout.textWidth
            }
        }
        let clipEnd = layout.clipWidth == Int.max ? Int.max : x + layout.clipWidth
        var drawn = 0
        for scalar in text.unicodeScalars {
            if drawn == layout.scalarCount || pen >= clipEnd || pen >= width { break }
            drawn += 1
            let advance = font.advance(of: scalar)
            if advance == 0 { continue }
            if pen + advance > 0 {
                let glyph = font.glyph(scalar)
                if pen + advance > clipEnd {
                    draw(glyph.columns(0 ..< clipEnd - pen), x: pen, y: y, mode: mode)
                } else {
                    draw(glyph, x: pen, y: y, mode: mode)
                }
            }
            pen += advance
        }
        if layout.markWidth > 0 { drawEllipsis(font: font, x: x + layout.textWidth, y: y, mode: mode) }
        return layout.drawnWidth
    }

    private mutating func drawEllipsis(font: Font, x: Int, y: Int, mode: BitmapMode) {
        if let index = font.ellipsisIndex {
            draw(font.glyph(at: index), x: x, y: y, mode: mode)
        } else {
            let dot = font.glyph("."), step = font.advance(of: ".")
            for n in 0 ..< 3 { draw(dot, x: x + n * step, y: y, mode: mode) }
        }
    }
}

import HAL

/// The fonts a glass is read with: the ones the screens draw with (`Font.small` for labels and
/// the clock, `.medium` for units and the compact temperature, `.large` for the big digits).
public enum GlassFont: String, Sendable, CaseIterable {
    case large, medium, small

    public var font: Font {
        switch self {
        case .large: .large
        case .medium: .medium
        case .small: .small
        }
    }
}

/// One picture the glass may show, as `GlassReader` compares it: its columns as bit words (bit r
/// = row r of the cell, lit), so a cell of the glass equals it when its words are equal.
struct GlassTemplate {
    enum Kind {
        case glyph(Unicode.Scalar)
        case icon(ConditionGroup, night: Bool)
    }

    let kind: Kind
    let width: Int
    let columns: [UInt64]
    /// Lit pixels of the picture: what a match claims of the glass.
    let ink: Int
}

/// The pictures of one height (a font, or a size of icons), looked up by their column words.
struct GlassTemplateSet {
    /// Rows of a cell; at most 64, so a column of a cell is one `UInt64`.
    let height: Int
    /// How far a cell may stand above the top edge / below the bottom edge of the glass: the
    /// rows above a font's capitals and below its baseline, which a layout may push off the
    /// glass (the clock is drawn at y = −2, `ScreenParts.clockY`). Nothing for icons.
    let overhangTop: Int
    let overhangBottom: Int
    let font: GlassFont?
    private(set) var templates: [GlassTemplate] = []
    /// For each width, the column words of every picture that wide → its index in `templates`.
    private(set) var lookup: [Int: [[UInt64]: Int]] = [:]
    /// The widths in `lookup`, ascending (so a read visits them in a fixed order).
    private(set) var widths: [Int] = []

    /// Every glyph of `font` that lights a pixel. Glyphs that look the same read as the first
    /// of them in scalar order, so ASCII wins. Format characters (the soft hyphen) are left
    /// out: text never shows them, and a lone one reads like a dash of another font.
    init(font glassFont: GlassFont) {
        let font = glassFont.font
        precondition(font.height <= 64, "a cell column is one UInt64")
        height = font.height
        overhangTop = font.ascent - font.capHeight
        overhangBottom = font.height - font.ascent
        self.font = glassFont
        for index in font.scalars.indices {
            guard let scalar = Unicode.Scalar(font.scalars[index]), scalar.properties.generalCategory != .format else { continue }
            add(font.glyph(at: index), .glyph(scalar))
        }
    }

    /// The weather icons of `size`, day and (where it differs) night.
    init(icons size: IconSize) {
        height = size.pixels
        overhangTop = 0
        overhangBottom = 0
        font = nil
        for group in ConditionGroup.allCases {
            for night in group.hasNightVariant ? [false, true] : [false] {
                add(group.bitmap(night: night, size: size), .icon(group, night: night))
            }
        }
    }

    private mutating func add(_ bitmap: Bitmap, _ kind: GlassTemplate.Kind) {
        var columns = [UInt64](repeating: 0, count: bitmap.width)
        var ink = 0
        for x in 0..<bitmap.width {
            for y in 0..<bitmap.height where bitmap[x, y] {
                columns[x] |= 1 << UInt64(y)
                ink += 1
            }
        }
        // A blank picture (the space) would match every dark cell: spaces are read from the
        // gaps between words instead (`GlassReader`).
        guard ink > 0, lookup[bitmap.width]?[columns] == nil else { return }
        if lookup[bitmap.width] == nil {
            widths.append(bitmap.width)
            widths.sort()
        }
        lookup[bitmap.width, default: [:]][columns] = templates.count
        templates.append(GlassTemplate(kind: kind, width: bitmap.width, columns: columns, ink: ink))
    }
}

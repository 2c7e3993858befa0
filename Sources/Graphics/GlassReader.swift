import HAL

/// Reads what a 1-bit glass shows back into text and weather icons, by exact template matching
/// of the project's own fonts and icons (the generated tables that `drawText` and `drawIcon`
/// draw from): the inverse of the screens, for tools that check a panel driven by the real
/// daemon (`thunderstorm glass`). A host tool: clear before fast, though nothing is allocated
/// per pixel (a cell is looked up by its column words in a reused key).
///
/// Strict by design, so that a glass shifted by a column, squashed or garbled does not read as
/// the right text in the right place:
/// - A glyph is read at `x`, `y` only when every pixel of its cell — `advance` columns, its
///   spacing included, × the font's `height` rows — equals the glass, lit and dark alike. A
///   cell lies inside the glass but for the rows above a font's capitals and below its
///   baseline, which may stand off the top or bottom edge (and read as dark there).
/// - Text drawn over other ink (`.overlay` on a lit pixel of something else) does not match;
///   neither does dark text on a lit bar (`.erase`), which no screen draws.
/// - A lit pixel belongs to at most one glyph or icon. Icons are read first; then glyphs, the
///   longest chains first (glyphs of one font on one row, each starting where the one before
///   ends or one dark space after it, scored by the lit pixels of the whole chain), so that a
///   short glyph that a fragment of a longer string happens to look like (the lower dot of `:`
///   as `.`) loses; between equal readings, ASCII wins.
/// - Words become strings when exactly one space of their font apart with nothing lit in
///   between; a wider gap starts a new string.
public struct GlassReader: Sendable {
    let fontSets: [GlassTemplateSet]
    let iconSets: [GlassTemplateSet]

    public init(fonts: [GlassFont] = GlassFont.allCases) {
        fontSets = fonts.map { GlassTemplateSet(font: $0) }
        iconSets = IconSize.allCases.map { GlassTemplateSet(icons: $0) }
    }

    /// Reads a `width × height` glass: `pixels` row by row from the top-left, nonzero = lit
    /// (HALSim's `PanelImage.pixels`).
    public func read(width: Int, height: Int, pixels: [UInt8]) -> GlassReading {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "one byte per pixel")
        var glass = Glass(width: width, height: height, pixels: pixels)
        var icons: [GlassIcon] = []
        // Icons first, the largest first: text never hides inside a recognised icon.
        let iconMatches = iconSets.indices.flatMap { matches(iconSets[$0], set: $0, on: glass) }.sorted { a, b in
            let inkA = inkOf(a, iconSets), inkB = inkOf(b, iconSets)
            return inkA != inkB ? inkA > inkB : a.before(b)
        }
        for match in iconMatches {
            let template = iconSets[match.set].templates[match.template]
            guard glass.claim(template, x: match.x, y: match.y), case .icon(let group, let night) = template.kind else { continue }
            icons.append(GlassIcon(icon: group, night: night, size: IconSize.allCases[match.set], x: match.x, y: match.y))
        }
        let glyphs = fontSets.indices.flatMap { matches(fontSets[$0], set: $0, on: glass) }
        let scores = chainScores(glyphs, on: glass)
        let order = glyphs.indices.sorted { a, b in
            if scores[a] != scores[b] { return scores[a] > scores[b] }
            let inkA = inkOf(glyphs[a], fontSets), inkB = inkOf(glyphs[b], fontSets)
            if inkA != inkB { return inkA > inkB }
            // The same pixels read alike in two fonts (a lone bar: `-`, or `¯` a few rows up in
            // another font): the ASCII reading, which is what the screens write.
            let asciiA = isASCII(glyphs[a]), asciiB = isASCII(glyphs[b])
            if asciiA != asciiB { return asciiA }
            return glyphs[a].before(glyphs[b])
        }
        var accepted: [Match] = []
        for index in order {
            let match = glyphs[index]
            if glass.claim(fontSets[match.set].templates[match.template], x: match.x, y: match.y) { accepted.append(match) }
        }
        icons.sort { ($0.y, $0.x) < ($1.y, $1.x) }
        return GlassReading(
            text: strings(accepted, on: glass), icons: icons, litPixels: glass.litCount, unreadPixels: glass.unclaimedLitCount)
    }

    /// A template at a place on the glass.
    struct Match {
        var set: Int
        var template: Int
        var x: Int
        var y: Int

        /// Reading order, for ties: fonts in their set order, then top to bottom, left to right.
        func before(_ other: Match) -> Bool { (set, y, x, template) < (other.set, other.y, other.x, other.template) }
    }

    private func inkOf(_ match: Match, _ sets: [GlassTemplateSet]) -> Int { sets[match.set].templates[match.template].ink }

    /// Every place where a cell of the glass equals a picture of `templates`.
    private func matches(_ templates: GlassTemplateSet, set: Int, on glass: Glass) -> [Match] {
        let top = -templates.overhangTop, bottom = glass.height - templates.height + templates.overhangBottom
        guard top <= bottom else { return [] }
        var found: [Match] = []
        var words = [UInt64](repeating: 0, count: glass.width)
        var key: [UInt64] = []
        for y in top...bottom {
            for x in 0..<glass.width { words[x] = glass.column(x: x, top: y, rows: templates.height) }
            for width in templates.widths where width <= glass.width {
                guard let table = templates.lookup[width] else { continue }
                for x in 0...(glass.width - width) {
                    key.removeAll(keepingCapacity: true)
                    var any: UInt64 = 0
                    for column in x..<x + width {
                        key.append(words[column])
                        any |= words[column]
                    }
                    // A dark cell matches nothing (blank pictures are not templates).
                    if any != 0, let index = table[key] { found.append(Match(set: set, template: index, x: x, y: y)) }
                }
            }
        }
        return found
    }

    /// For each match, the lit pixels of the best chain through it: the glyphs of its font and
    /// row that continue it to the left and to the right, side by side or one dark space apart
    /// (as `strings` joins them), the best continuation on each side.
    private func chainScores(_ matches: [Match], on glass: Glass) -> [Int] {
        struct Edge: Hashable {
            var set: Int
            var y: Int
            var x: Int
        }
        var starting: [Edge: [Int]] = [:]
        var ending: [Edge: [Int]] = [:]
        for (index, m) in matches.enumerated() {
            starting[Edge(set: m.set, y: m.y, x: m.x), default: []].append(index)
            ending[Edge(set: m.set, y: m.y, x: m.x + width(of: m)), default: []].append(index)
        }
        /// The matches that may follow `m`, whose cell ends at `edge` (or, `before`, precede it,
        /// its cell starting at `edge`): right there, or one dark space further.
        func neighbours(_ m: Match, at edge: Int, before: Bool) -> [Int] {
            let set = fontSets[m.set]
            let space = set.font?.font.advance(of: " ") ?? 0
            let table = before ? ending : starting
            var found = table[Edge(set: m.set, y: m.y, x: edge)] ?? []
            let gap = before ? edge - space : edge
            if space > 0, glass.isDark(x: gap, y: m.y, width: space, height: set.height) {
                found += table[Edge(set: m.set, y: m.y, x: before ? gap : gap + space)] ?? []
            }
            return found
        }
        let byX = matches.indices.sorted { matches[$0].x < matches[$1].x }
        var left = [Int](repeating: 0, count: matches.count)
        var right = [Int](repeating: 0, count: matches.count)
        for index in byX {
            let m = matches[index]
            left[index] = inkOf(m, fontSets) + (neighbours(m, at: m.x, before: true).map { left[$0] }.max() ?? 0)
        }
        for index in byX.reversed() {
            let m = matches[index]
            right[index] = inkOf(m, fontSets) + (neighbours(m, at: m.x + width(of: m), before: false).map { right[$0] }.max() ?? 0)
        }
        return matches.indices.map { left[$0] + right[$0] - inkOf(matches[$0], fontSets) }
    }

    private func isASCII(_ match: Match) -> Bool {
        guard case .glyph(let scalar) = fontSets[match.set].templates[match.template].kind else { return false }
        return scalar.isASCII
    }

    private func width(of match: Match) -> Int { fontSets[match.set].templates[match.template].width }

    /// The accepted glyphs as strings: side by side, or one dark space apart, on one row of
    /// one font.
    private func strings(_ glyphs: [Match], on glass: Glass) -> [GlassText] {
        var result: [GlassText] = []
        let sorted = glyphs.sorted { $0.before($1) }
        var current: GlassText?
        var end = 0
        for m in sorted {
            let set = fontSets[m.set]
            let template = set.templates[m.template]
            guard let font = set.font, case .glyph(let scalar) = template.kind else { continue }
            let space = font.font.advance(of: " ")
            if var text = current, text.font == font, text.y == m.y, m.x == end || (m.x == end + space && glass.isDark(x: end, y: m.y, width: space, height: set.height)) {
                if m.x != end { text.text.append(" ") }
                text.text.unicodeScalars.append(scalar)
                current = text
            } else {
                if let text = current { result.append(text) }
                current = GlassText(String(Character(scalar)), x: m.x, y: m.y, font: font)
            }
            end = m.x + template.width
        }
        if let text = current { result.append(text) }
        return result.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }
}

/// The glass being read, and which of its lit pixels a match has claimed.
struct Glass {
    let width: Int
    let height: Int
    let pixels: [UInt8]
    private var claimed: [Bool]

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
        claimed = [Bool](repeating: false, count: pixels.count)
    }

    func isLit(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height && pixels[y * width + x] != 0
    }

    /// Column `x` from row `top`, `rows` rows: bit r = row top + r lit (off the glass: dark).
    func column(x: Int, top: Int, rows: Int) -> UInt64 {
        var word: UInt64 = 0
        for r in 0..<rows where isLit(x: x, y: top + r) { word |= 1 << UInt64(r) }
        return word
    }

    func isDark(x: Int, y: Int, width: Int, height: Int) -> Bool {
        for row in y..<y + height {
            for column in x..<x + width where isLit(x: column, y: row) { return false }
        }
        return true
    }

    /// Claims the lit pixels of `template` at `x`, `y`, unless another match has any of them.
    mutating func claim(_ template: GlassTemplate, x: Int, y: Int) -> Bool {
        for pass in 0..<2 {
            for (c, word) in template.columns.enumerated() where word != 0 {
                for r in 0..<64 where word & (1 << UInt64(r)) != 0 {
                    // A match only lights pixels on the glass: off it, its cell read as dark.
                    let index = (y + r) * width + x + c
                    if pass == 0 {
                        if claimed[index] { return false }
                    } else {
                        claimed[index] = true
                    }
                }
            }
        }
        return true
    }

    var litCount: Int { pixels.reduce(0) { $0 + ($1 != 0 ? 1 : 0) } }

    var unclaimedLitCount: Int {
        var count = 0
        for index in pixels.indices where pixels[index] != 0 && !claimed[index] { count += 1 }
        return count
    }
}

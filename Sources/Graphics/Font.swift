/// A 1-bit bitmap font: generated constant tables (`Generated/Font*.swift`, made by
/// `scripts/generate-graphics.sh` from Terminus) and the lookups that text drawing needs.
///
/// Glyphs are stored like every other `Bitmap` here, page-major with bit 0 on top, one glyph
/// after another in `data`, so a glyph drawn at a `y` that is a multiple of 8 is a byte copy
/// into the framebuffer. A glyph is as wide as its advance (the font's spacing is part of the
/// glyph), which is what lets `width(of:)` be a plain sum. Lookup is by Unicode scalar, without
/// allocation: the leading run of consecutive scalars (printable ASCII) is indexed directly,
/// the rest by binary search of the sorted scalar table.
///
/// A scalar the font lacks is drawn and measured as `?`. Combining marks (U+0300–U+036F),
/// zero-width spaces and joiners (U+200B–U+200D) and variation selectors (U+FE00–U+FE0F) are
/// zero-width and draw nothing, so a decomposed `é` shows as `e` rather than `e?`.
public struct Font: Sendable {
    /// Where the glyphs come from and under which license (an attribution, e.g. "derived from
    /// Terminus Font Medium 12 (SIL OFL 1.1)").
    public let name: String
    /// Height of every glyph and of a line of text, in pixels.
    public let height: Int
    /// Rows from the top of a line to the baseline (the row below the bottom of a digit).
    public let ascent: Int
    /// Rows of a digit or a capital above the baseline: its ink starts at `ascent - capHeight`.
    public let capHeight: Int

    @usableFromInline let scalars: [UInt32]
    @usableFromInline let advances: [UInt8]
    @usableFromInline let offsets: [UInt16]
    @usableFromInline let data: [UInt8]
    /// Entries `0 ..< directCount` hold `scalars[0] + i`: looked up without a search.
    @usableFromInline let directCount: Int
    @usableFromInline let fallbackIndex: Int
    @usableFromInline let ellipsisIndex: Int?

    /// A font from generated tables: `scalars` sorted ascending, and for each its advance and
    /// the offset of its `advance × pages` bytes in `data`. `fallback` must be in the table.
    init(name: String, height: Int, ascent: Int, capHeight: Int,
         scalars: [UInt32], advances: [UInt8], offsets: [UInt16], data: [UInt8],
         fallback: Unicode.Scalar = "?") {
        precondition(scalars.count == advances.count && scalars.count == offsets.count && !scalars.isEmpty)
        self.name = name
        self.height = height
        self.ascent = ascent
        self.capHeight = capHeight
        self.scalars = scalars
        self.advances = advances
        self.offsets = offsets
        self.data = data
        var direct = 1
        while direct < scalars.count, scalars[direct] == scalars[0] + UInt32(direct) { direct += 1 }
        directCount = direct
        guard let fallbackIndex = Font.search(scalars, direct: direct, for: fallback) else {
            preconditionFailure("the fallback glyph is missing")
        }
        self.fallbackIndex = fallbackIndex
        ellipsisIndex = Font.search(scalars, direct: direct, for: "\u{2026}")
    }

    /// The table index of `scalar`, or `nil` when the font lacks it.
    @inlinable
    func index(of scalar: Unicode.Scalar) -> Int? {
        Font.search(scalars, direct: directCount, for: scalar)
    }

    @inlinable
    static func search(_ scalars: [UInt32], direct: Int, for scalar: Unicode.Scalar) -> Int? {
        let value = scalar.value
        let first = scalars[0]
        if value >= first, value - first < UInt32(direct) { return Int(value - first) }
        var low = direct, high = scalars.count
        while low < high {
            let middle = (low + high) >> 1
            let probe = scalars[middle]
            if probe == value { return middle }
            if probe < value { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Whether the font has a glyph of its own for `scalar` (zero-width scalars count as had).
    public func contains(_ scalar: Unicode.Scalar) -> Bool {
        Font.isZeroWidth(scalar) || index(of: scalar) != nil
    }

    /// How far the pen moves after `scalar`: its glyph's width, the fallback's when the font
    /// lacks it, 0 for a zero-width scalar.
    @inlinable
    public func advance(of scalar: Unicode.Scalar) -> Int {
        if Font.isZeroWidth(scalar) { return 0 }
        return Int(advances[index(of: scalar) ?? fallbackIndex])
    }

    /// The glyph drawn for `scalar` (the fallback when the font lacks it; an empty bitmap for
    /// a zero-width scalar). A view into the font's table: no allocation.
    public func glyph(_ scalar: Unicode.Scalar) -> Bitmap {
        if Font.isZeroWidth(scalar) { return glyph(at: fallbackIndex).columns(0 ..< 0) }
        return glyph(at: index(of: scalar) ?? fallbackIndex)
    }

    @usableFromInline
    func glyph(at index: Int) -> Bitmap {
        let width = Int(advances[index])
        return Bitmap(storage: data, base: Int(offsets[index]), stride: width, width: width, height: height)
    }

    /// The width of `text` drawn on one line, without any limit. No allocation.
    public func width(of text: some StringProtocol) -> Int {
        var total = 0
        for scalar in text.unicodeScalars { total += advance(of: scalar) }
        return total
    }

    /// The width of the mark that ends text cut short: `…` when the font has it, else `...`.
    public var ellipsisWidth: Int {
        if let ellipsisIndex { return Int(advances[ellipsisIndex]) }
        return 3 * advance(of: ".")
    }

    /// Scalars that take no room and draw nothing.
    @inlinable
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0300 ... 0x036F, 0x200B ... 0x200D, 0xFE00 ... 0xFE0F: true
        default: false
        }
    }
}

extension Font: CustomStringConvertible {
    /// The name and size, rather than every table (test failures print fonts).
    public var description: String { "Font(\(name), \(height) px)" }
}

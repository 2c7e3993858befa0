import HAL

/// A string read off the glass: where its first glyph's cell stands (the `x`, `y` that
/// `drawText` drew it at, so `y` may be negative: the clock's −2) and in which font.
public struct GlassText: Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public var x: Int
    public var y: Int
    public var font: GlassFont

    public init(_ text: String, x: Int, y: Int, font: GlassFont) {
        self.text = text
        self.x = x
        self.y = y
        self.font = font
    }

    public var description: String { "\"\(text)\" at \(x),\(y) (\(font))" }
}

/// A weather icon read off the glass, at the top-left corner `drawIcon` drew it at.
public struct GlassIcon: Sendable, Equatable {
    public var icon: ConditionGroup
    /// The night picture (only for icons that have one).
    public var night: Bool
    public var size: IconSize
    public var x: Int
    public var y: Int

    public init(icon: ConditionGroup, night: Bool, size: IconSize, x: Int, y: Int) {
        self.icon = icon
        self.night = night
        self.size = size
        self.x = x
        self.y = y
    }
}

/// What `GlassReader` found: the strings and icons, in reading order (top to bottom, then left
/// to right), and how many lit pixels none of them explains.
public struct GlassReading: Sendable, Equatable {
    public var text: [GlassText]
    public var icons: [GlassIcon]
    public var litPixels: Int
    /// Lit pixels that are part of no glyph or icon read: 0 on a glass that shows only what the
    /// screens draw, more on a garbled one (or one with a picture the reader does not know).
    public var unreadPixels: Int

    public init(text: [GlassText], icons: [GlassIcon] = [], litPixels: Int = 0, unreadPixels: Int = 0) {
        self.text = text
        self.icons = icons
        self.litPixels = litPixels
        self.unreadPixels = unreadPixels
    }

    /// Whether `text` was read with its first glyph's cell at `x`, `y` in `font`, alone or as
    /// part of a longer string (a layout draws "12 km/h" and "SW" as two calls; the reader
    /// joins words one space apart). Spaces at either end of `text` are not drawn, so they are
    /// skipped (a leading one moves `x` on by its width). Scalars whose glyphs look the same in
    /// `font` compare equal: the glass cannot tell them apart.
    public func contains(_ text: String, x: Int, y: Int, font: GlassFont) -> Bool {
        let face = font.font
        var wanted = Substring(text)
        var x = x
        while wanted.first == " " {
            x += face.advance(of: " ")
            wanted = wanted.dropFirst()
        }
        while wanted.last == " " { wanted = wanted.dropLast() }
        guard !wanted.isEmpty else { return false }
        for read in self.text where read.font == font && read.y == y && read.x <= x {
            var pen = read.x
            var rest = Substring(read.text)
            while pen < x, let scalar = rest.unicodeScalars.first {
                pen += face.advance(of: scalar)
                rest = Substring(rest.unicodeScalars.dropFirst())
            }
            // Scalars the font draws alike are the same on the glass: the reader gives the first
            // in Unicode order (`-` for the minus sign U+2212 the screens write).
            if pen == x && rest.unicodeScalars.starts(with: wanted.unicodeScalars, by: { $0 == $1 || face.glyph($0) == face.glyph($1) }) {
                return true
            }
        }
        return false
    }
}

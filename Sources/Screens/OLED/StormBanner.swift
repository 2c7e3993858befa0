import Graphics

/// The storm alarm over every screen: the top text row inverted, "STORM −4.2 hPa/3h" dark on
/// a lit bar, until a button acknowledges it. The screen under it is drawn as usual with its
/// top row cut off (`BelowBanner`), so every pixel is written once: the mock display's
/// overdraw check holds, and the framebuffer's diff sends the bar once.
enum StormBanner {
    static var height: Int { Font.small.height }

    static func draw<Target: DrawTarget>(change: Double, into target: inout Target) {
        let amount = PressureText.change(change, per: " hPa/3h")
        let font = Font.small
        let width = font.width(of: "STORM ") + font.width(of: amount)
        var x = max(0, (target.width - width) / 2)
        target.fillRect(x: 0, y: 0, width: x, height: height, on: true)
        x = inverted("STORM ", x: x, into: &target)
        x = inverted(amount, x: x, into: &target)
        target.fillRect(x: x, y: 0, width: target.width - x, height: height, on: true)
    }

    /// Each glyph as its inverted cell, drawn with `.copy`: every pixel of the cell written once
    /// (lit where the glyph is dark), by the framebuffer's byte-copy path. Returns the pen after
    /// the text, clipped to the target.
    private static func inverted<Target: DrawTarget>(_ text: String, x: Int, into target: inout Target) -> Int {
        var pen = x
        for scalar in text.unicodeScalars {
            let cell = invertedCell(scalar)
            guard pen + cell.width <= target.width else { break }
            target.draw(cell, x: pen, y: 0, mode: .copy)
            pen += cell.width
        }
        return min(pen, target.width)
    }

    /// What the banner writes: "STORM", the signed amount, " hPa/3h"; last, the `?` that stands
    /// for anything else.
    static let scalars = Array("STORM 0123456789.+\u{2212}hPa/3?".unicodeScalars)
    /// The inverted cells of `scalars`, built once at first use.
    static let cells: [Bitmap] = scalars.map { scalar in
        let glyph = Font.small.glyph(scalar)
        let pages = glyph.pages
        var bytes = [UInt8](repeating: 0, count: glyph.width * pages)
        for page in 0..<pages {
            let rows = min(8, glyph.height - page * 8)
            let valid: UInt8 = rows >= 8 ? 0xFF : UInt8((1 << rows) - 1)
            for column in 0..<glyph.width { bytes[page * glyph.width + column] = ~glyph.byte(page: page, column: column) & valid }
        }
        return Bitmap(width: glyph.width, height: glyph.height, bytes: bytes)
    }

    static func invertedCell(_ scalar: Unicode.Scalar) -> Bitmap {
        for i in 0..<scalars.count where scalars[i] == scalar { return cells[i] }
        return cells[scalars.count - 1]
    }
}

/// A view of a target without its top `top` rows: drawing there is dropped, so a screen
/// drawn through it leaves the banner alone. It holds a pointer to the caller's target (valid
/// only inside `withUnsafeMutablePointer`), not a copy: a framebuffer copied and written would
/// copy its storage, an allocation per frame.
struct BelowBanner<Base: DrawTarget>: DrawTarget {
    let base: UnsafeMutablePointer<Base>
    let top: Int

    var width: Int { base.pointee.width }
    var height: Int { base.pointee.height }

    mutating func setPixel(x: Int, y: Int, on: Bool) {
        guard y >= top else { return }
        base.pointee.setPixel(x: x, y: y, on: on)
    }

    mutating func fillRect(x: Int, y: Int, width: Int, height: Int, on: Bool) {
        let cut = max(0, top - y)
        base.pointee.fillRect(x: x, y: y + cut, width: width, height: height - cut, on: on)
    }

    mutating func draw(_ bitmap: Bitmap, x: Int, y: Int, mode: BitmapMode) {
        if y >= top { return base.pointee.draw(bitmap, x: x, y: y, mode: mode) }
        if y + bitmap.height <= top { return }
        // Straddling the banner's edge: pixel by pixel, the rows under it dropped.
        for row in top - y..<bitmap.height {
            for column in 0..<bitmap.width {
                guard x + column >= 0, x + column < width, y + row < height else { continue }
                let lit = bitmap[column, row]
                switch mode {
                case .overlay: if lit { base.pointee.setPixel(x: x + column, y: y + row, on: true) }
                case .copy: base.pointee.setPixel(x: x + column, y: y + row, on: lit)
                case .erase: if lit { base.pointee.setPixel(x: x + column, y: y + row, on: false) }
                }
            }
        }
    }
}

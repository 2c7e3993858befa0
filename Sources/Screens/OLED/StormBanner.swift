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

    /// Each glyph's cell inverted, every pixel of it written once (lit where the glyph is
    /// dark). Pixel by pixel from the glyph's two page bytes per column: a table of inverted
    /// cells would be built on first use, an allocation on the loop the first time a storm
    /// comes. Returns the pen after the text, clipped to the target.
    private static func inverted<Target: DrawTarget>(_ text: String, x: Int, into target: inout Target) -> Int {
        var pen = x
        for scalar in text.unicodeScalars {
            let glyph = Font.small.glyph(scalar)
            guard pen + glyph.width <= target.width else { break }
            for column in 0..<glyph.width {
                let ink = UInt16(glyph.byte(page: 0, column: column)) | UInt16(glyph.byte(page: 1, column: column)) << 8
                for row in 0..<height { target.setPixel(x: pen + column, y: row, on: ink & (1 << UInt16(row)) == 0) }
            }
            pen += glyph.width
        }
        return min(pen, target.width)
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

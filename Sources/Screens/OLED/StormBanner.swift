import Graphics
import Store

/// The storm alarm over every screen: the top text row, "STORM −4.2/3h" and the clock
/// ("STORM −0.12 inHg/3h" in imperial units where it fits, or the first shorter
/// `PressureText.bannerForms` that does), until a button acknowledges it.
///
/// It alternates every minute between dark text on a lit bar and lit text on a dark one: a bar
/// lit for the hours an unattended alarm stays up would wear that strip of an OLED faster than
/// the rest (burn-in, docs/design/parts.md#burn-in); alternating keeps every pixel of the strip
/// lit about half the time, and the change catches the eye.
///
/// The screen under it is drawn as usual with its top row cut off (`BelowBanner`), so every
/// pixel is written once: the mock display's overdraw check holds, and the framebuffer's diff
/// sends the bar once. The days and status screens move down a row instead (their top row is
/// content, not a header).
enum StormBanner {
    static var height: Int { Font.small.height }

    /// Whether the bar is lit in the minute shown: lit on even minutes (and with no clock).
    static func lit(minute: Int?) -> Bool { (minute ?? 0) % 2 == 0 }

    /// The gap between the alarm and the clock.
    static let clockGap = 6

    /// "STORM" and the change centred, the clock (`clock`, as the screens' headers write it)
    /// at the right end: the banner hides the top row, which is where every screen but the
    /// barograph keeps the clock, and a wall clock must not go blank for the hours of a storm.
    /// The change takes the first of `PressureText.bannerForms` that fits beside the clock;
    /// where none does (imperial, or a 12-hour clock, on the orbit's narrower canvas) the
    /// banner says "STORM" and the time, and the figure is on the barograph and status screens.
    static func draw<Target: DrawTarget>(
        change: Double, units: UnitsNotation, clock: String?, lit: Bool, into target: inout Target
    ) {
        let font = Font.small
        let clockWidth = clock.map { font.width(of: $0) } ?? 0
        let room = clock == nil ? target.width : max(0, target.width - clockWidth - clockGap)
        // By index: an unoptimised `dropFirst()` or `where` over the forms allocates.
        let forms = PressureText.bannerForms(units)
        var amount: String?
        var index = 0
        while amount == nil && index < forms.count {
            let text = PressureText.change(change, units, form: forms[index])
            if font.width(of: "STORM ") + font.width(of: text) <= room { amount = text }
            index += 1
        }
        // Without a clock, the shortest form, clipped at the edge, rather than none.
        if amount == nil && clock == nil { amount = PressureText.change(change, units, form: forms[forms.count - 1]) }
        let label = amount == nil ? "STORM" : "STORM "
        let width = font.width(of: label) + (amount.map { font.width(of: $0) } ?? 0)
        var x = max(0, (room - width) / 2)
        target.fillRect(x: 0, y: 0, width: x, height: height, on: lit)
        x = cells(label, x: x, lit: lit, into: &target)
        if let amount { x = cells(amount, x: x, lit: lit, into: &target) }
        if let clock {
            let clockX = max(x, target.width - clockWidth)
            target.fillRect(x: x, y: 0, width: clockX - x, height: height, on: lit)
            x = cells(clock, x: clockX, lit: lit, into: &target)
        }
        target.fillRect(x: x, y: 0, width: target.width - x, height: height, on: lit)
    }

    /// Each glyph's whole cell, every pixel of it written once: on a lit bar lit where the
    /// glyph is dark, on a dark bar lit where it has ink. Pixel by pixel from the glyph's two page bytes per column: a table of inverted
    /// cells would be built on first use, an allocation on the loop the first time a storm
    /// comes. Returns the pen after the text, clipped to the target.
    private static func cells<Target: DrawTarget>(_ text: String, x: Int, lit: Bool, into target: inout Target) -> Int {
        var pen = x
        for scalar in text.unicodeScalars {
            let glyph = Font.small.glyph(scalar)
            guard pen + glyph.width <= target.width else { break }
            for column in 0..<glyph.width {
                let ink = UInt16(glyph.byte(page: 0, column: column)) | UInt16(glyph.byte(page: 1, column: column)) << 8
                for row in 0..<height { target.setPixel(x: pen + column, y: row, on: (ink & (1 << UInt16(row)) == 0) == lit) }
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

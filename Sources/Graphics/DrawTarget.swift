/// Anything 1-bit that can be drawn on: the `Framebuffer` of an OLED, a test's mock display, a
/// canvas that records a picture.
///
/// The contract follows embedded-graphics' `DrawTarget` (`core/src/draw_target/mod.rs`): one
/// required method, `setPixel`, and everything else built on it. Two more members are
/// *customization points* with default implementations here: `fillRect` and `draw(_:x:y:mode:)`.
/// They are protocol requirements (not only extension methods) so that generic code —
/// `func render<T: DrawTarget>(into target: inout T)` — still reaches a conforming type's fast
/// version: `Framebuffer` fills whole bytes and blits bitmaps page by page instead of pixel by
/// pixel. A fast version must draw exactly the pixels of the default one; the property tests
/// hold `Framebuffer` to that.
///
/// Every drawing call clips: coordinates and sizes may be any `Int`, negative or far outside,
/// and nothing traps. The defaults call `setPixel` only for pixels inside
/// `0 ..< width × 0 ..< height`, and never twice for the same pixel in one call (a mock
/// display can therefore check both, as embedded-graphics' `MockDisplay` does).
public protocol DrawTarget {
    /// Width in pixels.
    var width: Int { get }
    /// Height in pixels.
    var height: Int { get }

    /// Turns the pixel at `x`, `y` on or off. The primitives only call it inside the target; a
    /// conforming type must still ignore pixels outside (callers may call it directly).
    mutating func setPixel(x: Int, y: Int, on: Bool)

    /// Sets every pixel of the rectangle `x ..< x + width`, `y ..< y + height` (clipped). Nothing
    /// when `width` or `height` is ≤ 0.
    mutating func fillRect(x: Int, y: Int, width: Int, height: Int, on: Bool)

    /// Draws `bitmap` with its top-left corner at `x`, `y` (clipped), combining its pixels with
    /// the target's as `mode` says.
    mutating func draw(_ bitmap: Bitmap, x: Int, y: Int, mode: BitmapMode)
}

/// How a bitmap's pixels combine with the pixels under it.
public enum BitmapMode: Sendable, Hashable, CaseIterable {
    /// Lit pixels turn on; unlit ones leave the target alone (text and icons over anything).
    case overlay
    /// Every pixel of the bitmap is written: lit on, unlit off (text on a box that may hold
    /// older pixels, without a separate clear).
    case copy
    /// Lit pixels turn off; unlit ones leave the target alone (dark text on a lit bar).
    case erase
}

extension DrawTarget {
    /// Pixel by pixel, row by row: the reference that fast paths must match.
    public mutating func fillRect(x: Int, y: Int, width: Int, height: Int, on: Bool) {
        guard let columns = Clip.span(x, width, within: self.width),
              let rows = Clip.span(y, height, within: self.height) else { return }
        for row in rows {
            for column in columns { setPixel(x: column, y: row, on: on) }
        }
    }

    /// Pixel by pixel through `bitmap[x, y]`: the reference that fast paths must match.
    public mutating func draw(_ bitmap: Bitmap, x: Int, y: Int, mode: BitmapMode) {
        guard let columns = Clip.span(x, bitmap.width, within: width),
              let rows = Clip.span(y, bitmap.height, within: height) else { return }
        // x and y are within a bitmap's size of the target here, so these cannot overflow.
        for row in rows {
            for column in columns {
                let lit = bitmap[column - x, row - y]
                switch mode {
                case .overlay: if lit { setPixel(x: column, y: row, on: true) }
                case .copy: setPixel(x: column, y: row, on: lit)
                case .erase: if lit { setPixel(x: column, y: row, on: false) }
                }
            }
        }
    }

    /// Draws `bitmap` at `x`, `y`, lighting its lit pixels and leaving the rest alone.
    public mutating func draw(_ bitmap: Bitmap, x: Int, y: Int) {
        draw(bitmap, x: x, y: y, mode: .overlay)
    }

    /// Whether `x`, `y` lies inside the target.
    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && x < width && y >= 0 && y < height
    }

    /// Sets every pixel of the target.
    public mutating func fill(on: Bool) {
        fillRect(x: 0, y: 0, width: width, height: height, on: on)
    }
}

/// Lines and rectangles, built on the three members of `DrawTarget`, so that every target gets
/// them and a target's fast `fillRect` speeds up the straight ones.
extension DrawTarget {
    /// A horizontal run of `length` pixels from `x`, `y` to the right (nothing when ≤ 0).
    public mutating func drawHorizontalLine(x: Int, y: Int, length: Int, on: Bool = true) {
        fillRect(x: x, y: y, width: length, height: 1, on: on)
    }

    /// A vertical run of `length` pixels from `x`, `y` downwards (nothing when ≤ 0).
    public mutating func drawVerticalLine(x: Int, y: Int, length: Int, on: Bool = true) {
        fillRect(x: x, y: y, width: 1, height: length, on: on)
    }

    /// The one-pixel outline of the rectangle `x ..< x + width`, `y ..< y + height`: the same
    /// pixels as the border of `fillRect` with the same arguments, each drawn once (a 1-pixel
    /// wide or high rectangle is a line, not a doubled one).
    public mutating func strokeRect(x: Int, y: Int, width: Int, height: Int, on: Bool = true) {
        guard width > 0, height > 0 else { return }
        let right = Clip.add(x, width - 1)
        let bottom = Clip.add(y, height - 1)
        fillRect(x: x, y: y, width: width, height: 1, on: on)
        guard height > 1 else { return }
        fillRect(x: x, y: bottom, width: width, height: 1, on: on)
        let inner = height - 2
        fillRect(x: x, y: Clip.add(y, 1), width: 1, height: inner, on: on)
        if width > 1 { fillRect(x: right, y: Clip.add(y, 1), width: 1, height: inner, on: on) }
    }

    /// A one-pixel line from `x0`, `y0` to `x1`, `y1`, both ends included (Bresenham).
    ///
    /// Each step along the longer axis lights the pixel nearest to the ideal line, rounding a
    /// tie away from the start; the start is always the end with the smaller coordinate along
    /// that axis, so a line and its reverse light the same pixels. The position of step `i` is
    /// computed in closed form, `minor = (2·i·dMinor + dMajor) / (2·dMajor)`, which lets the
    /// loop start and stop at the target's edges: a line crossing a 128-pixel display costs at
    /// most 128 steps however long it is. End points are first clamped to ±2²⁴, which only
    /// changes lines with an end point more than 16 million pixels away.
    public mutating func drawLine(x0: Int, y0: Int, x1: Int, y1: Int, on: Bool = true) {
        let ax = Clip.clamp(x0), ay = Clip.clamp(y0), bx = Clip.clamp(x1), by = Clip.clamp(y1)
        let dx = abs(bx - ax), dy = abs(by - ay)
        if dx >= dy {
            let (sx, sy, ey) = ax <= bx ? (ax, ay, by) : (bx, by, ay)
            let step = ey >= sy ? 1 : -1
            let first = max(0, -sx), last = min(dx, width - 1 - sx)
            guard first <= last else { return }
            for i in first ... last {
                let y = dx == 0 ? sy : sy + step * ((2 * i * dy + dx) / (2 * dx))
                if y >= 0 && y < height { setPixel(x: sx + i, y: y, on: on) }
            }
        } else {
            let (sx, sy, ex) = ay <= by ? (ax, ay, bx) : (bx, by, ax)
            let step = ex >= sx ? 1 : -1
            let first = max(0, -sy), last = min(dy, height - 1 - sy)
            guard first <= last else { return }
            for i in first ... last {
                let x = sx + step * ((2 * i * dx + dy) / (2 * dy))
                if x >= 0 && x < width { setPixel(x: x, y: sy + i, on: on) }
            }
        }
    }
}

/// Integer helpers that keep every drawing call total: any `Int` is a valid coordinate or size,
/// and nothing on the way from a caller's numbers to a pixel can overflow and trap.
///
/// The rules, shared by the generic primitives and the `Framebuffer` fast paths so that both
/// produce the same pixels:
/// - a span `start, length` covers `start ..< start + length`; a length ≤ 0 covers nothing;
/// - sums that could overflow saturate at `Int.min`/`Int.max` (a point that far away is off
///   every display, so saturation never changes what is drawn);
/// - line end points are clamped to ±`coordinateLimit` before the slope is computed (see
///   `drawLine`), which keeps the products of Bresenham's closed form inside 64 bits.
enum Clip {
    /// Far beyond any display (2²⁴ pixels), small enough that `4 · limit²` fits in an `Int`.
    static let coordinateLimit = 1 << 24

    /// `value` limited to `-coordinateLimit ... coordinateLimit`.
    @inline(__always)
    static func clamp(_ value: Int) -> Int {
        min(max(value, -coordinateLimit), coordinateLimit)
    }

    /// `a + b`, saturating instead of trapping.
    @inline(__always)
    static func add(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        if !overflow { return sum }
        return b > 0 ? Int.max : Int.min
    }

    /// The part of the span `start ..< start + length` inside `0 ..< limit`, or `nil` when the
    /// two do not meet. Never overflows: the end is only computed once `start` is known to be
    /// inside `0 ..< limit`.
    @inline(__always)
    static func span(_ start: Int, _ length: Int, within limit: Int) -> Range<Int>? {
        guard length > 0, limit > 0 else { return nil }
        var lower = start
        var count = length
        if lower < 0 {
            // Different signs: the sum cannot overflow.
            count += lower
            lower = 0
        }
        guard count > 0, lower < limit else { return nil }
        let upper = count >= limit - lower ? limit : lower + count
        return lower ..< upper
    }

    /// The bits of page `page` (rows `8·page ..< 8·page + 8`) that are rows of `rows`: a mask
    /// with bit `n` set when row `8·page + n` lies in `rows`.
    @inline(__always)
    static func pageMask(_ page: Int, rows: Range<Int>) -> UInt8 {
        let top = page << 3
        let first = max(rows.lowerBound - top, 0)
        let last = min(rows.upperBound - top, 8)  // exclusive
        guard first < last else { return 0 }
        let width = last - first
        let run: UInt8 = width == 8 ? 0xFF : UInt8(truncatingIfNeeded: (1 << width) - 1)
        return run &<< UInt8(first)
    }
}

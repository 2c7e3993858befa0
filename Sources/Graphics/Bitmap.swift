/// A 1-bit picture in the same page layout as `Framebuffer` (SSD1306 GDDRAM, data sheet §8.7):
/// rows in pages of 8, a page stored left to right one byte per column, bit 0 the top row of
/// the page. A bitmap drawn at a `y` that is a multiple of 8 is therefore a run of byte copies,
/// and at any other `y` each byte splits into two shifted halves, never a per-pixel loop.
///
/// A bitmap is a *view*: it can look at a window of a larger table (a font's glyph data, a
/// sheet of icons) without copying it, so taking a glyph or cropping its columns to clip text
/// allocates nothing. Bits below `height` in the last page are ignored wherever they come from.
public struct Bitmap: Sendable {
    public let width: Int
    public let height: Int
    /// The table this bitmap looks at; byte `base + page · stride + column`.
    @usableFromInline let storage: [UInt8]
    @usableFromInline let base: Int
    @usableFromInline let stride: Int

    /// A bitmap of `width × height` pixels from page-major `bytes` (`pages × width` bytes, the
    /// layout of `Framebuffer.bytes`).
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(width >= 0 && height >= 0, "a bitmap's size is not negative")
        precondition(bytes.count == width * ((height + 7) / 8), "a bitmap needs pages × width bytes")
        self.init(storage: bytes, base: 0, stride: width, width: width, height: height)
    }

    /// A window of a table: `width` columns starting at `base`, pages `stride` bytes apart.
    @usableFromInline
    init(storage: [UInt8], base: Int, stride: Int, width: Int, height: Int) {
        self.storage = storage
        self.base = base
        self.stride = stride
        self.width = width
        self.height = height
    }

    /// Pages of 8 rows; the last one is partly used when `height` is not a multiple of 8.
    public var pages: Int { (height + 7) >> 3 }

    /// Whether the pixel is lit; `false` outside the bitmap.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, x < width, y >= 0, y < height else { return false }
        return storage[base + (y >> 3) * stride + x] & (1 << UInt8(y & 7)) != 0
    }

    /// The byte at `column` of `page`, with the bits of rows at or below `height` cleared; 0
    /// outside the bitmap. Fast paths read bitmaps through this.
    @inline(__always)
    public func byte(page: Int, column: Int) -> UInt8 {
        guard page >= 0, page < pages, column >= 0, column < width else { return 0 }
        return storage[base + page * stride + column] & validBits(page: page)
    }

    /// The bits of `page` that are rows of the bitmap: all 8 but in a partial last page, none
    /// for a page outside the bitmap.
    @inline(__always)
    func validBits(page: Int) -> UInt8 {
        guard page >= 0 else { return 0 }
        let rows = height - (page << 3)
        return rows >= 8 ? 0xFF : rows <= 0 ? 0 : UInt8(truncatingIfNeeded: (1 << rows) - 1)
    }

    /// The columns `range` of this bitmap (clamped to it) as a bitmap of their own, sharing the
    /// storage: text clipping draws the visible part of a glyph this way.
    public func columns(_ range: Range<Int>) -> Bitmap {
        let lower = min(max(range.lowerBound, 0), width)
        let upper = min(max(range.upperBound, lower), width)
        return Bitmap(storage: storage, base: base + lower, stride: stride, width: upper - lower, height: height)
    }

    /// The picture as text, one line per row, `#` lit and `.` unlit: for tests and for looking
    /// at generated tables.
    public var asciiArt: String {
        var text = ""
        for y in 0 ..< height {
            for x in 0 ..< width { text.append(self[x, y] ? "#" : ".") }
            if y + 1 < height { text.append("\n") }
        }
        return text
    }
}

extension Bitmap: Equatable {
    /// Equal when they have the same size and the same lit pixels, wherever they are stored.
    public static func == (lhs: Bitmap, rhs: Bitmap) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height else { return false }
        for page in 0 ..< lhs.pages {
            for column in 0 ..< lhs.width where lhs.byte(page: page, column: column) != rhs.byte(page: page, column: column) {
                return false
            }
        }
        return true
    }
}

extension Bitmap {
    /// A bitmap drawn as text: one line per row, `#` (or any of `#`, `X`, `@`, `*`) lit and
    /// any other character unlit; lines shorter than the longest are padded unlit. Leading and
    /// trailing empty lines are ignored.
    /// Meant for tests and tools, not for drawing (it allocates).
    public init(asciiArt: String) {
        var lines: [[Bool]] = []
        for line in asciiArt.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(line.map { $0 == "#" || $0 == "X" || $0 == "@" || $0 == "*" })
        }
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        let width = lines.map(\.count).max() ?? 0
        let height = lines.count
        var bytes = [UInt8](repeating: 0, count: width * ((height + 7) / 8))
        for (y, line) in lines.enumerated() {
            for (x, lit) in line.enumerated() where lit { bytes[(y >> 3) * width + x] |= 1 << UInt8(y & 7) }
        }
        self.init(width: width, height: height, bytes: bytes)
    }
}

/// What the glass of a simulated display shows: a 1-bit image, `width` × `height` pixels, each
/// lit or dark (docs/reference/i2c-log.md#panel-images).
///
/// It is the common output of every display model in the simulated HAL (the SSD1306/SH1106 OLED
/// model, the HD44780 character LCD model), so that a test compares what a person would see —
/// not the bytes a driver sent — with an expected image from `corpus/displays/`
/// (`NAME_expected.pbm`), and prints an ASCII-art picture of the difference when they disagree.
///
/// Pixels are stored one per byte (0 dark, 1 lit), row-major from the top-left corner. Encoders
/// and decoders live in extensions: PBM P4 (`PanelImage+PBM.swift`) and PNG
/// (`PanelImage+PNG.swift`).
public struct PanelImage: Equatable, Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// `width * height` values, row by row from the top: 1 = lit, 0 = dark.
    public private(set) var pixels: [UInt8]

    /// An image with every pixel dark (an OLED that is off, an LCD without a character).
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "an image has no negative size")
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height)
    }

    /// An image whose pixel (x, y) is lit when `isLit(x, y)`.
    public init(width: Int, height: Int, isLit: (_ x: Int, _ y: Int) -> Bool) {
        self.init(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where isLit(x, y) { pixels[y * width + x] = 1 }
        }
    }

    /// Parses an ASCII-art picture, one text line per pixel row: `lit` characters are lit,
    /// anything else is dark. Rows shorter than the longest are padded with dark pixels.
    /// Handy for small expected images in tests.
    public init(art: String, lit: Character = "#") {
        let rows = art.split(separator: "\n", omittingEmptySubsequences: false)
            .map { Array($0) }
        let trimmed = rows.last?.isEmpty == true ? Array(rows.dropLast()) : rows
        let width = trimmed.map(\.count).max() ?? 0
        self.init(width: width, height: trimmed.count) { x, y in
            x < trimmed[y].count && trimmed[y][x] == lit
        }
    }

    /// Whether pixel (x, y) is lit; a pixel outside the image reads as dark and cannot be set.
    public subscript(x: Int, y: Int) -> Bool {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return false }
            return pixels[y * width + x] != 0
        }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            pixels[y * width + x] = newValue ? 1 : 0
        }
    }

    /// The number of lit pixels.
    public var litCount: Int { pixels.reduce(0) { $0 + Int($1) } }

    /// How many pixels differ from `other`. Images of different sizes are compared over the
    /// union of both rectangles: a pixel only one of them has counts as lit-versus-dark, so a
    /// size mismatch is never reported as a perfect match.
    public func differingPixels(from other: PanelImage) -> Int {
        if width == other.width && height == other.height {
            var count = 0
            for i in pixels.indices where pixels[i] != other.pixels[i] { count += 1 }
            return count
        }
        var count = 0
        for y in 0..<max(height, other.height) {
            for x in 0..<max(width, other.width) {
                let inSelf = x < width && y < height
                let inOther = x < other.width && y < other.height
                if !inSelf || !inOther || self[x, y] != other[x, y] { count += 1 }
            }
        }
        return count
    }

    /// The image as text, one line per pixel row, each line ending in `\n`.
    public func asciiArt(lit: Character = "#", dark: Character = ".") -> String {
        var text = ""
        text.reserveCapacity((width + 1) * height)
        for y in 0..<height {
            for x in 0..<width { text.append(self[x, y] ? lit : dark) }
            text.append("\n")
        }
        return text
    }

    /// A picture of how `actual` differs from `expected`, for a failing test's message: `#` lit in
    /// both, `.` dark in both, `+` lit only in `actual` (extra), `-` lit only in `expected`
    /// (missing). Only rows with a difference are printed (each prefixed with its row number),
    /// and at most `maxRows` of them; a size mismatch is said first.
    public static func differenceArt(expected: PanelImage, actual: PanelImage, maxRows: Int = 24) -> String {
        var text = ""
        if expected.width != actual.width || expected.height != actual.height {
            text += "size: expected \(expected.width)×\(expected.height), actual \(actual.width)×\(actual.height)\n"
        }
        let width = max(expected.width, actual.width)
        var printed = 0
        for y in 0..<max(expected.height, actual.height) {
            var row = ""
            var differs = false
            for x in 0..<width {
                let e = expected[x, y]
                let a = actual[x, y]
                if e != a { differs = true }
                row.append(e && a ? "#" : (a ? "+" : (e ? "-" : ".")))
            }
            guard differs else { continue }
            guard printed < maxRows else {
                text += "…\n"
                break
            }
            printed += 1
            let label = String(y)
            text += String(repeating: " ", count: max(0, 3 - label.count)) + label + " " + row + "\n"
        }
        return text
    }
}

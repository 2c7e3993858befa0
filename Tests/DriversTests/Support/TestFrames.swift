import Drivers
import Graphics
import HALSim

/// A framebuffer with every byte set by `byte(page, column)`.
func frame(_ profile: OLEDProfile, _ byte: (Int, Int) -> UInt8) -> Framebuffer {
    var frame = Framebuffer(width: profile.width, height: profile.height)
    frame.withUnsafeMutableBytes { raw in
        for page in 0..<profile.pages {
            for column in 0..<profile.width { raw[page * profile.width + column] = byte(page, column) }
        }
    }
    return frame
}

/// Sets the bytes of a window to `value`.
func fill(_ frame: inout Framebuffer, columns: ClosedRange<Int>, pages: ClosedRange<Int>, _ value: UInt8) {
    let width = frame.width
    frame.withUnsafeMutableBytes { raw in
        for page in pages {
            for column in columns { raw[page * width + column] = value }
        }
    }
}

/// The bytes of a window, page by page (what a window write carries).
func windowBytes(_ frame: Framebuffer, columns: ClosedRange<Int>, pages: ClosedRange<Int>) -> [UInt8] {
    var result: [UInt8] = []
    for page in pages {
        for column in columns { result.append(frame.byte(page: page, column: column)) }
    }
    return result
}

/// A seeded random frame.
func randomFrame(_ profile: OLEDProfile, _ rng: inout SplitMix64) -> Framebuffer {
    frame(profile) { _, _ in UInt8(truncatingIfNeeded: rng.next()) }
}

/// Seven-segment digits, one pixel thick, `width` × `height` per digit (height odd), one
/// column between digits and a 3-column colon: a stand-in for a clock font that changes the
/// few columns a real one does.
struct SegmentFont {
    var width: Int
    var height: Int

    /// Segments a…g per digit, bit 0 = a.
    static let segments: [Character: UInt8] = [
        "0": 0b0111111, "1": 0b0000110, "2": 0b1011011, "3": 0b1001111, "4": 0b1100110,
        "5": 0b1101101, "6": 0b1111101, "7": 0b0000111, "8": 0b1111111, "9": 0b1101111,
    ]

    func advance(_ c: Character) -> Int { c == ":" ? 3 : width + 1 }

    func textWidth(_ text: String) -> Int { text.reduce(0) { $0 + advance($1) } }

    func draw(_ text: String, x: Int, y: Int, into frame: inout Framebuffer) {
        var x = x
        let mid = height / 2
        for c in text {
            if c == ":" {
                frame[x + 1, y + mid / 2] = true
                frame[x + 1, y + mid + mid / 2] = true
            } else if let s = Self.segments[c] {
                func h(_ row: Int) { for i in 0..<width { frame[x + i, y + row] = true } }
                func v(_ column: Int, _ rows: ClosedRange<Int>) { for r in rows { frame[x + column, y + r] = true } }
                if s & 1 != 0 { h(0) }
                if s & 2 != 0 { v(width - 1, 0...mid) }
                if s & 4 != 0 { v(width - 1, mid...height - 1) }
                if s & 8 != 0 { h(height - 1) }
                if s & 16 != 0 { v(0, mid...height - 1) }
                if s & 32 != 0 { v(0, 0...mid) }
                if s & 64 != 0 { h(mid) }
            }
            x += advance(c)
        }
    }
}

/// The "now" screen of display.md §2 on a 128×64 panel, drawn with stand-ins: two lines of
/// place name (fixed noise), a big temperature, a 16×16 sun, and the clock bottom right.
struct WeatherScreen {
    var profile: OLEDProfile
    static let clockFont = SegmentFont(width: 7, height: 15)
    static let bigFont = SegmentFont(width: 14, height: 31)

    func render(clock: String, temperature: String) -> Framebuffer {
        var rng = SplitMix64(seed: 0x5EED)
        var image = frame(profile) { page, column in
            page < 2 && column < 90 ? UInt8(truncatingIfNeeded: rng.next()) & 0x7E : 0
        }
        Self.bigFont.draw(temperature, x: 2, y: 17, into: &image)
        // A ring for the degree sign and a "C".
        for (dx, dy) in [(0, 1), (1, 0), (2, 0), (3, 1), (3, 2), (2, 3), (1, 3), (0, 2)] { image[34 + dx, 17 + dy] = true }
        for r in 0..<20 { image[40, 20 + r] = true }
        for dx in 0..<8 { image[40 + dx, 19] = true; image[40 + dx, 40] = true }
        // The sun: a 16×16 disc.
        for dy in 0..<16 {
            for dx in 0..<16 where (dx - 8) * (dx - 8) + (dy - 8) * (dy - 8) < 40 { image[104 + dx, 18 + dy] = true }
        }
        let x = profile.width - Self.clockFont.textWidth(clock)
        Self.clockFont.draw(clock, x: x, y: profile.height - 15, into: &image)
        return image
    }
}

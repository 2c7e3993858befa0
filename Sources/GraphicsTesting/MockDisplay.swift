import Graphics
import Testing

/// A `DrawTarget` for tests, after embedded-graphics' `MockDisplay` (`src/mock_display/`): it
/// remembers every pixel written, fails the running test when a drawing writes the same pixel
/// twice (overdraw: wasted work, and wrong for `.copy` text over itself) or writes outside the
/// display (the primitives promise to clip before `setPixel`), and compares what it shows with
/// ASCII art, printing both side by side when they differ.
///
/// It implements only `setPixel`, so everything drawn on it goes through the generic default
/// paths of `DrawTarget`, the reference that `Framebuffer`'s fast paths are held to.
public struct MockDisplay: DrawTarget {
    public let width: Int
    public let height: Int
    /// Fail on a pixel written twice between two `beginDrawing()` calls.
    public var checksOverdraw: Bool
    /// Fail on a write outside the display.
    public var checksBounds: Bool
    public private(set) var lit: [Bool]
    public private(set) var written: [Bool]
    public private(set) var everWritten: [Bool]
    /// Every overdraw and out-of-bounds write, as a message.
    public private(set) var problems: [String] = []

    public init(width: Int, height: Int, checksOverdraw: Bool = true, checksBounds: Bool = true) {
        self.width = width
        self.height = height
        self.checksOverdraw = checksOverdraw
        self.checksBounds = checksBounds
        lit = Array(repeating: false, count: width * height)
        written = lit
        everWritten = lit
    }

    public mutating func setPixel(x: Int, y: Int, on: Bool) {
        guard x >= 0, x < width, y >= 0, y < height else {
            if checksBounds { problem("pixel (\(x), \(y)) written outside the \(width)×\(height) display") }
            return
        }
        let index = y * width + x
        if written[index] && checksOverdraw { problem("pixel (\(x), \(y)) written twice in one drawing") }
        written[index] = true
        everWritten[index] = true
        lit[index] = on
    }

    /// Starts a new drawing: pixels written so far may be written once more.
    public mutating func beginDrawing() {
        for index in written.indices { written[index] = false }
    }

    private mutating func problem(_ message: String) {
        problems.append(message)
        if problems.count <= 3 { Issue.record("MockDisplay: \(message)") }
    }

    public func isLit(x: Int, y: Int) -> Bool { lit[y * width + x] }

    /// What the display shows: `#` lit, `.` unlit, one line per row.
    public var art: String {
        (0 ..< height).map { y in String((0 ..< width).map { lit[y * width + $0] ? "#" : "." }) }
            .joined(separator: "\n")
    }

    /// What was written: `#` on, `o` off, `.` never written (to tell `.copy` from `.overlay`).
    public var writes: String {
        (0 ..< height).map { y in
            String((0 ..< width).map { x -> Character in
                let index = y * width + x
                return !everWritten[index] ? "." : lit[index] ? "#" : "o"
            })
        }.joined(separator: "\n")
    }
}


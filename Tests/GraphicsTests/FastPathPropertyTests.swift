import Graphics
import GraphicsTesting
import HAL
import Testing

/// The contract of `DrawTarget`'s customization points: `Framebuffer`'s byte-wise `fillRect` and
/// bitmap blit must light exactly the pixels of the generic `setPixel` versions. Random shapes,
/// text, bitmaps and icons at random places — inside, across every edge, far outside, at
/// extreme coordinates — are drawn both ways from a seeded generator and the bytes compared
/// after every step; the same steps on a `MockDisplay` must never overdraw or leave the display.
@Suite struct FastPathPropertyTests {
    /// A framebuffer reached only through `setPixel`, so every call takes the generic path.
    struct GenericTarget: DrawTarget {
        var frame: Framebuffer
        var width: Int { frame.width }
        var height: Int { frame.height }
        mutating func setPixel(x: Int, y: Int, on: Bool) { frame[x, y] = on }
    }

    static let texts = [
        "", "A", "12:30", "\u{2212}12.5°C", "Zürich Hbf", "Łódź … naïve", "a\u{1F600}b\u{0301}", "Thunderstorm at 5 pm",
        "Ærøskøbing, Danmark", "100%", "   ",
    ]

    /// One random drawing step, applied to any target.
    enum Step {
        case fill(Int, Int, Int, Int, Bool)
        case stroke(Int, Int, Int, Int, Bool)
        case line(Int, Int, Int, Int, Bool)
        case bitmap(Bitmap, Int, Int, BitmapMode)
        case text(String, Font, Int, Int, Int?, TextAlignment, Overflow, BitmapMode)
        case icon(ConditionGroup, Bool, IconSize, Int, Int, BitmapMode)

        func apply<T: DrawTarget>(to target: inout T) {
            switch self {
            case let .fill(x, y, w, h, on): target.fillRect(x: x, y: y, width: w, height: h, on: on)
            case let .stroke(x, y, w, h, on): target.strokeRect(x: x, y: y, width: w, height: h, on: on)
            case let .line(x0, y0, x1, y1, on): target.drawLine(x0: x0, y0: y0, x1: x1, y1: y1, on: on)
            case let .bitmap(bitmap, x, y, mode): target.draw(bitmap, x: x, y: y, mode: mode)
            case let .text(text, font, x, y, room, alignment, overflow, mode):
                target.drawText(text, font: font, x: x, y: y, maxWidth: room, alignment: alignment,
                                overflow: overflow, mode: mode)
            case let .icon(icon, night, size, x, y, mode): target.drawIcon(icon, night: night, size: size, x: x, y: y, mode: mode)
            }
        }
    }

    static func coordinate(_ random: inout SplitMix64, limit: Int) -> Int {
        switch random.next(in: 0 ... 19) {
        case 0: random.pick([Int.min, Int.max, -(1 << 40), 1 << 40, -(1 << 24) - 1])
        case 1: random.next(in: -1000 ... 1000)
        case 2 ... 7: random.next(in: -40 ... limit + 40)
        default: random.next(in: -8 ... limit)
        }
    }

    static func step(_ random: inout SplitMix64, width: Int, height: Int) -> Step {
        func x() -> Int { coordinate(&random, limit: width) }
        func y() -> Int { coordinate(&random, limit: height) }
        func size() -> Int { random.next(in: 0 ... 9) == 0 ? random.pick([Int.max, Int.min, -3, 0]) : random.next(in: -2 ... 70) }
        let modes = BitmapMode.allCases
        switch random.next(in: 0 ... 5) {
        case 0: return .fill(x(), y(), size(), size(), random.bool())
        case 1: return .stroke(x(), y(), size(), size(), random.bool())
        case 2: return .line(x(), y(), x(), y(), random.bool())
        case 3:
            let w = random.next(in: 0 ... 20), h = random.next(in: 0 ... 20)
            // Random bytes, garbage below the height included: both paths must ignore it.
            let bytes = (0 ..< w * ((h + 7) / 8)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let bitmap = Bitmap(width: w, height: h, bytes: bytes)
            let from = random.next(in: 0 ... 5)
            let view = random.bool() ? bitmap : bitmap.columns(from ..< from + random.next(in: 0 ... 20))
            return .bitmap(view, x(), y(), random.pick(modes))
        case 4:
            let room: Int? = random.bool() ? nil : random.next(in: -5 ... 140)
            return .text(random.pick(texts), random.pick([Font.small, .medium, .large]), x(), y(), room,
                         random.pick(TextAlignment.allCases), random.pick(Overflow.allCases), random.pick(modes))
        default:
            return .icon(random.pick(ConditionGroup.allCases), random.bool(), random.pick(IconSize.allCases), x(), y(),
                         random.pick(modes))
        }
    }

    @Test(arguments: [(128, 64, 1 as UInt64), (128, 32, 2), (13, 11, 3), (1, 1, 4), (40, 17, 5)])
    func fastPathsMatchTheGenericPath(width: Int, height: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var fast = Framebuffer(width: width, height: height)
        var generic = GenericTarget(frame: Framebuffer(width: width, height: height))
        var mock = MockDisplay(width: width, height: height)
        var changes = 0
        for index in 0 ..< 600 {
            let step = FastPathPropertyTests.step(&random, width: width, height: height)
            let before = fast.bytes
            step.apply(to: &fast)
            if fast.bytes != before { changes += 1 }
            step.apply(to: &generic)
            mock.beginDrawing()
            step.apply(to: &mock)
            guard fast.bytes == generic.frame.bytes, mock.problems.isEmpty else {
                Issue.record("step \(index) (\(step)) differs: fast paths vs generic path on \(width)×\(height)")
                return
            }
        }
        // The steps must mostly draw something visible, or the comparison proves little.
        #expect(changes > (width * height > 100 ? 150 : 1), "only \(changes) of 600 steps changed a pixel")
        for y in 0 ..< height {
            for x in 0 ..< width where fast[x, y] != mock.isLit(x: x, y: y) {
                Issue.record("pixel (\(x), \(y)) differs between Framebuffer and MockDisplay")
                return
            }
        }
    }
}

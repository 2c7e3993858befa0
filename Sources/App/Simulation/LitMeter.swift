import HAL
import HALSim

/// How long each pixel of an OLED was lit: the burn-in measure (docs/design/parts.md#burn-in: "a few
/// burnt out pixels correlating with how often these pixels were on"). Each frame's image
/// counts from the moment it reached the glass until the next one.
public struct LitMeter {
    public let width: Int
    public let height: Int
    private var litNanoseconds: [Int64]
    private var current: PanelImage?
    private var since: Instant
    public let start: Instant

    public init(width: Int, height: Int, start: Instant) {
        self.width = width
        self.height = height
        litNanoseconds = [Int64](repeating: 0, count: width * height)
        since = start
        self.start = start
    }

    public mutating func record(_ image: PanelImage, at instant: Instant) {
        close(at: instant)
        current = image
    }

    /// Counts the image on the glass up to `instant`.
    public mutating func close(at instant: Instant) {
        defer { since = instant }
        guard let current, instant > since else { return }
        let dt = (instant - since).nanoseconds
        for y in 0..<min(height, current.height) {
            for x in 0..<min(width, current.width) where current[x, y] {
                litNanoseconds[y * width + x] += dt
            }
        }
    }

    /// The highest fraction of `start…instant` that any single pixel was lit, and where.
    public func highest(until instant: Instant) -> (fraction: Double, x: Int, y: Int) {
        let total = Double((instant - start).nanoseconds)
        guard total > 0 else { return (0, 0, 0) }
        var best = (value: Int64(0), index: 0)
        for (index, value) in litNanoseconds.enumerated() where value > best.value { best = (value, index) }
        return (Double(best.value) / total, best.index % width, best.index / width)
    }

    /// The mean lit fraction over all pixels.
    public func mean(until instant: Instant) -> Double {
        let total = Double((instant - start).nanoseconds) * Double(width * height)
        // Summed as Double: 8,192 pixels half lit for a year is about 10^20 ns, past Int64
        // (the year's soak trapped here, after the device had run all 365 days).
        return total > 0 ? litNanoseconds.reduce(0.0) { $0 + Double($1) } / total : 0
    }
}

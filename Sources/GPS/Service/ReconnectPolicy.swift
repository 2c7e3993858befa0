import HAL

/// The delay before the next attempt to open a GPS that is not there: 0.5 s, doubling to a
/// ceiling of 30 s (docs/design/parts.md#the-gps-receiver). A quick first retry catches a USB receiver that is
/// still enumerating after a replug; the ceiling bounds how late a receiver plugged in after an
/// hour is noticed, at one failed `open` per 30 s, which costs nothing.
public struct ReconnectBackoff: Sendable, Equatable {
    public static let initial = Duration.milliseconds(500)
    public static let ceiling = Duration.seconds(30)

    /// The delay the next failure waits.
    public private(set) var next = ReconnectBackoff.initial

    public init() {}

    /// The delay to wait now, doubling the one after it up to the ceiling.
    public mutating func take() -> Duration {
        let delay = next
        next = min(next * 2, ReconnectBackoff.ceiling)
        return delay
    }

    /// After a successful open: the next failure starts again at 0.5 s.
    public mutating func reset() { next = ReconnectBackoff.initial }
}

/// The baud rates tried, in turn, when bytes arrive but no sentence is valid: 9600 (u-blox,
/// MediaTek, most modules), 4800 (the NMEA 0183 standard rate, SiRF pucks), 38400 and 115200
/// (receivers set up for 5–10 Hz). The hunt starts after the configured rate and cycles, so a
/// receiver reconfigured to any of them is found within four steps.
public struct BaudHunt: Sendable, Equatable {
    public static let order: [BaudRate] = [.b9600, .b4800, .b38400, .b115200]

    /// The rate the port is (or will be) opened at.
    public private(set) var current: BaudRate
    /// Where `current` stands in the order; for a configured rate outside the order (19200,
    /// 57600), just before 9600, so the hunt tries the whole order, then the configured rate.
    private var position: Int
    private let configured: BaudRate

    public init(configured: BaudRate) {
        self.configured = configured
        current = configured
        position = BaudHunt.order.firstIndex(of: configured) ?? -1
    }

    /// Moves to the next rate and returns it.
    public mutating func advance() -> BaudRate {
        let order = BaudHunt.order
        let outside = !order.contains(configured)
        if outside && position == order.count - 1 {
            position = -1
            current = configured
        } else {
            position = (position + 1) % order.count
            current = order[position]
        }
        return current
    }
}

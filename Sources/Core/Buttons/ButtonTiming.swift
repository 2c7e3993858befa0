import HAL

/// How long a button's contact must rest before a change counts, and how long a hold must last
/// to be a long press (docs/design/parts.md#buttons).
///
/// The defaults: 20 ms sits inside the 10–30 ms that
/// Linux `gpio-keys` (5 ms) and Zephyr `gpio-keys` (30 ms) span and is well past the 5–6 ms
/// in which Ganssle's switches settled; 800 ms is between LVGL's 400 ms and the 1–1.5 s of
/// Zephyr's example and Espressif's `iot_button`, long enough that a firm short press never
/// turns long.
public struct ButtonTiming: Sendable, Equatable {
    /// A new level counts only once the line has rested at it this long. Zero means the edges
    /// are taken as they come, for lines the kernel already debounces (uAPI v2's debounce
    /// attribute, where the kernel reports it applied).
    public var debounce: Duration
    /// A hold this long, measured from the moment the press counted, is a long press.
    public var longPress: Duration

    public init(debounce: Duration = .milliseconds(20), longPress: Duration = .milliseconds(800)) {
        self.debounce = debounce
        self.longPress = longPress
    }

    /// 20 ms debounce, 800 ms long press.
    public static let standard = ButtonTiming()
}

/// One recognised press of one button: what the device reacts to, instead of raw edges.
public struct ButtonGesture: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Released before the long-press threshold; recognised at the release.
        case short
        /// Still held at the threshold; recognised then, while the button is down, so the user
        /// sees the effect without letting go (as Zephyr's `input-longpress` does).
        case long
    }

    /// The line index of the button, as in `Edge.line`.
    public var button: Int
    public var kind: Kind
    /// When the gesture was recognised, on the monotonic clock: the moment the release became
    /// stable for `.short`, the moment the press became stable plus `longPress` for `.long`.
    /// Computed from the edges' own timestamps, so it does not depend on when the loop ran.
    public var time: Instant

    public init(button: Int, kind: Kind, time: Instant) {
        self.button = button
        self.kind = kind
        self.time = time
    }
}

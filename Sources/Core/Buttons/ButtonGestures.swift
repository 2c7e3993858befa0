import HAL

// Interim: the gesture types only, until the gesture recogniser lands from its branch.
public struct ButtonTiming: Sendable, Equatable {
    public var debounce: Duration
    public var longPress: Duration
    public init(debounce: Duration = .milliseconds(20), longPress: Duration = .milliseconds(800)) {
        self.debounce = debounce
        self.longPress = longPress
    }
    public static let standard = ButtonTiming()
}

public struct ButtonGesture: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case short, long }
    public var button: Int
    public var kind: Kind
    public var time: Instant
    public init(button: Int, kind: Kind, time: Instant) {
        self.button = button
        self.kind = kind
        self.time = time
    }
}

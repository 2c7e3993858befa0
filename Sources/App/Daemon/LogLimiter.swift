import HAL

/// Keeps a failure that repeats from filling the journal (docs/design/architecture.md#failures: one line per state
/// change). The first occurrence of a line is let through and opens a window (10 minutes by
/// default); the same line again inside the window is counted, not printed. "The same" ignores
/// the numbers in it: `next try in 61 s` and `next try in 65 s` are one failure. When the window
/// closes with repeats, one summary line says how many (`… repeated 57 times in 10 min`) and a
/// new window opens, so a failure that never stops costs one line per window; a window that
/// closes without repeats is forgotten.
///
/// Pure: it reads no clock (the loop passes the time and wakes it at `nextDeadline`) and
/// writes nothing (it returns what to print through `emit`).
public struct LogLimiter {
    public struct Line: Equatable, Sendable {
        public var level: LogLevel
        public var text: String

        public init(_ level: LogLevel, _ text: String) {
            self.level = level
            self.text = text
        }
    }

    struct Window {
        var line: Line
        var opened: Instant
        var closes: Instant
        var repeats: Int
    }

    public let window: Duration
    /// At most this many distinct lines are tracked; past it the oldest window closes early.
    public let capacity: Int
    private var windows: [String: Window] = [:]

    public init(window: Duration = .seconds(600), capacity: Int = 64) {
        self.window = window
        self.capacity = capacity
    }

    /// The next instant a window closes (and may owe a summary line).
    public var nextDeadline: Instant? { windows.values.lazy.map(\.closes).min() }

    /// Offers `line` at `now`; `emit` receives what should be printed (possibly nothing).
    public mutating func offer(_ line: Line, at now: Instant, emit: (Line) -> Void) {
        close(dueBy: now, emit: emit)
        let key = Self.key(line.text)
        if var open = windows[key] {
            open.repeats += 1
            windows[key] = open
            return
        }
        if windows.count >= capacity, let oldest = windows.min(by: { $0.value.closes < $1.value.closes }) {
            if oldest.value.repeats > 0 { summarise(oldest.value, over: now - oldest.value.opened, emit: emit) }
            windows[oldest.key] = nil
        }
        windows[key] = Window(line: line, opened: now, closes: now + window, repeats: 0)
        emit(line)
    }

    /// Closes every window that ended by `now`, printing the summaries they owe.
    public mutating func close(dueBy now: Instant, emit: (Line) -> Void) {
        guard let next = nextDeadline, next <= now else { return }
        for (key, open) in windows where open.closes <= now {
            if open.repeats > 0 {
                summarise(open, over: window, emit: emit)
                windows[key] = Window(line: open.line, opened: open.closes, closes: open.closes + window, repeats: 0)
            } else {
                windows[key] = nil
            }
        }
    }

    /// Summaries for every open window with repeats (on the way out, at `now`).
    public mutating func flush(at now: Instant, emit: (Line) -> Void) {
        for open in windows.values where open.repeats > 0 { summarise(open, over: now - open.opened, emit: emit) }
        windows.removeAll()
    }

    private func summarise(_ open: Window, over span: Duration, emit: (Line) -> Void) {
        let times = open.repeats == 1 ? "once more" : "\(open.repeats) more times"
        emit(Line(open.line.level, "\(open.line.text) (repeated \(times) in \(Self.describe(span)))"))
    }

    /// What makes two lines "the same": their text with every run of digits as one `#`.
    static func key(_ text: String) -> String {
        var key = ""
        var inNumber = false
        for character in text {
            if character.isASCII, character.isNumber {
                if !inNumber { key.append("#") }
                inNumber = true
            } else {
                key.append(character)
                inNumber = false
            }
        }
        return key
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = max(1, duration.components.seconds)
        return seconds % 60 == 0 ? "\(seconds / 60) min" : seconds < 120 ? "\(seconds) s" : "\(seconds / 60) min"
    }
}

/// How much a log line matters, as syslog and journald rank it (RFC 5424 severities).
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case error = 3, warning = 4, notice = 5, info = 6, debug = 7

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue > b.rawValue }

    public var name: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .notice: "notice"
        case .info: "info"
        case .debug: "debug"
        }
    }
}

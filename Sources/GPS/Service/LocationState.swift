import HAL

/// What the location service can say about the GPS right now (docs/design/architecture.md#the-model), most serious
/// first. Only `.fix` offers a position as current; every other state keeps the last good fix
/// available through `LocationService.lastFix`, reported as old, never as current
/// (docs/design/parts.md#the-gps-receiver: "sticky valid" is the classic GPS-library bug).
public enum LocationState: Sendable, Equatable {
    /// No port is open: nothing at the path, permission denied, busy, or unplugged. The service
    /// retries with back-off (`LocationService.nextDeadline`).
    case noDevice
    /// The port was just opened (or reopened at another baud rate) and nothing is wrong yet:
    /// no bytes for less than the no-data timeout, or bytes without a sentence for less than the
    /// no-valid-sentences timeout.
    case waiting
    /// The port is open but no byte came for 3 s: wiring, power, or a receiver that is off.
    case noData
    /// Bytes arrive, but not one sentence passed framing and checksum for 5 s: most likely the
    /// wrong baud rate, so the service is hunting through the usual rates.
    case noValidSentences
    /// Sentences arrive, no epoch so far had a valid position.
    case noFix
    /// A valid fix, received `age` ago on the monotonic clock (at most `staleAfter`).
    case fix(age: Duration)
    /// Sentences arrive, and the last valid fix is older than `staleAfter`: the receiver lost
    /// the fix (a tunnel, indoors). The position is kept for display as "last known", only.
    case stale(age: Duration)

    /// The state's name for logs and the monitor: `noDevice`, `fix`, ….
    public var name: String {
        switch self {
        case .noDevice: "noDevice"
        case .waiting: "waiting"
        case .noData: "noData"
        case .noValidSentences: "noValidSentences"
        case .noFix: "noFix"
        case .fix: "fix"
        case .stale: "stale"
        }
    }
}

/// A valid fix and the monotonic instant its epoch closed in this process, so its age is
/// measured on the clock that never jumps (not on the receiver's UTC, which may be wrong).
public struct ReceivedFix: Sendable, Equatable {
    public var fix: Fix
    public var receivedAt: Instant

    public init(fix: Fix, receivedAt: Instant) {
        self.fix = fix
        self.receivedAt = receivedAt
    }
}

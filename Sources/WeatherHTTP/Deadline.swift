#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Weather

/// The one deadline of a request (`HTTPRequest.timeout`), on CLOCK_MONOTONIC so that a change of
/// the wall clock (NTP's first sync on a board without an RTC) neither shortens nor stretches
/// it. Every wait of the exchange — lookup, connect, handshake, write, read — uses what is left.
struct Deadline {
    /// CLOCK_MONOTONIC nanoseconds.
    let end: Int64
    /// The whole budget, for the failure's text.
    let budget: Duration

    init(after budget: Duration) {
        self.budget = budget
        let (seconds, attoseconds) = budget.components
        let clamped = max(0, min(seconds, 1 << 30))  // ~34 years: no overflow below
        end = Self.now() + clamped * 1_000_000_000 + (seconds >= 0 ? attoseconds / 1_000_000_000 : 0)
    }

    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    var hasPassed: Bool { Self.now() >= end }

    /// What is left for poll(2), rounded up to whole milliseconds so that a wait never ends just
    /// before the deadline and spins; 0 once it has passed.
    var millisecondsLeft: Int32 {
        let left = end - Self.now()
        guard left > 0 else { return 0 }
        return Int32(min((left + 999_999) / 1_000_000, Int64(Int32.max)))
    }

    /// `.timeout` with what was being waited for: "timed out after 300 ms waiting for the response".
    func expired(_ waitingFor: String) -> TransportError {
        TransportError(.timeout, "timed out after \(HTTPText.duration(budget)) \(waitingFor)")
    }
}

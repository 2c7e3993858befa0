import HAL

/// Decides when GPS time may set a clock: only after two consecutive trusted epochs agree.
///
/// A receiver's first trusted time can still be wrong: old firmware reports a wrong leap-second
/// count right after a cold start (satpulse #175), and a single garbled sentence with a valid
/// checksum can carry any time (docs/design/parts.md#the-gps-receiver). Two epochs are consistent when both
/// are trusted (`Fix.timeIsTrusted`: a valid RMC or a ZDA in an epoch with a fix) and the UTC
/// time between them equals the monotonic time between their arrivals within `tolerance` (the
/// serial line's jitter). Only then does `offer` return a time to set.
public struct ClockGate: Sendable {
    public var tolerance: Duration
    private var previous: (time: UTCTime, arrival: Instant)?

    public init(tolerance: Duration = .milliseconds(250)) { self.tolerance = tolerance }

    /// Offers one closed epoch and the monotonic instant it closed at. Returns the epoch's UTC
    /// time, and the instant it belongs to, when this epoch and the previous one agree.
    public mutating func offer(_ fix: Fix, at arrival: Instant) -> (time: UTCTime, at: Instant)? {
        guard fix.timeIsTrusted, fix.isValid, let time = fix.time else {
            previous = nil
            return nil
        }
        defer { previous = (time, arrival) }
        guard let previous else { return nil }
        let utcStep = time.millisecondsSinceEpoch - previous.time.millisecondsSinceEpoch
        let monotonicStep = (arrival - previous.arrival).nanoseconds / 1_000_000
        guard utcStep > 0, (utcStep - monotonicStep).magnitude <= UInt64(tolerance.nanoseconds / 1_000_000) else {
            return nil
        }
        return (time, arrival)
    }

    /// Forgets the previous epoch (the receiver was replaced or reopened).
    public mutating func reset() { previous = nil }
}

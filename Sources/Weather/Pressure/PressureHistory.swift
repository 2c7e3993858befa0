import HAL

/// One pressure reading of the barograph, reduced to sea level.
public struct PressureSample: Equatable, Sendable {
    /// Why a sample cannot be trusted for the tendency.
    public enum Quality: UInt8, Sendable {
        case good = 0
        /// Taken while the device moved up or down more than the weather could explain.
        case moving = 1
        /// Reduced with no trusted altitude (no fix with height, no board altitude).
        case noAltitude = 2
    }

    public var time: WallTime
    public var hectopascals: Double
    public var quality: Quality

    public init(time: WallTime, hectopascals: Double, quality: Quality = .good) {
        self.time = time
        self.hectopascals = hectopascals
        self.quality = quality
    }
}

/// The barograph's memory: the last `capacity` samples in a fixed ring, oldest first. The
/// storage is allocated once; recording a sample allocates nothing.
///
/// At one sample every 10 minutes the default 288 samples hold 48 hours.
public struct PressureHistory: Sendable {
    public static let interval = Duration.seconds(600)
    public static let defaultCapacity = 288

    private var ring: [PressureSample]
    private var head = 0
    public private(set) var count = 0
    public var capacity: Int { ring.count }

    public init(capacity: Int = defaultCapacity) {
        precondition(capacity > 0)
        ring = Array(repeating: PressureSample(time: WallTime(seconds: 0), hectopascals: 0), count: capacity)
    }

    /// The `i`th sample, oldest first.
    public subscript(i: Int) -> PressureSample {
        precondition(i >= 0 && i < count)
        return ring[(head + i) % ring.count]
    }

    public var latest: PressureSample? { count == 0 ? nil : self[count - 1] }

    /// Adds `sample` as the newest, dropping the oldest when full. A sample not later than the
    /// newest is refused (false): the history is in time order, and a clock that went back
    /// must not rewrite it.
    @discardableResult
    public mutating func record(_ sample: PressureSample) -> Bool {
        if let latest, sample.time <= latest.time { return false }
        if count < ring.count {
            ring[(head + count) % ring.count] = sample
            count += 1
        } else {
            ring[head] = sample
            head = (head + 1) % ring.count
        }
        return true
    }

    public mutating func removeAll() {
        head = 0
        count = 0
    }

    /// The sample closest to `time`, if one lies within `tolerance` of it.
    public func sample(near time: WallTime, within tolerance: Duration) -> PressureSample? {
        // Binary search for the first sample at or after `time`; the closest is it or the one
        // before.
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if self[mid].time < time { low = mid + 1 } else { high = mid }
        }
        var best: PressureSample?
        var bestDistance = tolerance
        var i = max(low - 1, 0)
        while i <= low && i < count {
            let candidate = self[i]
            let difference = candidate.time - time
            let distance = difference < .zero ? .zero - difference : difference
            if distance <= bestDistance { (best, bestDistance) = (candidate, distance) }
            i += 1
        }
        return best
    }

    /// What the history says about the three hours before `now`.
    public enum Reading: Equatable, Sendable {
        /// Not enough samples (a device just installed, or a gap).
        case unknown
        /// A sample in the window was taken moving or with no trusted altitude: the tendency
        /// is shown as unsure and raises no alarm.
        case unsure(PressureTendency)
        case sure(PressureTendency)

        public var tendency: PressureTendency? {
            switch self {
            case .unknown: nil
            case .unsure(let t), .sure(let t): t
            }
        }
    }

    /// The tendency over the three hours before `now`, from the samples nearest to three hours
    /// ago, an hour and a half ago and now (each within one and a half sampling intervals).
    public func tendency(at now: WallTime) -> Reading {
        let tolerance = Self.interval * 3 / 2
        guard let p0 = sample(near: now, within: tolerance),
            let p1 = sample(near: now - .seconds(5_400), within: tolerance),
            let p3 = sample(near: now - .seconds(10_800), within: tolerance)
        else { return .unknown }
        let tendency = PressureTendency(threeHoursAgo: p3.hectopascals, halfway: p1.hectopascals, now: p0.hectopascals)
        // Any sample between the ends that was not good makes the whole window unsure: a
        // climb in the middle is as misleading as one at an end.
        var i = 0
        while i < count {
            let s = self[i]
            if s.time >= p3.time && s.time <= p0.time && s.quality != .good { return .unsure(tendency) }
            i += 1
        }
        return .sure(tendency)
    }
}

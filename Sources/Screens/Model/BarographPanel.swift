import HAL
import Weather

/// What the barograph screen draws, decided once when a sample is taken or the weather
/// arrives, never per frame: the sensor's sea-level pressure and the provider's, each as plot
/// columns of 40 minutes (four 10-minute samples), the value now, both three-hour tendencies and
/// the storm alarm.
///
/// Fixed size: the columns are inline arrays, so building, copying and comparing the panel
/// never touches the heap. Pressures are tenths of a hectopascal (`Int16`: 1013.2 hPa is 10132);
/// `BarographPanel.missing` marks a column with nothing in it, drawn as a gap, never invented.
public struct BarographPanel: Sendable, Equatable {
    /// 72 columns of 40 minutes: the 48 hours behind now that the history holds.
    public static let pastColumns = 72
    /// 24 columns after now: the provider's next 16 hours.
    public static let futureColumns = 24
    public static var columns: Int { pastColumns + futureColumns }
    public static let columnSeconds: Int64 = 2_400
    public static let missing = Int16.min

    /// A three-hour tendency as the screens show it.
    public struct Trend: Sendable, Equatable {
        public var characteristic: PressureTendency.Characteristic
        /// Now minus three hours ago, hPa.
        public var change: Double
        /// A sample in the window was taken moving or with no trusted altitude.
        public var unsure: Bool

        public init(_ tendency: PressureTendency, unsure: Bool = false) {
            characteristic = tendency.characteristic
            change = tendency.change
            self.unsure = unsure
        }

        public var rate: PressureTendency.Rate { .init(threeHourChange: change) }
    }

    /// The sensor's mean per past column, oldest first; the last column ends now.
    public var sensor = InlineArray<72, Int16>(repeating: missing)
    /// Columns with a sample taken moving or without a trusted altitude: drawn as unsure.
    public var sensorUnsure = InlineArray<72, Bool>(repeating: false)
    /// The provider's pressure at each column's middle: the past 48 hours, then 16 ahead.
    public var provider = InlineArray<96, Int16>(repeating: missing)
    /// Sea-level pressure now, hPa: the sensor's newest sample, else the provider's.
    public var current: Double?
    public var sensorTrend: Trend?
    public var providerTrend: Trend?
    /// The three-hour change that raised the storm alarm, while it is not acknowledged.
    public var alarm: Double?
    /// How many columns hold a value.
    public private(set) var sensorCount = 0
    public private(set) var providerCount = 0
    /// The lowest and highest column of both traces, tenths of hPa (the graph's scale is
    /// decided here, not searched for at every frame); nil without columns.
    public private(set) var range: ClosedRange<Int>?

    public init() {}

    public static let empty = BarographPanel()

    /// Whether there is any pressure to show (the screen is left out of the rotation without).
    public var hasPressure: Bool { current != nil || sensorCount > 0 || providerCount > 0 }

    /// The tendency to print: the sensor's when it has one (it measured the place), else the
    /// provider's.
    public var trend: Trend? { sensorTrend ?? providerTrend }

    /// Rebuilds the columns for `now` from the sensor's `history` (its tendency `reading`) and
    /// the provider's `pressures`. Loops over indices into stack-held sums: no allocation.
    public mutating func update(
        history: PressureHistory, reading: PressureHistory.Reading, pressures: [PressurePoint], now: WallTime
    ) {
        let end = now.seconds
        let start = end - Int64(Self.pastColumns) * Self.columnSeconds
        var sums = InlineArray<72, Double>(repeating: 0)
        var counts = InlineArray<72, Int>(repeating: 0)
        var unsure = InlineArray<72, Bool>(repeating: false)
        for i in 0..<history.count {
            let sample = history[i]
            let t = sample.time.seconds
            guard t > start, t <= end else { continue }
            let column = Int((t - start - 1) / Self.columnSeconds)
            sums[column] += sample.hectopascals
            counts[column] += 1
            if sample.quality != .good { unsure[column] = true }
        }
        var low = Int.max
        var high = Int.min
        sensorCount = 0
        for column in 0..<Self.pastColumns {
            sensor[column] = counts[column] == 0 ? Self.missing : Self.tenths(sums[column] / Double(counts[column]))
            sensorUnsure[column] = unsure[column]
            guard counts[column] > 0 else { continue }
            sensorCount += 1
            (low, high) = (min(low, Int(sensor[column])), max(high, Int(sensor[column])))
        }
        providerCount = 0
        for column in 0..<Self.columns {
            let middle = WallTime(seconds: start + Int64(column) * Self.columnSeconds + Self.columnSeconds / 2)
            guard let value = ProviderPressure.hectopascals(at: middle, in: pressures) else {
                provider[column] = Self.missing
                continue
            }
            provider[column] = Self.tenths(value)
            providerCount += 1
            (low, high) = (min(low, Int(provider[column])), max(high, Int(provider[column])))
        }
        range = low <= high ? low...high : nil
        // The newest sample is "now" while it is at most half an hour old (three samples missed).
        if let latest = history.latest, latest.time.seconds <= end, end - latest.time.seconds <= 1_800 {
            current = latest.hectopascals
        } else {
            current = ProviderPressure.hectopascals(at: now, in: pressures)
        }
        switch reading {
        case .unknown: sensorTrend = nil
        case .unsure(let tendency): sensorTrend = Trend(tendency, unsure: true)
        case .sure(let tendency): sensorTrend = Trend(tendency)
        }
        providerTrend = ProviderPressure.tendency(at: now, in: pressures).map { Trend($0) }
    }

    static func tenths(_ hectopascals: Double) -> Int16 {
        Int16(clamping: Int((hectopascals * 10).rounded()))
    }

    public static func == (a: BarographPanel, b: BarographPanel) -> Bool {
        guard a.current == b.current, a.sensorTrend == b.sensorTrend, a.providerTrend == b.providerTrend,
            a.alarm == b.alarm, a.sensorCount == b.sensorCount, a.providerCount == b.providerCount, a.range == b.range
        else { return false }
        for i in 0..<pastColumns where a.sensor[i] != b.sensor[i] || a.sensorUnsure[i] != b.sensorUnsure[i] { return false }
        for i in 0..<columns where a.provider[i] != b.provider[i] { return false }
        return true
    }
}

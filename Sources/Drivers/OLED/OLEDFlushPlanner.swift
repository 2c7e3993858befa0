/// A rectangle of the visible image to rewrite: columns × pages, both ends inclusive, in panel
/// coordinates (the driver adds the column offset).
public struct OLEDWindow: Sendable, Equatable, CustomStringConvertible {
    public var firstColumn: Int
    public var lastColumn: Int
    public var firstPage: Int
    public var lastPage: Int

    public init(columns: ClosedRange<Int>, pages: ClosedRange<Int>) {
        firstColumn = columns.lowerBound
        lastColumn = columns.upperBound
        firstPage = pages.lowerBound
        lastPage = pages.upperBound
    }

    public var columnCount: Int { lastColumn - firstColumn + 1 }
    public var pageCount: Int { lastPage - firstPage + 1 }
    /// RAM bytes the window carries.
    public var byteCount: Int { columnCount * pageCount }

    public var description: String { "cols \(firstColumn)–\(lastColumn) × pages \(firstPage)–\(lastPage)" }
}

/// How one window goes on the wire.
///
/// - `commandThenData`: a command transaction with Co = 0 (`00 21 c0 c1 22 p0 p1` on the
///   SSD1306, `00 B0+p lo hi` on the SH1106), then a data transaction `40 d…`.
/// - `singleTransaction`: one transaction in which each window command byte has its own Co = 1
///   control byte, then `40` and the data (`80 21 80 c0 80 c1 80 22 80 p0 80 p1 40 d…`;
///   `80 B0+p 80 lo 80 hi 40 d…`). SSD1306 §8.1.5.2: after a control byte with Co = 1 one
///   byte follows, then another control byte; after Co = 0 only data or commands follow.
public enum OLEDWindowFraming: Sendable, Equatable {
    case commandThenData
    case singleTransaction
}

/// What a flush minimises: wire bit-times (`1 + 9·(1 + n) + 1` per transaction of `n` payload
/// bytes, docs/design/parts.md#the-display) plus a fixed charge per transaction for what the wire model
/// leaves out (an `ioctl`, the adapter's set-up and completion interrupt).
///
/// Per window of `n` data bytes, with `k` window command bytes (6 on the SSD1306, 3 on the
/// SH1106) and `T` the per-transaction charge:
///
/// | framing | bit-times | with the default `T` = 20 |
/// |---|---|---|
/// | command + data | `(2 + 9·(2 + k)) + (2 + 9·(2 + n)) + 2T` | SSD1306 134 + 9n, SH1106 107 + 9n |
/// | single | `2 + 9·(2 + 2k + n) + T` | SSD1306 148 + 9n, SH1106 94 + 9n |
///
/// Both grow by 9 bit-times per data byte, so the framing is chosen once per controller: with
/// the default, SSD1306 windows go as a command and a data transaction (1,032 payload bytes
/// for a full frame, 16 for a 4-column × 2-page minute tick) and SH1106 page runs as one
/// transaction each. The fixed part `F` of the chosen framing then drives every other decision
/// (see `OLEDFlushPlanner`).
public struct OLEDCostModel: Sendable, Equatable {
    /// Bit-times charged per transaction on top of its wire time. 20 bit-times is 50 µs at
    /// 400 kHz, about what a Raspberry Pi spends per `I2C_RDWR` message around the wire time.
    public var transactionOverhead: Int

    public init(transactionOverhead: Int = 20) {
        self.transactionOverhead = max(0, transactionOverhead)
    }

    public static let `default` = OLEDCostModel()

    /// Window command bytes per window: `21 c0 c1 22 p0 p1` or `B0+p lo hi`.
    static func windowCommandBytes(_ controller: OLEDProfile.Controller) -> Int {
        controller == .ssd1306 ? 6 : 3
    }

    /// The fixed cost (bit-times, charge included) of one window in `framing`, without its data.
    public func fixedCost(_ framing: OLEDWindowFraming, controller: OLEDProfile.Controller) -> Int {
        let k = Self.windowCommandBytes(controller)
        switch framing {
        case .commandThenData:
            return TransmitBuffer.bitTimes(payload: 1 + k) + TransmitBuffer.bitTimes(payload: 1) + 2 * transactionOverhead
        case .singleTransaction:
            return TransmitBuffer.bitTimes(payload: 2 * k + 1) + transactionOverhead
        }
    }

    /// The cheaper framing for `controller` (command + data on a tie: fewer payload bytes).
    public func framing(for controller: OLEDProfile.Controller) -> OLEDWindowFraming {
        fixedCost(.commandThenData, controller: controller) <= fixedCost(.singleTransaction, controller: controller)
            ? .commandThenData : .singleTransaction
    }

    /// The cost of one window of `bytes` RAM bytes, in the cheaper framing.
    public func windowCost(bytes: Int, controller: OLEDProfile.Controller) -> Int {
        fixedCost(framing(for: controller), controller: controller) + 9 * bytes
    }
}

/// Chooses the windows of a flush: the cheapest set of rectangles, under `OLEDCostModel`, that
/// covers every RAM byte where the new frame differs from the shadow (what is on the glass).
///
/// 1. Per page, the changed columns become runs; two runs merge when resending the unchanged
///    bytes between them costs no more than a new window (`9·gap ≤ F`). For one page that is
///    optimal: each gap is independently either resent or paid for with a window.
/// 2. Pages are partitioned into bands of consecutive pages (dynamic programming over the 8
///    pages, at most 36 bands). A band of height `h` is sent as column clusters spanning all
///    its pages — one SSD1306 horizontal-addressing window each (§10.1.3: columns c0…c1 of p0,
///    then of p0+1, …) — the union of its pages' runs, merged when `9·h·gap ≤ F`; it costs
///    `Σ (F + 9·h·width)`. The band of all pages with one cluster of all columns is the full
///    frame, so the full frame is sent exactly when nothing cheaper covers the change. The
///    SH1106 only has page addressing, so its bands are one page high.
///
/// All storage is allocated in `init`; planning allocates nothing.
struct OLEDFlushPlanner {
    struct Run {
        var first: Int
        var last: Int
    }

    let width: Int
    let pages: Int
    let maxBandHeight: Int
    /// `F`: the fixed cost of a window, in bit-times.
    let fixedCost: Int

    private var runs: [Run]
    private var runCount = 0
    private var runStart: [Int]
    private var clusters: [Run]
    private var best: [Int]
    private var from: [Int]
    private var bandEnds: [Int]
    private(set) var windows: [OLEDWindow]
    private(set) var windowCount = 0
    /// The planned cost of the windows, in bit-times.
    private(set) var plannedCost = 0

    init(width: Int, pages: Int, maxBandHeight: Int, fixedCost: Int) {
        self.width = width
        self.pages = pages
        self.maxBandHeight = max(1, min(maxBandHeight, pages))
        self.fixedCost = fixedCost
        let capacity = pages * (width / 2 + 1)
        let empty = Run(first: 0, last: 0)
        runs = [Run](repeating: empty, count: capacity)
        clusters = [Run](repeating: empty, count: capacity)
        runStart = [Int](repeating: 0, count: pages + 1)
        best = [Int](repeating: 0, count: pages + 1)
        from = [Int](repeating: 0, count: pages + 1)
        bandEnds = [Int](repeating: 0, count: pages + 1)
        windows = [OLEDWindow](repeating: OLEDWindow(columns: 0...0, pages: 0...0), count: capacity)
    }

    /// Whether the planned windows rewrite the whole image.
    var coversPanel: Bool {
        var bytes = 0
        for i in 0..<windowCount { bytes += windows[i].byteCount }
        return bytes == width * pages
    }

    /// Plans the whole image: one window, or one per page when bands are one page high.
    mutating func planFullFrame() {
        windowCount = 0
        if maxBandHeight == 1 {
            for page in 0..<pages { appendWindow(OLEDWindow(columns: 0...width - 1, pages: page...page)) }
        } else {
            appendWindow(OLEDWindow(columns: 0...width - 1, pages: 0...pages - 1))
        }
        plannedCost = windowCount * fixedCost + 9 * width * pages
    }

    /// Plans windows for every byte where `frame` differs from `shadow` (both page-major,
    /// `pages × width`). Returns `false`, with no windows, when nothing changed.
    mutating func plan(frame: [UInt8], shadow: [UInt8]) -> Bool {
        findRuns(frame: frame, shadow: shadow)
        windowCount = 0
        plannedCost = 0
        guard runCount > 0 else { return false }
        best[0] = 0
        for end in 1...pages {
            best[end] = Int.max
            let lowest = max(0, end - maxBandHeight)
            for start in stride(from: end - 1, through: lowest, by: -1) {
                let h = end - start
                // A band whose top or bottom page is unchanged costs more than the band
                // without that page; only one-page bands may be empty.
                if h > 1 && (runStart[start] == runStart[start + 1] || runStart[end - 1] == runStart[end]) { continue }
                let cost = best[start] + bandCost(start, end)
                if cost < best[end] {
                    best[end] = cost
                    from[end] = start
                }
            }
        }
        plannedCost = best[pages]
        var bands = 0
        var end = pages
        while end > 0 {
            bandEnds[bands] = end
            bands += 1
            end = from[end]
        }
        for b in stride(from: bands - 1, through: 0, by: -1) {
            let stop = bandEnds[b]
            let start = from[stop]
            let count = clusterCount(start, stop)
            for i in 0..<count {
                appendWindow(OLEDWindow(columns: clusters[i].first...clusters[i].last, pages: start...stop - 1))
            }
        }
        return true
    }

    private mutating func appendWindow(_ window: OLEDWindow) {
        windows[windowCount] = window
        windowCount += 1
    }

    /// Step 1: the changed runs of every page, gaps merged when `9·gap ≤ F`.
    private mutating func findRuns(frame: [UInt8], shadow: [UInt8]) {
        precondition(frame.count == width * pages && shadow.count == width * pages)
        runCount = 0
        let width = self.width
        let mergeGap = fixedCost / 9
        frame.withUnsafeBufferPointer { f in
            shadow.withUnsafeBufferPointer { s in
                let fr = UnsafeRawPointer(f.baseAddress!)
                let sr = UnsafeRawPointer(s.baseAddress!)
                for page in 0..<pages {
                    runStart[page] = runCount
                    let base = page * width
                    var open = false
                    var column = 0
                    while column < width {
                        let i = base + column
                        // Skip unchanged stretches 8 bytes at a time.
                        if column + 8 <= width,
                            fr.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                                == sr.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                        {
                            column += 8
                            continue
                        }
                        if f[i] != s[i] {
                            if open && column - runs[runCount - 1].last - 1 <= mergeGap {
                                runs[runCount - 1].last = column
                            } else {
                                runs[runCount] = Run(first: column, last: column)
                                runCount += 1
                                open = true
                            }
                        }
                        column += 1
                    }
                }
                runStart[pages] = runCount
            }
        }
    }

    /// The cost of sending pages `start..<end` as one band.
    private mutating func bandCost(_ start: Int, _ end: Int) -> Int {
        let count = clusterCount(start, end)
        let h = end - start
        var cost = 0
        for i in 0..<count { cost += fixedCost + 9 * h * (clusters[i].last - clusters[i].first + 1) }
        return cost
    }

    /// Step 2 for one band: its pages' runs, sorted and merged into `clusters`; returns how many.
    private mutating func clusterCount(_ start: Int, _ end: Int) -> Int {
        var n = 0
        for r in runStart[start]..<runStart[end] {
            // Insertion sort by first column: few runs, no allocation.
            let run = runs[r]
            var j = n
            while j > 0 && clusters[j - 1].first > run.first {
                clusters[j] = clusters[j - 1]
                j -= 1
            }
            clusters[j] = run
            n += 1
        }
        guard n > 1 else { return n }
        let h = end - start
        var k = 0
        for i in 1..<n {
            let next = clusters[i]
            let gap = next.first - clusters[k].last - 1
            if gap < 0 || 9 * h * gap <= fixedCost {
                clusters[k].last = max(clusters[k].last, next.last)
            } else {
                k += 1
                clusters[k] = next
            }
        }
        return k + 1
    }
}

import GPS
import HAL
import HALSim
import SystemPackage

/// An I²C bus where every transaction succeeds and goes nowhere: the display driver does all
/// its work (planning, framing, the transmit buffer) and nothing else is measured.
public struct DiscardingBus: I2CBus {
    public init() {}
    public mutating func transfer(
        address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        if read.count > 0 { read.initializeMemory(as: UInt8.self, repeating: 0) }
    }
}

/// A receiver's stream prepared in advance: epoch k's bytes become readable at `start + k s`
/// on the clock. Reading copies from the prepared bytes: no allocation.
public final class ReplayPort: SerialPort {
    let bytes: [UInt8]
    let ends: [Int]
    let start: Instant
    let clock: VirtualClock
    var cursor = 0

    public init(epochs: [[UInt8]], start: Instant, clock: VirtualClock) {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for epoch in epochs {
            bytes += epoch
            ends.append(bytes.count)
        }
        self.bytes = bytes
        self.ends = ends
        self.start = start
        self.clock = clock
    }

    /// When the next epoch arrives.
    public var nextEpoch: Instant? {
        let due = epochsDue
        return due < ends.count ? start + .seconds(due) : nil
    }

    var epochsDue: Int {
        let elapsed = (clock.now() - start).nanoseconds
        return elapsed < 0 ? 0 : min(ends.count, Int(elapsed / 1_000_000_000) + 1)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        let due = epochsDue
        let limit = due == 0 ? 0 : ends[due - 1]
        let n = min(buffer.count, limit - cursor)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[cursor..<cursor + n]))
        }
        cursor += n
        return n
    }
}

public struct ReplayDevices: SerialDevices {
    public let port: ReplayPort
    public init(port: ReplayPort) { self.port = port }
    public func open(_ path: FilePath, baudRate: BaudRate) throws(SerialError) -> ReplayPort { port }
    public func byIDDevices() -> [FilePath] { [] }
}

/// Button lines whose edges are scheduled in advance (clean contacts) into storage reserved
/// at `init`: reading them allocates nothing.
public final class ReplayInputs: DigitalInputs {
    private var scheduled: [Edge] = []
    private var next = 0
    private var high: UInt32
    let clock: VirtualClock

    /// `lines` lines idling high (buttons to ground with pull-ups).
    public init(lines: Int, clock: VirtualClock) {
        self.clock = clock
        high = lines >= 32 ? .max : (1 << UInt32(lines)) - 1
        scheduled.reserveCapacity(4096)
    }

    /// A press of `line` at `at`, released `hold` later.
    public func press(_ line: Int, at: Instant, hold: Duration) {
        if next == scheduled.count {
            scheduled.removeAll(keepingCapacity: true)
            next = 0
        }
        scheduled.append(Edge(line: line, direction: .falling, time: at))
        scheduled.append(Edge(line: line, direction: .rising, time: at + hold))
    }

    public var nextEdge: Instant? { next < scheduled.count ? scheduled[next].time : nil }

    public func readEdges(into buffer: UnsafeMutableBufferPointer<Edge>) throws(GPIOError) -> Int {
        let now = clock.now()
        var count = 0
        while count < buffer.count, next < scheduled.count, scheduled[next].time <= now {
            let edge = scheduled[next]
            buffer[count] = edge
            let bit: UInt32 = 1 << UInt32(edge.line)
            if edge.direction == .rising { high |= bit } else { high &= ~bit }
            next += 1
            count += 1
        }
        return count
    }

    public func levels() throws(GPIOError) -> UInt32 { high }
}

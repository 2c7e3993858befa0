import HAL

/// The bytes of one I²C write transaction, built in storage that is allocated once.
///
/// Every driver owns one, sized in its `init` for the largest transaction it will ever send
/// (an OLED frame: control byte, window commands and a whole RAM image; an LCD run of port
/// states), so building and sending a frame allocates nothing. Appending past the capacity is
/// a driver bug, not an I/O condition, and traps.
///
/// A write transaction on the wire is START, the address byte, the payload bytes, STOP; each
/// byte is 8 bits plus the acknowledge bit (I²C-bus specification UM10204 §3.1.5–3.1.6), so
/// one transaction of `n` payload bytes takes `1 + 9·(1 + n) + 1` bit-times (`bitTimes`).
public struct TransmitBuffer: Sendable {
    private var storage: [UInt8]
    /// The bytes appended since the last `removeAll()`.
    public private(set) var count = 0

    public init(capacity: Int) {
        precondition(capacity > 0, "a transmit buffer holds at least one byte")
        storage = [UInt8](repeating: 0, count: capacity)
    }

    public var capacity: Int { storage.count }
    public var remaining: Int { storage.count - count }
    public var isEmpty: Bool { count == 0 }

    /// Forgets the bytes; the storage stays.
    public mutating func removeAll() { count = 0 }

    public mutating func append(_ byte: UInt8) {
        precondition(count < storage.count, "transmit buffer overflow: size it for the largest transaction")
        storage[count] = byte
        count += 1
    }

    public mutating func append(_ first: UInt8, _ second: UInt8) {
        append(first)
        append(second)
    }

    /// Appends `byte` `repeating` times (a RAM clear).
    public mutating func append(_ byte: UInt8, repeating n: Int) {
        precondition(n >= 0 && n <= remaining, "transmit buffer overflow: size it for the largest transaction")
        let start = count
        storage.withUnsafeMutableBufferPointer { dst in
            for i in start..<start + n { dst[i] = byte }
        }
        count += n
    }

    /// Appends `source[range]` (a run of a framebuffer page).
    public mutating func append(contentsOf source: [UInt8], range: Range<Int>) {
        precondition(range.count <= remaining, "transmit buffer overflow: size it for the largest transaction")
        let start = count
        source.withUnsafeBufferPointer { src in
            storage.withUnsafeMutableBufferPointer { dst in
                var j = start
                for i in range {
                    dst[j] = src[i]
                    j += 1
                }
            }
        }
        count += range.count
    }

    /// The byte at `index`, which must be below `count`.
    public internal(set) subscript(index: Int) -> UInt8 {
        get {
            precondition(index >= 0 && index < count, "index beyond the bytes appended")
            return storage[index]
        }
        set {
            precondition(index >= 0 && index < count, "index beyond the bytes appended")
            storage[index] = newValue
        }
    }

    /// The last byte appended, if any (to repeat a port state).
    public var last: UInt8? { count > 0 ? storage[count - 1] : nil }

    /// The bytes, as an array (for tests and logs; allocates).
    public var bytes: [UInt8] { Array(storage[..<count]) }

    /// Sends the bytes as one write transaction to `address`.
    public func send<Bus: I2CBus>(to bus: inout Bus, address: UInt8) throws(I2CError) {
        let n = count
        let result = storage.withUnsafeBytes { raw in
            Result { () throws(I2CError) in
                try bus.write(address: address, UnsafeRawBufferPointer(rebasing: raw[0..<n]))
            }
        }
        try result.get()
    }

    /// Bit-times of one write transaction carrying `payload` bytes: START, address, the
    /// payload, each byte with its acknowledge bit, STOP.
    public static func bitTimes(payload: Int) -> Int { 2 + 9 * (1 + payload) }
}

/// What one flush (or start, or setting) put on the bus.
public struct FlushReport: Sendable, Equatable, CustomStringConvertible {
    /// Write transactions sent.
    public var transactions = 0
    /// Bytes after the address byte, control bytes included.
    public var payloadBytes = 0
    /// Display RAM bytes among them (OLED GDDRAM bytes; LCD characters and CGRAM rows).
    public var dataBytes = 0
    /// Wire time in bit-times: per transaction `1 + 9·(1 + n) + 1`.
    public var bitTimes = 0
    /// Windows (OLED) or runs (LCD) written.
    public var windows = 0
    /// Whether the whole panel was rewritten (after a failure, a rotation, the first frame).
    public var fullFrame = false
    /// Whether the controller was initialised again first (the first flush, or after a failure).
    public var reinitialised = false

    public init() {}

    public static let empty = FlushReport()

    /// Counts one transaction of `payload` bytes.
    public mutating func recordTransaction(payload: Int) {
        transactions += 1
        payloadBytes += payload
        bitTimes += TransmitBuffer.bitTimes(payload: payload)
    }

    /// Adds another report's counts (a start followed by a frame).
    public mutating func add(_ other: FlushReport) {
        transactions += other.transactions
        payloadBytes += other.payloadBytes
        dataBytes += other.dataBytes
        bitTimes += other.bitTimes
        windows += other.windows
        fullFrame = fullFrame || other.fullFrame
        reinitialised = reinitialised || other.reinitialised
    }

    /// The wire time at `busClockHz` (no host gaps between transactions).
    public func wireTime(busClockHz: Int) -> Duration {
        .nanoseconds(Int64(bitTimes) * 1_000_000_000 / Int64(max(busClockHz, 1)))
    }

    public var description: String {
        "\(transactions) txn, \(payloadBytes) B (\(dataBytes) data), \(bitTimes) bit-times, \(windows) windows"
            + (fullFrame ? ", full frame" : "") + (reinitialised ? ", re-initialised" : "")
    }
}

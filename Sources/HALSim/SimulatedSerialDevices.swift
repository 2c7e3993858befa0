import HAL
import SystemPackage

/// Simulated serial devices: GPS receivers that a test attaches at a path (and optionally under
/// a `/dev/serial/by-id` name), plugs in and out, and sets to a baud rate, so the location
/// service's reconnect, rescan and baud hunting run against them in virtual time.
///
/// Each receiver sends through a `SimulatedSerialPort`, its `wire`: schedule or feed the bytes
/// the receiver transmits there. What a port opened on it reads depends on the two ends, as on a
/// real UART:
/// - the same baud rate on both ends: the bytes, unchanged;
/// - different rates: every byte arrives damaged, as a framing-error byte with the high bit set
///   (a UART sampling at the wrong rate mostly sees such bytes, and NMEA is 7-bit ASCII, so no
///   sentence survives); the exact bit pattern depends on the two rates and is not modelled;
/// - after `unplug()`: reads throw `.disconnected`, and a port opened before a later `plugIn()`
///   stays dead (the kernel gives a replugged device a new tty; the old descriptor is hung up).
///
/// Opening discards what the wire holds, as `LinuxSerialPort` flushes the tty at open.
public final class SimulatedSerialDevices: SerialDevices {
    /// One simulated receiver.
    public final class Receiver {
        public let path: FilePath
        /// What the receiver transmits: schedule or feed bytes here.
        public let wire: SimulatedSerialPort
        /// The rate the receiver transmits at.
        public var baudRate: BaudRate
        /// The name it has in `/dev/serial/by-id` while plugged in, if any (a USB receiver).
        public var byIDName: String?
        /// When set, opening fails with this kind (permission denied, busy) until cleared.
        public var openFailure: SerialError.Kind?
        public private(set) var isPluggedIn = true
        /// Bumped by every unplug: ports opened before it stay disconnected.
        fileprivate var generation = 0

        init(path: FilePath, clock: VirtualClock, baudRate: BaudRate, byIDName: String?) {
            self.path = path
            self.wire = SimulatedSerialPort(clock: clock)
            self.baudRate = baudRate
            self.byIDName = byIDName
        }

        /// The receiver is pulled out: open ports hang up, unread and scheduled bytes are lost,
        /// and the path (and its by-id name) disappear until `plugIn()`.
        public func unplug() {
            isPluggedIn = false
            generation += 1
            wire.unplug()
        }

        /// The receiver is back; it must be opened again.
        public func plugIn() {
            isPluggedIn = true
            wire.plugIn()
        }
    }

    /// A port opened on a receiver at a baud rate.
    public final class Port: SerialPort {
        public let receiver: Receiver
        public let baudRate: BaudRate
        private let generation: Int
        private var random: SplitMix64

        fileprivate init(receiver: Receiver, baudRate: BaudRate) {
            self.receiver = receiver
            self.baudRate = baudRate
            self.generation = receiver.generation
            self.random = SplitMix64(seed: UInt64(baudRate.rawValue))
        }

        public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
            guard receiver.isPluggedIn, receiver.generation == generation else { throw SerialError(.disconnected) }
            let count = try receiver.wire.read(into: buffer)
            if baudRate != receiver.baudRate {
                for i in 0..<count { buffer[i] = 0x80 | UInt8(truncatingIfNeeded: random.next(below: 128)) }
            }
            return count
        }

        /// The receiver's wire keeps the counts, across opens, as a UART's driver does.
        public func lossCounters() -> SerialLossCounters? {
            guard receiver.isPluggedIn, receiver.generation == generation else { return nil }
            return receiver.wire.lossCounters()
        }
    }

    public static var byIDDirectory: FilePath { "/dev/serial/by-id" }

    private let clock: VirtualClock
    public private(set) var receivers: [Receiver] = []
    /// How many of the latest opens and attempts the twin remembers. A receiver unplugged for
    /// an hour is tried every 30 s; a year of `simulate` would otherwise keep every try (a
    /// small part, about 4 KB in 60 days, of the soak's slow creep). A test sees far fewer.
    public static let historyLimit = 64
    /// The latest successful opens (up to `historyLimit`), in order: the path and the baud rate
    /// (how tests see the hunt).
    public private(set) var opens: [(path: FilePath, baudRate: BaudRate)] = []
    /// The latest open attempts (up to `historyLimit`), successful or not.
    public private(set) var attempts: [FilePath] = []
    /// Every open attempt since the start, and every successful open.
    public private(set) var attemptCount = 0
    public private(set) var openCount = 0

    public init(clock: VirtualClock) { self.clock = clock }

    /// Adds a receiver at `path` (replacing one already there), plugged in.
    @discardableResult
    public func attach(_ path: FilePath, baudRate: BaudRate = .b9600, byIDName: String? = nil) -> Receiver {
        receivers.removeAll { $0.path == path }
        let receiver = Receiver(path: path, clock: clock, baudRate: baudRate, byIDName: byIDName)
        receivers.append(receiver)
        return receiver
    }

    public func open(_ path: FilePath, baudRate: BaudRate) throws(SerialError) -> Port {
        attemptCount += 1
        Self.remember(path, in: &attempts)
        guard let receiver = receivers.first(where: { $0.isPluggedIn && matches($0, path) }) else {
            throw SerialError(.noDevice, errno: .noSuchFileOrDirectory)
        }
        if let kind = receiver.openFailure { throw SerialError(kind) }
        // The open flushes what arrived before it.
        var scratch = [UInt8](repeating: 0, count: 256)
        while (try? scratch.withUnsafeMutableBytes({ try receiver.wire.read(into: $0) })) ?? 0 > 0 {}
        openCount += 1
        Self.remember((path, baudRate), in: &opens)
        return Port(receiver: receiver, baudRate: baudRate)
    }

    /// Appends, dropping the oldest beyond `historyLimit` (an open at most every 0.5 s of
    /// virtual time: moving 64 entries costs nothing next to it).
    private static func remember<Entry>(_ entry: Entry, in history: inout [Entry]) {
        if history.count == historyLimit { history.removeFirst() }
        history.append(entry)
    }

    public func byIDDevices() -> [FilePath] {
        receivers.compactMap { r in r.isPluggedIn ? r.byIDName.map { Self.byIDDirectory.appending($0) } : nil }
            .sorted { $0.string < $1.string }
    }

    private func matches(_ receiver: Receiver, _ path: FilePath) -> Bool {
        receiver.path == path || receiver.byIDName.map { Self.byIDDirectory.appending($0) } == path
    }
}

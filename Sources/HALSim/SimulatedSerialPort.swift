import HAL

/// An in-memory `SerialPort`: the bytes a GPS receiver would send, fed by a test directly or by
/// a script whose chunks arrive as a `VirtualClock` passes their times.
///
/// - A read copies at most `buffer.count` bytes of what has arrived by `clock.now()`, oldest
///   first, and returns 0 when nothing has (it never blocks).
/// - A chunk scheduled with a baud rate arrives one byte per character time (10 bits: start,
///   8 data, stop), each byte readable once its stop bit is in, as a UART delivers it.
/// - `unplug()` models a USB receiver pulled out (or a hang-up): **the bytes not yet read are
///   lost**, as they are on Linux, where the hang-up swaps the tty's file operations and every
///   later read returns end of file (which the Linux port reports as `.disconnected`). Reads then
///   throw `.disconnected` until `plugIn()`, which stands for the owner reopening the port.
/// - `receiveBufferCapacity` (default unlimited) models a driver buffer that the reader does not
///   drain in time: bytes arriving when it is full are dropped and counted in `overrunBytes`.
///   `kernelTTYBuffer` (4096) is N_TTY's read buffer (`N_TTY_BUF_SIZE`, drivers/tty/n_tty.c).
///   The kernel is kinder: in raw mode a full N_TTY stops taking bytes and leaves them in the
///   driver's flip buffers, which drop only past `TTYB_DEFAULT_MEM_LIMIT` (640 KiB today,
///   drivers/tty/tty_buffer.c) and count that in `buf_overrun`. Dropping at 4 KiB is the
///   strict bound: a reader that loses nothing here neither loses nor lags on a real tty.
///   `lossCounters()` reports the drops as `buf_overrun` (nil with `keepsLossCounters` off,
///   as a USB ACM modem or a pseudo-terminal answers TIOCGICOUNT with ENOTTY).
/// - `nextArrival` says when the next byte becomes readable, so a virtual loop can wake where
///   poll(2) would report POLLIN.
/// - `noise` corrupts or drops arriving bytes from a seeded generator (a marginal cable, the
///   wrong baud rate), reproducibly.
///
/// A class, so that a test keeps feeding the port a driver owns.
public final class SimulatedSerialPort: SerialPort {
    /// Line noise applied to bytes as they arrive.
    public struct LineNoise: Sendable {
        /// Probability that a byte has one bit flipped (a bit error).
        public var bitFlipProbability: Double
        /// Probability that a byte is lost (a framing error the UART discards).
        public var dropProbability: Double
        public var seed: UInt64

        public init(bitFlipProbability: Double = 0, dropProbability: Double = 0, seed: UInt64 = 1) {
            self.bitFlipProbability = bitFlipProbability
            self.dropProbability = dropProbability
            self.seed = seed
        }
    }

    private struct Chunk {
        var start: Instant
        var bytes: [UInt8]
        /// Time per byte; `.zero` delivers the whole chunk at `start`.
        var byteTime: Duration
        var delivered: Int
        var order: Int
    }

    private let clock: VirtualClock?
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var script: [Chunk] = []
    private var nextOrder = 0
    private var unplugAt: Instant?
    private var random: SplitMix64

    /// Whether the device is gone (reads throw `.disconnected`).
    public private(set) var isUnplugged = false
    /// Line noise applied to bytes as they arrive, if any.
    public var noise: LineNoise? {
        didSet { random = SplitMix64(seed: noise?.seed ?? 1) }
    }
    public var receiveBufferCapacity: Int?
    /// N_TTY's read buffer, in bytes: `receiveBufferCapacity` for a tty model.
    public static let kernelTTYBuffer = 4096
    /// Whether `lossCounters()` answers (a UART's driver) or not (USB ACM, a pty).
    public var keepsLossCounters = true
    /// Bytes dropped because the receive buffer was full.
    public private(set) var overrunBytes = 0
    /// Bytes handed to readers so far.
    public private(set) var bytesRead = 0
    /// Bytes the noise dropped or corrupted.
    public private(set) var corruptedBytes = 0

    /// A port with no script needs no clock; scheduled bytes need one.
    public init(clock: VirtualClock? = nil, receiveBufferCapacity: Int? = nil, noise: LineNoise? = nil) {
        self.clock = clock
        self.receiveBufferCapacity = receiveBufferCapacity
        self.noise = noise
        random = SplitMix64(seed: noise?.seed ?? 1)
    }

    /// Makes `bytes` readable now (through the noise and the buffer limit).
    public func feed(_ bytes: some Sequence<UInt8>) {
        guard !isUnplugged else { return }
        for byte in bytes { arrive(byte) }
    }

    /// Makes `bytes` readable now; `feed("$GPGGA,…\r\n")`.
    public func feed(_ text: String) { feed(text.utf8) }

    /// Schedules `bytes` to arrive at `instant`: all at once, or, with `baudRate`, one byte per
    /// character time (10 bits) starting at `instant`.
    public func schedule(_ bytes: some Sequence<UInt8>, at instant: Instant, baudRate: BaudRate? = nil) {
        let byteTime = baudRate.map { Duration.nanoseconds(10_000_000_000 / Int64($0.rawValue)) } ?? .zero
        let chunk = Chunk(start: instant, bytes: Array(bytes), byteTime: byteTime, delivered: 0, order: nextOrder)
        nextOrder += 1
        let index = script.firstIndex { ($0.start, $0.order) > (chunk.start, chunk.order) } ?? script.endIndex
        script.insert(chunk, at: index)
    }

    /// Schedules each `(time, bytes)` chunk of `script`.
    public func load(script chunks: some Sequence<(Instant, [UInt8])>, baudRate: BaudRate? = nil) {
        for (time, bytes) in chunks { schedule(bytes, at: time, baudRate: baudRate) }
    }

    /// The device goes away now: unread bytes and the rest of the script are lost.
    public func unplug() {
        isUnplugged = true
        buffer.removeAll(keepingCapacity: true)
        readIndex = 0
        script.removeAll()
        unplugAt = nil
    }

    /// The device goes away when the clock reaches `instant` (bytes scheduled before then still
    /// arrive, and are lost with the rest unless read before the clock passes `instant`).
    public func scheduleUnplug(at instant: Instant) { unplugAt = instant }

    /// The device is back and the port reopened: empty, readable again.
    public func plugIn() { isUnplugged = false }

    /// Bytes readable now.
    public var available: Int {
        pump()
        return buffer.count - readIndex
    }

    /// When the next byte becomes readable: now when bytes are waiting, else the stop bit of
    /// the next scheduled byte; nil when nothing more will arrive (or the device is gone).
    public var nextArrival: Instant? {
        if available > 0 { return clock?.now() ?? .zero }
        guard !isUnplugged, let first = script.first else { return nil }
        return first.start + first.byteTime * (first.delivered + 1)
    }

    /// `buf_overrun` = the bytes the full buffer dropped; `overrun` (a UART FIFO overrun) does
    /// not happen in this model.
    public func lossCounters() -> SerialLossCounters? {
        keepsLossCounters ? SerialLossCounters(bufferOverrun: overrunBytes) : nil
    }

    /// Bytes scheduled but not yet arrived.
    public var pendingScriptBytes: Int { script.reduce(0) { $0 + $1.bytes.count - $1.delivered } }

    public func read(into destination: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        pump()
        if isUnplugged { throw SerialError(.disconnected) }
        let count = min(destination.count, buffer.count - readIndex)
        guard count > 0 else { return 0 }
        buffer.withUnsafeBytes { source in
            destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[readIndex..<readIndex + count]))
        }
        readIndex += count
        bytesRead += count
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        } else if readIndex >= 4096 && readIndex * 2 >= buffer.count {
            buffer.removeFirst(readIndex)
            readIndex = 0
        }
        return count
    }

    /// Moves the scripted bytes due by `clock.now()` into the receive buffer, and unplugs when
    /// a scheduled unplug is due.
    private func pump() {
        guard let clock, !isUnplugged else { return }
        let now = clock.now()
        if let unplugAt, unplugAt <= now {
            deliver(until: unplugAt)
            unplug()
            return
        }
        deliver(until: now)
    }

    private func deliver(until now: Instant) {
        while let first = script.first, first.start <= now {
            var chunk = first
            let due: Int
            if chunk.byteTime == .zero {
                due = chunk.bytes.count
            } else {
                let elapsed = (now - chunk.start).nanoseconds / chunk.byteTime.nanoseconds
                due = Int(min(Int64(chunk.bytes.count), elapsed))
            }
            while chunk.delivered < due {
                arrive(chunk.bytes[chunk.delivered])
                chunk.delivered += 1
            }
            if chunk.delivered == chunk.bytes.count {
                script.removeFirst()
            } else {
                script[0] = chunk
                return  // later chunks queue behind this one, as on one wire
            }
        }
    }

    private func arrive(_ byte: UInt8) {
        var byte = byte
        if let noise {
            if random.chance(noise.dropProbability) {
                corruptedBytes += 1
                return
            }
            if random.chance(noise.bitFlipProbability) {
                byte ^= 1 << UInt8(random.next(below: 8))
                corruptedBytes += 1
            }
        }
        if let receiveBufferCapacity, buffer.count - readIndex >= receiveBufferCapacity {
            overrunBytes += 1
            return
        }
        buffer.append(byte)
    }
}

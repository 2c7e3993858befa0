import HAL
import SystemPackage

/// The GPS location service: owns the receiver's serial port, turns its bytes into fixes, and
/// says at every moment what the GPS is doing (`LocationState`), whatever the hardware does.
///
/// It never blocks, sleeps or owns a thread. The one-thread loop polls the port's descriptor
/// (`port`) for POLLIN while `wantsInput` and for a hang-up always, calls `readAvailable()` and
/// `tick()` at every wake-up (at the latest when `nextDeadline` passes), and reads `state`,
/// `currentFix`, `lastFix`, `losses` and `statusLine`. Time comes only from the injected clock,
/// so tests drive every timeout with a `VirtualClock`.
///
/// The rules (docs/design/parts.md#the-gps-receiver):
/// - **Opening.** The configured path is tried first on every attempt. If it does not exist
///   and `/dev/serial/by-id` lists exactly one device (other than the path itself), that one is
///   opened instead: the only USB serial device on the machine is the receiver (a puck moved to
///   another socket re-enumerates as ttyACM1, a replacement puck has another by-id name, a
///   disabled UART leaves no /dev/serial0). With none or several, nothing is guessed.
/// - **Failures never stop the service.** No device, permission denied, busy and unplug
///   (`.disconnected` from a read, or `hangUp()` for POLLHUP) all give `.noDevice` and another
///   attempt after 0.5 s, 1 s, 2 s … 30 s, 30 s (`ReconnectBackoff`); an open resets it.
/// - **No data** once 3 s pass without a byte. **No valid sentences** once bytes have come for
///   5 s without one sentence passing framing and checksum: the port is reopened at the next
///   rate of `BaudHunt` every 5 s until a sentence is valid. The rate found is kept for later
///   reopens.
/// - **Reading.** As bytes arrive, one wake-up per burst, within half the time the kernel's
///   buffer takes to fill at the port's rate (`ReadPacing`); at most `ReadPacing.budget` bytes
///   per wake-up.
/// - **Fix and staleness.** A valid fix is current for `staleAfter` = 5 receiver epochs (the
///   epoch period is learned from the receivers' UTC times of day; 1 s until known), and never
///   less than 1 s, because reads arrive in bursts and the screen refreshes at 1 Hz. After
///   that the same fix is `.stale`: kept for display, never current.
///
/// Steady state allocates nothing: the read buffer is allocated once, the receiver is
/// allocation-free, a fix is a value, and a tick only compares instants. Reconnecting (error
/// values, the by-id listing) may allocate.
public final class LocationService<Devices: SerialDevices, Clock: DeviceClock> {
    public struct Configuration: Sendable {
        /// The receiver's path: `/dev/serial0`, `/dev/ttyACM0` or a `/dev/serial/by-id` name.
        public var path: FilePath
        /// The rate to open at first; the hunt may move to another.
        public var baudRate: BaudRate
        public var noDataAfter: Duration = .seconds(3)
        public var noValidSentencesAfter: Duration = .seconds(5)
        /// Epochs without a valid fix before the last one is stale.
        public var staleEpochs = 5
        /// Bytes per read; at least 1 KiB, so one read takes a whole 1 Hz epoch at 9600 Bd.
        public var readChunk = 1024
        /// Bytes one wake-up reads at most; nil: `ReadPacing.budget` (one kernel buffer).
        public var readBudget: Int?
        /// Reads of the UART's loss counters (`TIOCGICOUNT`) at most this often.
        public var lossCountersEvery: Duration = .seconds(60)

        public init(path: FilePath, baudRate: BaudRate) {
            self.path = path
            self.baudRate = baudRate
        }
    }

    public let configuration: Configuration
    public let devices: Devices
    public let clock: Clock

    /// The open port, if any; the loop polls its descriptor and must re-read it after every
    /// call, since reconnects and the baud hunt replace it.
    public internal(set) var port: Devices.Port?
    /// The path `port` was opened at (the configured one, or the by-id fallback).
    public internal(set) var openPath: FilePath?
    public internal(set) var baudHunt: BaudHunt
    /// Why the last open failed or the port went away; cleared by an open.
    public internal(set) var lastError: SerialError?
    /// By-id devices seen at the last failed attempt (more than one: ambiguous, not guessed).
    public internal(set) var byIDCandidates = 0
    /// When the next open attempt is due, while no port is open.
    public internal(set) var nextAttemptAt: Instant?
    /// The last valid fix, kept across every later state.
    public internal(set) var lastFix: ReceivedFix?
    /// The last epoch the receiver closed, valid or not (mode and satellites for display).
    public internal(set) var latestEpoch: Fix?
    /// The shortest period between consecutive epochs since the port opened.
    public internal(set) var epochPeriod: Duration?
    public internal(set) var disconnections = 0
    /// The UTC time the receiver vouches for, and the monotonic instant it belongs to: set only
    /// once two consecutive trusted epochs agree with the monotonic clock (`ClockGate`), so a
    /// caller may set the system clock from it (`time + (clock.now() - at)`).
    public internal(set) var clockTime: (time: UTCTime, at: Instant)?
    var clockGate = ClockGate()
    public internal(set) var baudChanges = 0

    var receiver: NMEAReceiver
    private let buffer: UnsafeMutableRawBufferPointer
    var backoff = ReconnectBackoff()
    var openedAt = Instant.zero
    var lastByteAt: Instant?
    var lastSentenceAt: Instant?
    /// The first byte after which no sentence was accepted (nil after a sentence, an open, or
    /// a silence of `noDataAfter`).
    var unrecognisedSince: Instant?
    /// Set by a baud-hunt step; cleared by the first valid sentence.
    public internal(set) var isHunting = false
    var lastEpochTime: TimeOfDay?

    /// Until when the loop leaves POLLIN off: the last read found bytes, and the rest of the
    /// burst is read at this instant in one wake-up (`ReadPacing`). Nil: listening.
    public internal(set) var readHoldUntil: Instant?
    /// What the link lost since the service started.
    public internal(set) var losses = GPSLosses()
    /// The port's counts at its open or last reading, to add only what grew.
    var lossBaseline: SerialLossCounters?
    var lossCountersDue: Instant?

    /// Does no I/O: the first `tick()` makes the first open attempt.
    public init(devices: Devices, clock: Clock, configuration: Configuration, rules: GPSTimeRules = .live) {
        precondition(configuration.readChunk >= 1024, "read in chunks of at least 1 KiB")
        self.devices = devices
        self.clock = clock
        self.configuration = configuration
        baudHunt = BaudHunt(configured: configuration.baudRate)
        receiver = NMEAReceiver(rules: rules)
        buffer = .allocate(byteCount: configuration.readChunk, alignment: 16)
        nextAttemptAt = clock.now()
    }

    deinit { buffer.deallocate() }

    /// The rate the port is (or will next be) opened at.
    public var baudRate: BaudRate { baudHunt.current }

    /// When the port is read, at its current rate.
    public var pacing: ReadPacing { ReadPacing(baudRate: baudHunt.current) }

    /// Whether the loop should poll the port for POLLIN now: no hold, or the hold is over.
    public var wantsInput: Bool {
        guard port != nil else { return false }
        guard let readHoldUntil else { return true }
        return clock.now() >= readHoldUntil
    }

    /// Every counter of the framer and decoder since the service started.
    public var statistics: NMEAStatistics { receiver.statistics }

    /// How long a valid fix stays current: `staleEpochs` epoch periods, at least 1 s.
    public var staleAfter: Duration {
        max(.seconds(1), (epochPeriod ?? .seconds(1)) * configuration.staleEpochs)
    }

    /// The fix the device may use as its position now: only in `.fix`.
    public var currentFix: Fix? {
        if case .fix = state { return lastFix?.fix }
        return nil
    }

    public var state: LocationState { state(at: clock.now()) }

    /// The state at `now` (see `LocationState` for the order in which the checks apply).
    public func state(at now: Instant) -> LocationState {
        guard port != nil else { return .noDevice }
        if now >= silentAt { return .noData }
        if isHunting { return .noValidSentences }
        if let huntAt, now >= huntAt { return .noValidSentences }
        if let lastFix {
            let age = now - lastFix.receivedAt
            return age < staleAfter ? .fix(age: age) : .stale(age: age)
        }
        return lastSentenceAt == nil ? .waiting : .noFix
    }

    /// When the service must be called again (`tick()`) even if no byte arrives: the next open
    /// attempt, the next baud-hunt step, or the next change of state (no data, stale). An
    /// instant already past means "now". `nil` means nothing is due until a byte arrives: the
    /// link is silent (`.noData`), and only new bytes can change that.
    public var nextDeadline: Instant? {
        let now = clock.now()
        guard port != nil else { return nextAttemptAt }
        // Once silent, nothing changes until a byte arrives; a hold that outlasts a short
        // `noDataAfter` still ends, to turn POLLIN back on.
        guard silentAt > now else { return readHoldUntil.map { max($0, now) } }
        var next = silentAt
        if let readHoldUntil { next = min(next, max(readHoldUntil, now)) }
        if let huntAt {
            if huntAt <= now { return now }
            next = min(next, huntAt)
        }
        if let lastFix, lastFix.receivedAt + staleAfter > now {
            next = min(next, lastFix.receivedAt + staleAfter)
        }
        return next
    }

    /// When the link counts as silent: `noDataAfter` after the last byte (or the open).
    var silentAt: Instant { (lastByteAt ?? openedAt) + configuration.noDataAfter }

    /// When bytes without a valid sentence mean the wrong baud rate, if such bytes are arriving.
    var huntAt: Instant? { unrecognisedSince.map { $0 + configuration.noValidSentencesAfter } }

    /// Does what is due by now: an open attempt, the next baud-hunt step, or the minute's
    /// reading of the UART's loss counters (at a wake-up that happens anyway: never a deadline
    /// of its own).
    public func tick() {
        let now = clock.now()
        guard port != nil else {
            if let at = nextAttemptAt, at <= now { attemptOpen(now) }
            return
        }
        if now < silentAt, let huntAt, now >= huntAt { huntNextRate(now) }
        if let due = lossCountersDue, now >= due { readLossCounters(now) }
    }

    /// Reads what the port has, up to the wake-up's budget, and feeds it to the receiver; then
    /// holds POLLIN off while the burst goes on (`ReadPacing`). Call it at every wake-up: a read
    /// of a quiet tty is one EAGAIN. A read error is an unplug.
    public func readAvailable() {
        let now = clock.now()
        let budget = configuration.readBudget ?? pacing.budget
        var total = 0
        while port != nil, total < budget {
            let room = UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, budget - total)])
            let count: Int
            do throws(SerialError) {
                count = try port!.read(into: room)
            } catch {
                readHoldUntil = nil
                lost(error, now)
                return
            }
            if count == 0 { break }
            consume(count, now)
            total += count
        }
        // Nothing: listen for the next byte. The budget spent: more may be waiting, so listen
        // (poll answers at once) after the rest of this turn. Else hold for the burst's rest.
        readHoldUntil = total == 0 || total >= budget ? nil : now + pacing.holdOff
    }

    /// `readAvailable()`, then `tick()`: what a simulation calls after moving the clock.
    public func update() {
        readAvailable()
        tick()
    }

    /// The loop saw POLLHUP or POLLERR on the port: the device is gone.
    public func hangUp() {
        guard port != nil else { return }
        lost(SerialError(.disconnected), clock.now())
    }

    // MARK: - Bytes

    private func consume(_ count: Int, _ now: Instant) {
        // Bytes after a silence start a new "are these valid?" window.
        if let last = lastByteAt, now - last >= configuration.noDataAfter { unrecognisedSince = nil }
        lastByteAt = now
        let before = receiver.statistics
        let linkKnownGood = lastSentenceAt != nil
        var sawSentence = false
        receiver.consume(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { event in
            switch event {
            case .sentence: sawSentence = true
            case .fix(let fix): self.epoch(fix, now)
            }
        }
        if linkKnownGood { countLosses(since: before) }
        if sawSentence {
            lastSentenceAt = now
            unrecognisedSince = nil
            isHunting = false
        } else if unrecognisedSince == nil {
            unrecognisedSince = now
        }
    }

    func epoch(_ fix: Fix, _ now: Instant) {
        if let time = fix.timeOfDay {
            if let previous = lastEpochTime {
                var step = time.milliseconds - previous.milliseconds
                if step < 0 { step += 86_400_000 }  // past midnight
                // Longer than 10 s is a gap (lost epochs, a pause), not a rate.
                if step > 0, step <= 10_000 {
                    let period = Duration.milliseconds(step)
                    epochPeriod = min(epochPeriod ?? period, period)
                }
            }
            lastEpochTime = time
        }
        latestEpoch = fix
        if fix.isValid { lastFix = ReceivedFix(fix: fix, receivedAt: now) }
        if let vouched = clockGate.offer(fix, at: now) { clockTime = vouched }
    }
}

import Glibc
import HAL
import HALLinux
import SystemPackage

/// The device's loop on Linux (docs/design/architecture.md#the-loop): one thread, one `poll(2)` over the GPS tty,
/// the GPIO line-event descriptors, a timerfd armed at the next deadline, the eventfd the
/// network edge wakes it through, a signalfd for SIGTERM, SIGINT and SIGHUP, and a timerfd that
/// is readable when the wall clock is set (an NTP step, `date -s`), so the clock on screen is
/// redrawn at once rather than at its next minute deadline. Nothing sleeps; every wake-up is
/// one `Device.service()`.
///
/// The GPS tty is polled for input while the location service listens (`wantsInput`) and only
/// for a hang-up while it holds a burst (`events` 0: POLLHUP and POLLERR are reported anyway);
/// the hold's end is one of the device's deadlines. So the first byte of a burst wakes the loop,
/// the rest is read in one wake-up, and a quiet line wakes nothing (`ReadPacing`).
public final class DeviceLoop {
    public enum Stop: Equatable, Sendable {
        /// SIGTERM, SIGINT (finish and exit) or SIGHUP (reload), from the signalfd.
        case signal(CInt)
        /// `run(until:)` reached its end.
        case finished
    }

    /// What the daemon adds to each turn of the loop: the simulated parts that follow the real
    /// clock, the watchdog and the status. Closures, set once; calling them allocates nothing.
    public struct Companion {
        /// An instant the loop must wake at besides the device's own deadlines (a simulated
        /// part's next event, the next watchdog ping); nil for none.
        public var nextDeadline: () -> Instant?
        /// Runs before each `service()` with the time of the wake-up.
        public var beforeService: (Instant) -> Void
        /// Runs after each `service()` (and after `start()`).
        public var afterService: (Instant) -> Void
        /// How many input slots to keep in the poll set, and the descriptor for slot `i` now
        /// (-1 for none): GPIO requests may open later than the loop starts, or reopen.
        public var inputSlots: Int
        public var inputDescriptor: (Int) -> CInt

        public init(
            nextDeadline: @escaping () -> Instant? = { nil }, beforeService: @escaping (Instant) -> Void = { _ in },
            afterService: @escaping (Instant) -> Void = { _ in }, inputSlots: Int = 0,
            inputDescriptor: @escaping (Int) -> CInt = { _ in -1 }
        ) {
            self.nextDeadline = nextDeadline
            self.beforeService = beforeService
            self.afterService = afterService
            self.inputSlots = inputSlots
            self.inputDescriptor = inputDescriptor
        }
    }

    let calls = LiveSystemCalls()
    public let clock: LinuxClock<LiveSystemCalls>
    let poller: Poller<LiveSystemCalls>
    let timer: TimerDescriptor<LiveSystemCalls>
    let signals: SignalDescriptor<LiveSystemCalls>
    let clockSet: WallClockSetDescriptor<LiveSystemCalls>
    /// The network edge signals it when a fetch is done (`ThreadedWeatherLink`'s `wake`).
    public let wake: WakeDescriptor<LiveSystemCalls>
    /// Loop wake-ups so far (poll returns).
    public private(set) var wakeups = 0
    /// Wall-clock sets seen so far (each woke the loop, and the turn's `service()` followed).
    public private(set) var clockSets = 0

    /// Blocks SIGTERM, SIGINT and SIGHUP for the calling thread (they arrive through the
    /// signalfd instead): create the loop on the thread that runs it, before starting others.
    public init(signals: [CInt] = [SIGTERM, SIGINT, SIGHUP]) throws(Errno) {
        clock = LinuxClock(calls: calls)
        poller = Poller(capacity: 40, calls: calls)
        timer = try TimerDescriptor(calls: calls)
        self.signals = try SignalDescriptor(signals: signals, calls: calls)
        wake = try WakeDescriptor(calls: calls)
        clockSet = try WallClockSetDescriptor(calls: calls)
    }

    /// The eventfd's signal, for `ThreadedWeatherLink(fetch:wake:)`.
    public var wakeSignal: @Sendable () -> Void {
        let wake = self.wake
        return { wake.signal() }
    }

    /// `run(_:gpsDescriptor:companion:until:)` with fixed GPIO descriptors.
    public func run<Bus, Inputs, Serial, Files>(
        _ device: Device<Bus, Inputs, Serial, LinuxClock<LiveSystemCalls>, Files>,
        gpsDescriptor: (Serial.Port) -> CInt, inputDescriptors: [CInt], until end: Instant? = nil
    ) throws(Errno) -> Stop {
        try run(
            device, gpsDescriptor: gpsDescriptor,
            companion: Companion(inputSlots: inputDescriptors.count, inputDescriptor: { inputDescriptors[$0] }), until: end)
    }

    /// Starts `device` (the first frame, once) and runs it until a signal or `end`. It may be
    /// called again, with the same device or another (the daemon after a reload).
    ///
    /// `gpsDescriptor` gives the open port's descriptor (the port changes on reconnects and
    /// during the baud hunt, so it is asked at every turn), -1 for a port with none (a
    /// simulated receiver).
    public func run<Bus, Inputs, Serial, Files>(
        _ device: Device<Bus, Inputs, Serial, LinuxClock<LiveSystemCalls>, Files>,
        gpsDescriptor: (Serial.Port) -> CInt, companion: Companion, until end: Instant? = nil
    ) throws(Errno) -> Stop {
        poller.removeAll()
        let signalSlot = poller.add(signals.fileDescriptor)
        let timerSlot = poller.add(timer.fileDescriptor)
        let wakeSlot = poller.add(wake.fileDescriptor)
        let clockSetSlot = poller.add(clockSet.fileDescriptor)
        let gpsSlot = poller.add(-1, events: 0)
        let firstInput = poller.count
        for _ in 0..<companion.inputSlots { _ = poller.add(-1) }
        companion.beforeService(clock.now())
        device.start()
        companion.afterService(clock.now())
        while true {
            let now = clock.now()
            if let end, now >= end { return .finished }
            let listening = device.location.wantsInput
            poller.replace(gpsSlot, with: device.location.port.map(gpsDescriptor) ?? -1, events: listening ? CShort(POLLIN) : 0)
            for slot in 0..<companion.inputSlots { poller.replace(firstInput + slot, with: companion.inputDescriptor(slot)) }
            var deadline = device.nextDeadline
            deadline = Instant.earliest(deadline, companion.nextDeadline())
            deadline = Instant.earliest(deadline, end)
            try timer.arm(at: deadline)
            _ = try poller.wait(timeout: nil)
            wakeups += 1
            if poller.isReadable(signalSlot), let signal = try signals.next() { return .signal(signal) }
            if poller.isReadable(timerSlot) { _ = try timer.acknowledge() }
            if poller.isReadable(wakeSlot) { _ = wake.drain() }
            if poller.isReadable(clockSetSlot), try clockSet.acknowledge() { clockSets += 1 }
            if poller.revents(gpsSlot) & CShort(POLLHUP | POLLERR | POLLNVAL) != 0 { device.location.hangUp() }
            let woke = clock.now()
            companion.beforeService(woke)
            device.service()
            companion.afterService(woke)
        }
    }
}

import Glibc
import HAL
import HALLinux
import SystemPackage

/// The device's loop on Linux (ARCHITECTURE §4): one thread, one `poll(2)` over the GPS tty,
/// the GPIO line-event descriptors, a timerfd armed at the next deadline, the eventfd the
/// network edge wakes it through, and a signalfd for SIGTERM, SIGINT and SIGHUP. Nothing sleeps;
/// every wake-up is one `Device.service()`.
///
/// The GPS tty is read on a timer, once per `gpsReadInterval`, and polled only for a hang-up
/// (`events` 0: POLLHUP and POLLERR are reported anyway). A receiver sends its epoch as a
/// burst of a few hundred bytes over ~0.2 s at 9600 Bd; polling it for input would wake the
/// loop for every few bytes the tty hands over, tens of times a second, where reading once a
/// second takes the whole burst in one wake-up (ARCHITECTURE §8: ≤ 2 wake-ups per second).
/// With `gpsReadInterval` nil the tty is polled for input like the other descriptors.
public final class DeviceLoop {
    public enum Stop: Equatable, Sendable {
        /// SIGTERM, SIGINT (finish and exit) or SIGHUP (reload), from the signalfd.
        case signal(CInt)
        /// `run(until:)` reached its end.
        case finished
    }

    let calls = LiveSystemCalls()
    let clock: LinuxClock<LiveSystemCalls>
    let poller: Poller<LiveSystemCalls>
    let timer: TimerDescriptor<LiveSystemCalls>
    let signals: SignalDescriptor<LiveSystemCalls>
    /// The network edge signals it when a fetch is done (`ThreadedWeatherLink`'s `wake`).
    public let wake: WakeDescriptor<LiveSystemCalls>
    public var gpsReadInterval: Duration?
    /// Loop wake-ups so far (poll returns).
    public private(set) var wakeups = 0
    var slots: (signal: Int, timer: Int, wake: Int, gps: Int)?

    /// Blocks SIGTERM, SIGINT and SIGHUP for the calling thread (they arrive through the
    /// signalfd instead): create the loop on the thread that runs it, before starting others.
    public init(gpsReadInterval: Duration? = .seconds(1), signals: [CInt] = [SIGTERM, SIGINT, SIGHUP]) throws(Errno) {
        clock = LinuxClock(calls: calls)
        poller = Poller(capacity: 40, calls: calls)
        timer = try TimerDescriptor(calls: calls)
        self.signals = try SignalDescriptor(signals: signals, calls: calls)
        wake = try WakeDescriptor(calls: calls)
        self.gpsReadInterval = gpsReadInterval
    }

    /// The eventfd's signal, for `ThreadedWeatherLink(fetch:wake:)`.
    public var wakeSignal: @Sendable () -> Void {
        let wake = self.wake
        return { wake.signal() }
    }

    /// Starts `device` (the first frame, once) and runs it until a signal or `end`; it may be
    /// called again to go on (the descriptors given first stay in the poll set).
    ///
    /// - `gpsDescriptor` gives the open port's descriptor (the port changes on reconnects and
    ///   during the baud hunt, so it is asked at every turn);
    /// - `inputDescriptors` are the GPIO line-event descriptors, read by `service()` when any
    ///   is readable.
    public func run<Bus, Inputs, Serial, Files>(
        _ device: Device<Bus, Inputs, Serial, LinuxClock<LiveSystemCalls>, Files>,
        gpsDescriptor: (Serial.Port) -> CInt, inputDescriptors: [CInt], until end: Instant? = nil
    ) throws(Errno) -> Stop {
        if slots == nil {
            slots = (
                poller.add(signals.fileDescriptor), poller.add(timer.fileDescriptor), poller.add(wake.fileDescriptor),
                poller.add(-1, events: gpsReadInterval == nil ? CShort(POLLIN) : 0)
            )
            for fd in inputDescriptors { _ = poller.add(fd) }
        }
        let (signalSlot, timerSlot, wakeSlot, gpsSlot) = slots!
        var nextRead = gpsReadInterval.map { clock.now() + $0 }
        device.start()
        while true {
            let now = clock.now()
            if let end, now >= end { return .finished }
            poller.replace(gpsSlot, with: device.location.port.map(gpsDescriptor) ?? -1)
            var deadline = Instant.earliest(device.nextDeadline, nextRead)
            deadline = Instant.earliest(deadline, end)
            try timer.arm(at: deadline)
            _ = try poller.wait(timeout: nil)
            wakeups += 1
            if poller.isReadable(signalSlot), let signal = try signals.next() { return .signal(signal) }
            if poller.isReadable(timerSlot) { _ = try timer.acknowledge() }
            if poller.isReadable(wakeSlot) { _ = wake.drain() }
            if poller.revents(gpsSlot) & CShort(POLLHUP | POLLERR | POLLNVAL) != 0 { device.location.hangUp() }
            if let interval = gpsReadInterval, let due = nextRead, clock.now() >= due {
                let late = (clock.now() - due).nanoseconds / interval.nanoseconds
                nextRead = due + .nanoseconds(interval.nanoseconds &* (late + 1))
            }
            device.service()
        }
    }
}

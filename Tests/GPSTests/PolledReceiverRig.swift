import GPS
import HAL
import HALSim
import SystemPackage

/// A receiver on a UART at its real byte rate, N_TTY's 4 KiB buffer in front of the location
/// service (bytes that do not fit are dropped and counted), and a virtual loop that wakes where
/// `DeviceLoop`'s poll(2) would: at the service's deadlines, and, while the service listens
/// (`wantsInput`), when the next byte arrives (POLLIN). Every byte raises POLLIN here, where a
/// 16550 hands the kernel a FIFO's worth at a time, so the wake-up counts are an upper bound.
final class PolledReceiverRig {
    let clock = VirtualClock()
    let devices: SimulatedSerialDevices
    let receiver: SimulatedSerialDevices.Receiver
    let service: LocationService<SimulatedSerialDevices, VirtualClock>
    let period: Duration
    let firstEpoch: Instant
    let epochBytes: (Int) -> [UInt8]
    /// Epochs the receiver sends; nil: for ever.
    var epochs: Int?
    private(set) var scheduled = 0
    private(set) var sentencesSent = 0
    private(set) var bytesSent = 0
    private(set) var wakeups = 0
    /// The most bytes the kernel's buffer held at a wake-up: the read's margin.
    private(set) var fullest = 0

    init(baud: BaudRate, period: Duration, epochs: Int? = nil, epoch: @escaping (Int) -> [UInt8]) {
        devices = SimulatedSerialDevices(clock: clock)
        receiver = devices.attach("/dev/ttyS1", baudRate: baud)
        receiver.wire.receiveBufferCapacity = SimulatedSerialPort.kernelTTYBuffer
        service = LocationService(devices: devices, clock: clock, configuration: .init(path: "/dev/ttyS1", baudRate: baud))
        self.period = period
        self.epochs = epochs
        epochBytes = epoch
        firstEpoch = clock.now() + .seconds(1)
        service.tick()  // opens the port
    }

    var wire: SimulatedSerialPort { receiver.wire }

    /// Runs the loop for `duration` of virtual time.
    func run(for duration: Duration) {
        let end = clock.now() + duration
        while true {
            // The receiver's epochs, two seconds ahead: further than any wake-up can jump while it sends.
            while epochs.map({ scheduled < $0 }) ?? true, firstEpoch + period * scheduled <= clock.now() + .seconds(2) {
                let bytes = epochBytes(scheduled)
                wire.schedule(bytes, at: firstEpoch + period * scheduled, baudRate: receiver.baudRate)
                sentencesSent += bytes.count { $0 == 0x24 }
                bytesSent += bytes.count
                scheduled += 1
            }
            var next = service.nextDeadline
            if service.wantsInput, let arrival = wire.nextArrival { next = Instant.earliest(next, arrival) }
            guard let wake = next, wake <= end else { break }
            if wake > clock.now() { clock.advance(to: wake) }
            fullest = max(fullest, wire.available)
            wakeups += 1
            service.readAvailable()
            service.tick()
        }
        if end > clock.now() { clock.advance(to: end) }
    }
}

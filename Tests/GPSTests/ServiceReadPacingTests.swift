import GPS
import HAL
import HALSim
import SystemPackage
import Testing

/// The GPS tty read as data arrives, so a u-blox at 115,200 Bd sending every sentence
/// at 10 Hz loses nothing to a full kernel buffer, at one wake-up per burst.
@Suite("GPS: reading the tty as data arrives")
struct ServiceReadPacingTests {
    static let route = hamiltonRoute(period: .milliseconds(100))

    @Test(
        "the hold is half the time the kernel's 4 KiB take to fill at the rate, at most 1 s",
        arguments: [
            (BaudRate.b4800, 8_533_333_333, 1_000_000_000), (.b9600, 4_266_666_666, 1_000_000_000),
            (.b19200, 2_133_333_333, 1_000_000_000), (.b38400, 1_066_666_666, 533_333_333),
            (.b57600, 711_111_111, 355_555_555), (.b115200, 355_555_555, 177_777_777),
        ] as [(BaudRate, Int64, Int64)])
    func pacing(baud: BaudRate, fill: Int64, hold: Int64) {
        let pacing = ReadPacing(baudRate: baud)
        #expect(pacing.fillTime == .nanoseconds(fill))
        #expect(pacing.holdOff == .nanoseconds(hold))
        #expect(pacing.budget == 4096)
    }

    @Test("the u-blox epochs are the load the virtual board sends: 880–915 bytes, 77–80 % of 115,200 Bd at 10 Hz")
    func ubloxLoad() {
        let plain = Self.route.ubloxSentences(epoch: 3)
        let withText = Self.route.ubloxSentences(epoch: 3, text: true)
        #expect((860...900).contains(plain.count), "\(plain.count) bytes")
        #expect((895...935).contains(withText.count), "\(withText.count) bytes")
        #expect(Double(withText.count * 10 * 10) / 11_520 > 0.78)
        // Every sentence decodes: the epoch is real NMEA, not filler.
        var receiver = NMEAReceiver()
        withText.withUnsafeBytes { receiver.consume($0) { _ in } }
        #expect(receiver.statistics.accepted == withText.count { $0 == 0x24 })
        #expect(receiver.statistics.rejected == 0)
        #expect(receiver.statistics.decoded == 15, "RMC VTG GGA GSA×2 GSV×7 GLL ZDA TXT: \(receiver.statistics)")
    }

    @Test("115,200 Bd, every sentence at 10 Hz, 10 simulated minutes, a 4 KiB kernel buffer: nothing lost, ~5.6 wake-ups a second")
    func fastReceiverLosesNothing() {
        let rig = PolledReceiverRig(baud: .b115200, period: .milliseconds(100), epochs: 6000) { k in
            Self.route.ubloxSentences(epoch: k, text: true)
        }
        rig.run(for: .seconds(603))
        let s = rig.service.statistics
        #expect(rig.scheduled == 6000)
        #expect(rig.wire.overrunBytes == 0, "bytes the 4 KiB buffer dropped")
        #expect(s.accepted == rig.sentencesSent, "accepted \(s.accepted) of \(rig.sentencesSent) sentences sent")
        #expect(s.rejected == 0)
        #expect(rig.service.losses == GPSLosses(kernel: SerialLossCounters()))
        #expect(rig.service.epochPeriod == .milliseconds(100))
        // The margin: a read never found the buffer more than half full.
        #expect(rig.fullest <= ReadPacing.kernelBuffer / 2, "fullest \(rig.fullest) bytes")
        let perSecond = Double(rig.wakeups) / 603
        #expect(perSecond > 5 && perSecond < 6.5, "\(rig.wakeups) wake-ups, \(perSecond) a second")
    }

    @Test("the same line read the old way, once a second, 8 × 1 KiB: the 4 KiB buffer overflows and most sentences are lost")
    func oncePerSecondLoses() throws {
        let clock = VirtualClock()
        let wire = SimulatedSerialPort(clock: clock, receiveBufferCapacity: SimulatedSerialPort.kernelTTYBuffer)
        var sent = 0
        for k in 0..<600 {
            let bytes = Self.route.ubloxSentences(epoch: k, text: true)
            sent += bytes.count { $0 == 0x24 }
            wire.schedule(bytes, at: clock.now() + .milliseconds(100) * k, baudRate: .b115200)
        }
        var receiver = NMEAReceiver()
        var chunk = [UInt8](repeating: 0, count: 1024)
        for _ in 0..<62 {
            clock.advance(by: .seconds(1))
            for _ in 0..<8 {
                let n = try chunk.withUnsafeMutableBytes { try wire.read(into: $0) }
                if n == 0 { break }
                chunk.withUnsafeBytes { receiver.consume(UnsafeRawBufferPointer(rebasing: $0[..<n])) { _ in } }
            }
        }
        let s = receiver.statistics
        #expect(wire.overrunBytes > 250_000, "dropped \(wire.overrunBytes) of \(600 * 915) bytes")
        #expect(s.accepted < sent / 2, "accepted \(s.accepted) of \(sent)")
        #expect(s.badChecksum + s.garbage > 0, "the cut sentences show as damage: \(s)")
    }

    @Test("9600 Bd, a NEO-6M at 1 Hz, 10 simulated minutes: nothing lost, one wake-up a second, none on a quiet line")
    func slowReceiverOneWakeASecond() {
        let route = hamiltonRoute()
        let rig = PolledReceiverRig(baud: .b9600, period: .seconds(1), epochs: 600) { k in
            route.ubloxSentences(epoch: k, glonass: false)
        }
        rig.run(for: .seconds(602))
        #expect(rig.wire.overrunBytes == 0)
        #expect(rig.service.statistics.accepted == rig.sentencesSent)
        #expect(rig.service.losses.isEmpty)
        let perSecond = Double(rig.wakeups) / 602
        #expect(perSecond <= 1.05, "\(rig.wakeups) wake-ups in 602 s")
        #expect(rig.fullest < 1000, "one epoch (\(route.ubloxSentences(epoch: 0, glonass: false).count) bytes) at most: \(rig.fullest)")
        // The receiver stopped: the hold's last read finds nothing, then only "no data" is due.
        let before = rig.wakeups
        rig.run(for: .seconds(600))
        #expect(rig.wakeups - before <= 2, "\(rig.wakeups - before) wake-ups in 10 quiet minutes")
        #expect(rig.service.state == .noData)
    }

    @Test("a flood (bytes faster than any UART) is read at most 4 KiB a wake-up, and the loop comes back at once")
    func floodIsBounded() throws {
        let rig = ServiceRig(path: "/dev/ttyS1", baudRate: .b115200)
        let receiver = rig.devices.attach("/dev/ttyS1", baudRate: .b115200)
        rig.service.tick()
        let epoch = Self.route.ubloxSentences(epoch: 0)
        for k in 0..<100 { receiver.wire.feed(Self.route.ubloxSentences(epoch: k)) }
        let total = receiver.wire.available
        #expect(total == 100 * epoch.count)
        var turns = 0
        while receiver.wire.available > 0 {
            let before = receiver.wire.bytesRead
            rig.service.readAvailable()
            turns += 1
            #expect(receiver.wire.bytesRead - before <= 4096)
            if receiver.wire.available > 0 { #expect(rig.service.wantsInput, "more waits: poll must answer at once") }
        }
        #expect(turns == (total + 4095) / 4096)
        #expect(rig.service.statistics.accepted == 100 * epoch.count { $0 == 0x24 })
        #expect(rig.service.readHoldUntil == rig.now + ReadPacing(baudRate: .b115200).holdOff)
        #expect(!rig.service.wantsInput)
        #expect(rig.service.nextDeadline == rig.now + ReadPacing(baudRate: .b115200).holdOff)
    }
}

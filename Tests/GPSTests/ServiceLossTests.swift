import GPS
import HAL
import HALSim
import SystemPackage
import Testing

/// What the GPS link loses is counted: damaged sentences as the framer finds them, and
/// the UART's and the kernel's dropped characters from TIOCGICOUNT, read once a minute.
@Suite("GPS: counting what the link loses")
struct ServiceLossTests {
    /// A 1 Hz receiver on a 9600 Bd line, its epochs fed as they arrive.
    func run(_ rig: ServiceRig, _ receiver: SimulatedSerialDevices.Receiver, epochs: Range<Int>) {
        let route = hamiltonRoute()
        for k in epochs {
            receiver.wire.feed(route.ubloxSentences(epoch: k, glonass: false))
            rig.run(for: .seconds(1))
        }
    }

    @Test("bytes dropped on the wire show as bad checksums and cut sentences, counted once the link worked")
    func noisyLine() {
        let rig = ServiceRig(path: "/dev/ttyS1")
        let receiver = rig.devices.attach("/dev/ttyS1")
        rig.service.tick()
        run(rig, receiver, epochs: 0..<5)
        #expect(rig.service.losses.sentences == 0)
        receiver.wire.noise = .init(dropProbability: 0.002, seed: 24)
        run(rig, receiver, epochs: 5..<305)
        let s = rig.service.statistics
        let losses = rig.service.losses
        #expect(receiver.wire.corruptedBytes > 100, "\(receiver.wire.corruptedBytes) bytes dropped")
        #expect(losses.sentences > 100, "\(losses)")
        #expect(losses.badChecksum == s.badChecksum)
        #expect(losses.cutShort == s.garbage + s.missingChecksum + s.overlong)
        #expect(losses.kernel == SerialLossCounters(), "the line dropped them, not the kernel")
    }

    @Test("damage before the link first worked (a wrong rate's junk while hunting, a half sentence at the open) is not a loss")
    func beforeTheLinkWorked() {
        let rig = ServiceRig(path: "/dev/ttyS1")
        let receiver = rig.devices.attach("/dev/ttyS1")
        rig.service.tick()
        // What a UART at the wrong rate can make of a receiver's bytes: a `$` now and then, and
        // printable junk, so the framer sees damaged sentences.
        receiver.wire.feed(Array("$G~P*00\r\n$GP,,X\u{7f}$GPRMC,1*00\r\n".utf8))
        rig.run(for: .seconds(1))
        #expect(rig.service.statistics.rejected == 3)
        run(rig, receiver, epochs: 0..<2)
        #expect(rig.service.losses.sentences == 0)
        receiver.wire.feed(Array("$GPRMC,1*00\r\n".utf8))
        rig.run(for: .seconds(1))
        #expect(rig.service.losses == GPSLosses(badChecksum: 1, kernel: SerialLossCounters()), "once it worked, damage is a loss")
    }

    @Test("the kernel's dropped bytes are read once a minute, counted from the open, and kept across reopens")
    func kernelCountsOnceAMinute() {
        let rig = ServiceRig(path: "/dev/ttyS1")
        let receiver = rig.devices.attach("/dev/ttyS1")
        receiver.wire.receiveBufferCapacity = 256
        receiver.wire.feed([UInt8](repeating: 0x41, count: 300))  // dropped before the open: not ours
        #expect(receiver.wire.overrunBytes == 44)
        rig.service.tick()
        #expect(rig.service.losses.kernel == SerialLossCounters(), "the open reads the baseline")
        receiver.wire.feed(hamiltonRoute().ubloxSentences(epoch: 0, glonass: false))  // ~540 bytes into 256
        let dropped = receiver.wire.overrunBytes - 44
        #expect(dropped > 200)
        rig.run(for: .seconds(59))
        #expect(rig.service.losses.kernel?.bufferOverrun == 0, "not read again before the minute")
        rig.run(for: .seconds(2))
        #expect(rig.service.losses.kernel == SerialLossCounters(bufferOverrun: dropped))
        // Unplugged and back: the count goes on from the new open's baseline.
        receiver.unplug()
        receiver.plugIn()
        receiver.wire.feed([UInt8](repeating: 0x41, count: 300))
        rig.run(until: { rig.service.port != nil && rig.service.disconnections == 1 })
        #expect(rig.service.losses.kernel == SerialLossCounters(bufferOverrun: dropped))
        receiver.wire.feed([UInt8](repeating: 0x41, count: 300))
        rig.run(for: .seconds(61))
        #expect(rig.service.losses.kernel == SerialLossCounters(bufferOverrun: dropped + 44))
    }

    @Test("a tty without the counts (USB ACM, a pty) reports none, and only the framing counts")
    func noCounters() {
        let rig = ServiceRig(path: "/dev/ttyACM0")
        let receiver = rig.devices.attach("/dev/ttyACM0")
        receiver.wire.keepsLossCounters = false
        rig.service.tick()
        run(rig, receiver, epochs: 0..<3)
        receiver.wire.feed(Array("$GPGGA,1*00\r\n".utf8))
        rig.run(for: .seconds(61))
        #expect(rig.service.losses == GPSLosses(badChecksum: 1))
        #expect(rig.service.losses.kernel == nil)
    }
}

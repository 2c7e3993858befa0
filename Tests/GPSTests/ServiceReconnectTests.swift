import GPS
import HAL
import HALSim
import Testing

/// Baud-rate hunting and the `/dev/serial/by-id` rescan, on simulated receivers.
@Suite struct ServiceReconnectTests {
    @Test func testBaudHunt_Order_StartsAfterTheConfiguredRateAndCycles() {
        var hunt = BaudHunt(configured: .b9600)
        #expect((0..<5).map { _ in hunt.advance() } == [.b4800, .b38400, .b115200, .b9600, .b4800])
        hunt = BaudHunt(configured: .b115200)
        #expect((0..<3).map { _ in hunt.advance() } == [.b9600, .b4800, .b38400])
        // A rate outside the order is tried again after the whole order.
        hunt = BaudHunt(configured: .b19200)
        #expect((0..<6).map { _ in hunt.advance() } == [.b9600, .b4800, .b38400, .b115200, .b19200, .b9600])
    }

    @Test func testBackoff_Sequence_DoublesToThirtyAndResets() {
        var backoff = ReconnectBackoff()
        #expect((0..<9).map { _ in backoff.take().seconds } == [0.5, 1, 2, 4, 8, 16, 30, 30, 30])
        backoff.reset()
        #expect(backoff.take() == .milliseconds(500))
    }

    @Test func testService_WrongBaud_HuntsEveryFiveSecondsAndStopsWhenSentencesAreValid() {
        let rig = ServiceRig(baudRate: .b9600)
        let receiver = rig.devices.attach("/dev/ttyACM0", baudRate: .b38400)
        let start = Instant(nanoseconds: 500_000_000)
        receiver.wire.load(script: hamiltonRoute().script(epochs: 90, start: start), baudRate: .b38400)
        rig.service.tick()

        // Bytes arrive from 0.5 s, none valid: 5 s later, the port reopens at 4800.
        #expect(rig.run(until: { rig.service.state == .noValidSentences }))
        #expect(rig.now >= start + .seconds(5))
        #expect(rig.now < start + .seconds(5) + .milliseconds(200))
        #expect(rig.devices.opens.map(\.baudRate) == [.b9600, .b4800])
        #expect(rig.service.statusLine == "GPS: bytes but no valid NMEA from /dev/ttyACM0 — wrong baud rate? now trying 4800 Bd")
        let firstHunt = rig.now

        // Still garbage at 4800: 38400 next, where the sentences are valid.
        #expect(rig.run(until: { rig.service.currentFix != nil }, limit: .seconds(20)))
        #expect(rig.devices.opens.map(\.baudRate) == [.b9600, .b4800, .b38400])
        #expect(rig.service.baudChanges == 2)
        #expect(!rig.service.isHunting)
        // The second step comes 5 s after the first garbage at 4800 (the next epoch, ~1 s after
        // the reopen); the fix one epoch after the first valid one (the epoch closes on the
        // next one's time until the receiver's cycle is learned).
        #expect(rig.now > firstHunt + .seconds(6))
        #expect(rig.now < firstHunt + .seconds(9))

        // And the hunt is over: the rate that works stays.
        rig.run(for: .seconds(30))
        #expect(rig.devices.opens.count == 3)
        #expect(rig.service.baudRate == .b38400)
        if case .fix = rig.service.state {} else { Issue.record("expected a fix, got \(rig.service.state)") }

        // An unplug and replug reopens at the rate found, not the configured one.
        receiver.unplug()
        rig.service.update()
        receiver.plugIn()
        rig.run(for: .seconds(1))
        #expect(rig.devices.opens.last?.baudRate == .b38400)
    }

    @Test func testService_GarbageThenSilence_IsNoDataNotAHunt() {
        let rig = ServiceRig()
        let receiver = rig.devices.attach("/dev/ttyACM0")
        for i in 0..<20 {
            receiver.wire.schedule(wrongRateBytes(50, seed: UInt64(i)), at: Instant(nanoseconds: Int64(i) * 100_000_000))
        }
        rig.run(for: .seconds(2))
        #expect(rig.service.state == .waiting)  // 2 s of garbage is not yet a verdict
        rig.run(for: .seconds(10))
        #expect(rig.service.state == .noData)
        #expect(rig.devices.opens.count == 1)
        #expect(rig.service.statistics.accepted == 0)
        #expect(rig.service.statistics.ignoredBytes > 0)
    }

    @Test func testService_ByIDLinkVanishes_OpensTheOnlyOtherByIDDevice() {
        let configured = SimulatedSerialDevices.byIDDirectory.appending("usb-u-blox_GNSS-if00")
        let rig = ServiceRig(path: configured)
        let a = rig.devices.attach("/dev/ttyACM0", byIDName: "usb-u-blox_GNSS-if00")
        rig.service.tick()
        #expect(rig.service.openPath == configured)

        // The puck is replaced by another model: a different by-id name, on ttyACM1.
        a.unplug()
        rig.service.update()
        #expect(rig.service.state == .noDevice)
        let b = rig.devices.attach("/dev/ttyACM1", byIDName: "usb-Prolific_PL2303-if00")
        rig.clock.advance(to: rig.service.nextDeadline!)
        rig.service.tick()
        let other = SimulatedSerialDevices.byIDDirectory.appending("usb-Prolific_PL2303-if00")
        #expect(rig.service.openPath == other)
        #expect(rig.devices.attempts.suffix(2) == [configured, other])  // the configured path first
        #expect(rig.service.statusLine == "GPS: listening on \(other) at 9600 Bd")

        // The configured receiver comes back while the other is gone: it wins again.
        b.unplug()
        a.plugIn()
        rig.service.update()
        rig.clock.advance(to: rig.service.nextDeadline!)
        rig.service.tick()
        #expect(rig.service.openPath == configured)
    }

    @Test func testService_ConfiguredPathMissing_UsesASingleByIDDeviceButNeverGuessesAmongSeveral() {
        let rig = ServiceRig(path: "/dev/serial0")
        rig.devices.attach("/dev/ttyACM0", byIDName: "usb-u-blox_GNSS-if00")
        rig.service.tick()
        #expect(rig.service.openPath == SimulatedSerialDevices.byIDDirectory.appending("usb-u-blox_GNSS-if00"))

        let ambiguous = ServiceRig(path: "/dev/serial0")
        ambiguous.devices.attach("/dev/ttyACM0", byIDName: "usb-u-blox_GNSS-if00")
        ambiguous.devices.attach("/dev/ttyUSB0", byIDName: "usb-FTDI_FT232R-if00-port0")
        ambiguous.service.tick()
        #expect(ambiguous.service.state == .noDevice)
        #expect(ambiguous.devices.attempts == ["/dev/serial0"])
        #expect(ambiguous.service.statusLine == "GPS: no device at /dev/serial0 and 2 in /dev/serial/by-id — set the GPS device to one of them (retry in 0.5 s)")
    }
}

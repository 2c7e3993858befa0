import GPS
import HAL
import HALSim
import Testing

/// Every state of the location service, reached through virtual time on simulated devices:
/// nothing here sleeps, and every transition is checked at the instant it must happen.
@Suite struct ServiceStateTests {
    @Test func testService_StatesThroughADrive_WaitingNoFixFixStaleNoData() throws {
        let rig = ServiceRig()
        let receiver = rig.devices.attach("/dev/ttyACM0", baudRate: .b9600)
        #expect(rig.service.state == .noDevice)
        #expect(rig.service.nextDeadline == .zero)  // the first attempt is due at once
        rig.service.tick()
        #expect(rig.service.state == .waiting)
        #expect(rig.devices.opens.map(\.baudRate) == [.b9600])
        #expect(rig.service.statusLine == "GPS: listening on /dev/ttyACM0 at 9600 Bd")

        // Epochs 0–2 without a fix, 3–9 with one, 10–19 without: a drive into a tunnel.
        let route = hamiltonRoute(noFix: Set(0..<3).union(10..<20))
        let start = Instant(nanoseconds: 500_000_000)
        receiver.wire.load(script: route.script(epochs: 20, start: start), baudRate: .b9600)
        rig.run(for: .milliseconds(400))
        #expect(rig.service.state == .waiting)

        #expect(rig.run(until: { rig.service.state == .noFix }))
        #expect(rig.now < start + .milliseconds(200))
        #expect(rig.service.statusLine.hasPrefix("GPS: no fix yet on /dev/ttyACM0"))

        #expect(rig.run(until: { rig.service.currentFix != nil }))
        #expect(rig.now < start + .milliseconds(3_400))  // epoch 3 closes on its own GSA
        let first = try #require(rig.service.lastFix)
        #expect(abs(first.fix.latitude!.degrees - route.position(after: 3).latitude) < 1e-6)
        guard case .fix(let age) = rig.service.state else { Issue.record("not a fix"); return }
        #expect(age < .milliseconds(100))

        // The last valid epoch (9) is current for exactly 5 epochs of 1 s, then stale.
        #expect(rig.run(until: { rig.service.lastFix!.fix.latitude != first.fix.latitude && rig.now > start + .seconds(9) }))
        #expect(rig.run(until: { if case .stale = rig.service.state { true } else { false } }))
        let last = try #require(rig.service.lastFix)
        #expect(rig.service.epochPeriod == .seconds(1))
        #expect(rig.service.staleAfter == .seconds(5))
        #expect(rig.now == last.receivedAt + .seconds(5))
        #expect(rig.service.state(at: rig.now - .nanoseconds(1)) == .fix(age: .seconds(5) - .nanoseconds(1)))
        #expect(abs(last.fix.latitude!.degrees - route.position(after: 9).latitude) < 1e-6)
        #expect(rig.service.currentFix == nil)  // kept, never current
        #expect(rig.service.latestEpoch?.mode == .noFix)
        #expect(rig.service.statusLine.hasPrefix("GPS: fix lost, last fix 5 s ago (stale)"))

        // The receiver falls silent after epoch 19: no data 3 s after its last byte.
        #expect(rig.run(until: { rig.service.state == .noData }))
        let lastByte = start + .seconds(19) + .nanoseconds(Int64(route.sentences(epoch: 19).count) * 10_000_000_000 / 9600)
        #expect(rig.now - lastByte >= .seconds(3))
        #expect(rig.now - lastByte < .seconds(3) + .milliseconds(100))
        #expect(rig.service.statusLine.hasPrefix("GPS: no data from /dev/ttyACM0 for 3 s — check wiring/power; last fix"))
        #expect(rig.service.lastFix == last)
        #expect(rig.service.nextDeadline == nil)  // nothing left to wake for: no busy loop
    }

    @Test func testService_BackoffWithNoDevice_HalfSecondDoublingToThirty() {
        let rig = ServiceRig()
        rig.service.tick()
        #expect(rig.service.state == .noDevice)
        #expect(rig.service.statusLine == "GPS: no device at /dev/ttyACM0 — plug the receiver in or check the path (retry in 0.5 s)")
        var delays: [Double] = []
        var previous = rig.now
        for _ in 0..<10 {
            let deadline = rig.service.nextDeadline!
            delays.append((deadline - previous).seconds)
            // Nothing happens a nanosecond early.
            let attempts = rig.devices.attempts.count
            rig.clock.advance(to: deadline - .nanoseconds(1))
            rig.service.tick()
            #expect(rig.devices.attempts.count == attempts)
            rig.clock.advance(to: deadline)
            rig.service.tick()
            #expect(rig.devices.attempts.count == attempts + 1)
            previous = deadline
        }
        #expect(delays == [0.5, 1, 2, 4, 8, 16, 30, 30, 30, 30])

        // A device appears: the next attempt opens it, and the back-off starts again at 0.5 s.
        let receiver = rig.devices.attach("/dev/ttyACM0")
        rig.clock.advance(to: rig.service.nextDeadline!)
        rig.service.tick()
        #expect(rig.service.state == .waiting)
        receiver.unplug()
        rig.service.update()
        #expect(rig.service.state == .noDevice)
        #expect(rig.service.nextDeadline == rig.now + .milliseconds(500))
    }

    @Test func testService_UnplugAndReplug_KeepsLastFixAsOldAndRecovers() throws {
        let rig = ServiceRig()
        let receiver = rig.devices.attach("/dev/ttyACM0")
        receiver.wire.load(script: hamiltonRoute().script(epochs: 10, start: .zero), baudRate: .b9600)
        #expect(rig.run(until: { rig.service.currentFix != nil }))
        // Unplug between two epochs, so no epoch is in progress (one would close at the unplug).
        #expect(rig.run(until: { rig.now >= Instant(nanoseconds: 3_600_000_000) }))
        let before = try #require(rig.service.lastFix)

        receiver.unplug()
        rig.service.update()
        #expect(rig.service.state == .noDevice)
        #expect(rig.service.disconnections == 1)
        #expect(rig.service.currentFix == nil)
        #expect(rig.service.lastFix == before)
        #expect(rig.service.statusLine.hasPrefix("GPS: /dev/ttyACM0 disconnected — reconnect the receiver (retry in 0.5 s); last fix"))
        let unplugged = rig.now

        rig.run(for: .seconds(2))  // attempts at +0.5 s and +1.5 s fail
        #expect(rig.devices.attempts.count == 3)
        #expect(rig.service.nextDeadline == unplugged + .milliseconds(3_500))

        receiver.plugIn()
        let resume = unplugged + .seconds(4)
        receiver.wire.load(script: hamiltonRoute().script(epochs: 10, start: resume), baudRate: .b9600)
        #expect(rig.run(until: { rig.service.port != nil }))
        #expect(rig.now == unplugged + .milliseconds(3_500))
        // The old fix (4 s) is still within 5 epochs: reported with its age, not as new.
        guard case .fix(let age) = rig.service.state else { Issue.record("\(rig.service.state)"); return }
        #expect(age == rig.now - before.receivedAt)
        #expect(rig.run(until: { rig.service.lastFix!.receivedAt > resume }))
        #expect(rig.service.currentFix != nil)
        #expect(rig.devices.opens.count == 2)
    }

    @Test func testService_PermissionDeniedAndBusy_SayWhatToDoAndKeepRetrying() {
        let rig = ServiceRig(path: "/dev/ttyAMA0")
        let receiver = rig.devices.attach("/dev/ttyAMA0")
        receiver.openFailure = .permissionDenied
        rig.service.tick()
        #expect(rig.service.state == .noDevice)
        #expect(rig.service.statusLine == "GPS: permission denied on /dev/ttyAMA0 — add the user to the dialout group (retry in 0.5 s)")
        rig.clock.advance(to: rig.service.nextDeadline!)
        receiver.openFailure = .busy
        rig.service.tick()
        #expect(rig.service.statusLine == "GPS: /dev/ttyAMA0 is in use by another process — stop gpsd or the serial console (retry in 1 s)")
        receiver.openFailure = nil
        rig.clock.advance(to: rig.service.nextDeadline!)
        rig.service.tick()
        #expect(rig.service.state == .waiting)
        #expect(rig.devices.attempts.count == 3)
    }

    @Test func testService_StaleThresholdFollowsTheEpochRate() {
        // 5 Hz: five epochs are 1 s, which is also the floor.
        let fast = ServiceRig()
        fast.devices.attach("/dev/ttyACM0").wire.load(
            script: hamiltonRoute(period: .milliseconds(200)).script(epochs: 20, start: .zero), baudRate: .b9600)
        fast.run(for: .seconds(3))
        #expect(fast.service.epochPeriod == .milliseconds(200))
        #expect(fast.service.staleAfter == .seconds(1))

        // 0.5 Hz: the fix of epoch 2 stays current for 10 s, through two epochs without a fix.
        let slow = ServiceRig()
        slow.devices.attach("/dev/ttyACM0").wire.load(
            script: hamiltonRoute(noFix: Set(3..<20), period: .seconds(2)).script(epochs: 20, start: .zero), baudRate: .b9600)
        #expect(slow.run(until: { if case .stale = slow.service.state { true } else { false } }))
        #expect(slow.service.epochPeriod == .seconds(2))
        #expect(slow.service.staleAfter == .seconds(10))
        #expect(slow.now == slow.service.lastFix!.receivedAt + .seconds(10))
    }
}

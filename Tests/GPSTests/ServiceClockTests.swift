import GPS
import HAL
import HALSim
import Testing

/// GPS time reaches the clock only after two consistent trusted epochs.
@Suite struct ServiceClockTests {
    @Test func testClockTime_AfterTwoConsistentEpochs_IsTheReceiversTime() throws {
        let rig = ServiceRig()
        let receiver = rig.devices.attach("/dev/ttyACM0")
        let route = hamiltonRoute()
        receiver.wire.load(script: route.script(epochs: 4, start: rig.now + .milliseconds(200)))
        // One epoch closes: trusted, but alone it may not set a clock.
        rig.run(until: { rig.service.latestEpoch != nil }, limit: .seconds(3))
        #expect(rig.service.latestEpoch?.timeIsTrusted == true)
        #expect(rig.service.clockTime == nil)
        rig.run(until: { rig.service.clockTime != nil }, limit: .seconds(3))
        let vouched = try #require(rig.service.clockTime)
        // The second epoch of the route (00:00:01) is the first that agrees with one before it.
        #expect(vouched.time.description == "2027-01-01T00:00:01.000Z")
    }

    @Test func testClockTime_NoFixEpochs_NeverSetTheClock() {
        let rig = ServiceRig()
        let receiver = rig.devices.attach("/dev/ttyACM0")
        let route = hamiltonRoute(noFix: Set(0..<6))
        receiver.wire.load(script: route.script(epochs: 6, start: rig.now + .milliseconds(200)))
        rig.run(for: .seconds(7))
        #expect(rig.service.latestEpoch != nil)
        #expect(rig.service.clockTime == nil)
    }
}

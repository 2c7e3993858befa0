import Foundation
import GPS
import HAL
import HALSim
import Testing

/// The simulated location service's inputs: a scripted route and a replayed capture, both real
/// NMEA through a `SimulatedSerialPort` and the same service code.
@Suite struct ServiceScriptTests {
    @Test func testRouteScript_Sentences_HaveValidChecksumsAndTheRoutePositions() throws {
        let route = hamiltonRoute(noFix: [2])
        var receiver = NMEAReceiver(rules: .live)
        var fixes: [Fix] = []
        for k in 0..<5 {
            route.sentences(epoch: k).withUnsafeBytes { receiver.consume($0) { if case .fix(let f) = $0 { fixes.append(f) } } }
        }
        receiver.finish { if case .fix(let f) = $0 { fixes.append(f) } }
        #expect(receiver.statistics.accepted == 15)
        #expect(receiver.statistics.rejected == 0)
        #expect(receiver.statistics.malformed == 0)
        #expect(fixes.map(\.mode) == [.threeD, .threeD, .noFix, .threeD, .threeD])
        let fourth = try #require(fixes[3].latitude)
        #expect(abs(fourth.degrees - route.position(after: 3).latitude) < 1e-6)
        #expect(abs(fourth.degrees - (-37.7848 + 30 / 111_194.9)) < 1e-6)  // 30 m north
        #expect(fixes[0].time?.description == "2027-01-01T00:00:00.000Z")
        #expect(fixes[4].satellitesUsed == 8)
        #expect(abs(fixes[4].speedMetresPerSecond! - 10) < 0.03)  // sent as 19.4 knots
    }

    @Test func testRouteScript_StopsAtTheLastWaypoint() {
        let route = hamiltonRoute()
        let end = route.position(after: 10_000)
        #expect(end == route.waypoints.last)
        #expect(NMEASentence.make("GPTXT,01,01,02,hi") == Array("$GPTXT,01,01,02,hi*4C\r\n".utf8))
    }

    @Test func testCaptureScript_SplitsEpochsSkipsCommentsAndSpacesThemByThePeriod() {
        let capture = """
            # Name: test
            $GPRMC,,V,,,,,,,,,,N*53
            $GPGSV,1,1,00*79
            $GPRMC,,V,,,,,,,,,,N*53\r
            $GPGSV,1,1,00*79
            $GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7D
            $GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D

            $GPGGA,030720.000,3747.0875,S,17518.8938,E,1,08,1.1,59.8,M,23.7,M,,0000*70
            """
        let script = NMEACaptureScript.script(Array(capture.utf8), start: .zero, epochPeriod: .milliseconds(500))
        #expect(script.map(\.0) == (0..<4).map { Instant(nanoseconds: $0 * 500_000_000) })
        let epochs = script.map { String(decoding: $0.1, as: UTF8.self) }
        // Before the fix the time field is empty: the repeated RMC is what splits the epochs.
        #expect(epochs[0] == "$GPRMC,,V,,,,,,,,,,N*53\r\n$GPGSV,1,1,00*79\r\n")
        #expect(epochs[1] == epochs[0])  // CR LF whatever the file had
        #expect(epochs[2].hasPrefix("$GPRMC,030719.000,"))
        #expect(epochs[2].components(separatedBy: "\r\n").count == 3)  // RMC and GGA of one time
        #expect(epochs[3].hasPrefix("$GPGGA,030720.000,"))
    }

    @Test(.enabled(if: nmeaCorpusPresent, "needs ../shared/corpus/nmea beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here gpsd's regression captures of 20 receivers with gpsd's decoded fixes"))
    func testServiceCorpus_ReplayedCaptureAt4800Bd_GivesTheCapturesFixes() throws {
        let bytes = try corpusStream("bu353s4.log")
        let script = NMEACaptureScript.script(bytes, start: .zero)
        let rig = ServiceRig(baudRate: .b4800)
        rig.devices.attach("/dev/ttyACM0", baudRate: .b4800).wire.load(script: script, baudRate: .b4800)
        var fixes = 0
        var last: ReceivedFix?
        rig.service.tick()
        while rig.now < Instant(nanoseconds: Int64(script.count + 2) * 1_000_000_000) {
            rig.run(for: .milliseconds(100))
            if rig.service.lastFix != last { fixes += 1; last = rig.service.lastFix }
            if rig.service.lastFix != nil, case .stale = rig.service.state { Issue.record("stale at \(rig.now)") }
        }
        // SiRF at 4800 Bd sends the whole 1 s epoch with time to spare: one fix per epoch,
        // every epoch valid in this capture (gpsd's .chk has mode 3 throughout).
        #expect(fixes == script.count)
        #expect(rig.service.statistics.rejected == 0)
        let fix = try #require(last?.fix)
        #expect(fix.mode == .threeD)
        #expect(abs(fix.latitude!.degrees - -37.784) < 0.01)
        #expect(abs(fix.longitude!.degrees - 175.3149) < 0.01)
        #expect(rig.run(until: { rig.service.state == .noData }, limit: .seconds(5)))  // the capture ended
    }
}

import Foundation
import GPS
import Glibc
import HAL
import HALLinux
import HALSim
import SystemPackage
import Testing

/// The location service end to end on the real Linux serial port: a pseudo-terminal plays the
/// receiver (closing it is the unplug), a directory of symlinks plays `/dev/serial0` and
/// `/dev/serial/by-id`. Reading the pty is real; the service's time is a `VirtualClock`, so
/// timeouts and back-off are exact and nothing sleeps: the test waits for bytes in poll(2).
@Suite struct ServicePseudoTerminalTests {
    typealias PtyService = LocationService<LinuxSerialDevices<LiveSystemCalls>, VirtualClock>

    /// A fresh directory of device links, removed at the end.
    final class LinkDirectory {
        let path: String
        init() throws {
            path = NSTemporaryDirectory() + "thunderstorm-gps-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: path + "/by-id", withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func link(_ name: String, to pty: PseudoTerminal) throws {
            try FileManager.default.createSymbolicLink(atPath: path + "/" + name, withDestinationPath: pty.slavePath.string)
        }
        func remove(_ name: String) throws { try FileManager.default.removeItem(atPath: path + "/" + name) }
    }

    /// Reads what the pty delivers until `condition` holds: waits in poll on the port's
    /// descriptor (50 ms at a time, 3 s at most), never in sleep.
    @discardableResult
    func pump(_ service: PtyService, until condition: () -> Bool) -> Bool {
        for _ in 0..<60 where !condition() {
            guard let fd = service.port?.fileDescriptor else { break }
            var entry = pollfd(fd: fd, events: CShort(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            service.readAvailable()
            if entry.revents & CShort(POLLHUP | POLLERR) != 0 { service.hangUp() }
        }
        return condition()
    }

    /// Writes route epochs `epochs` (1 s apart in virtual time) and reads them through.
    func feed(_ pty: PseudoTerminal, _ service: PtyService, clock: VirtualClock, epochs: Range<Int>) throws {
        let route = hamiltonRoute()
        for k in epochs {
            let before = service.statistics.accepted
            try pty.write(route.sentences(epoch: k))
            #expect(pump(service) { service.statistics.accepted == before + 3 })
            service.tick()
            clock.advance(by: .seconds(1))
        }
    }

    @Test func testServicePty_FixSilenceWrongBaudUnplugReplug_EndToEnd() throws {
        let links = try LinkDirectory()
        let pty = try PseudoTerminal()
        try links.link("serial0", to: pty)
        let clock = VirtualClock()
        let path = FilePath(links.path + "/serial0")
        let service = PtyService(
            devices: LinuxSerialDevices(byIDDirectory: FilePath(links.path + "/by-id")), clock: clock,
            configuration: .init(path: path, baudRate: .b9600))
        service.tick()
        #expect(service.state == .waiting)
        #expect(service.port != nil)

        // A fix.
        try feed(pty, service, clock: clock, epochs: 0..<4)
        #expect(service.currentFix != nil)
        if case .fix = service.state {} else { Issue.record("expected a fix, got \(service.state)") }

        // Silence: no data 3 s after the last byte.
        clock.advance(by: .seconds(2))
        service.tick()
        #expect(service.state == .noData)
        #expect(service.statusLine.hasPrefix("GPS: no data from \(path) for 3 s — check wiring/power"))

        // The wrong baud rate: high-bit bytes for 5 s, then the port is reopened at 4800.
        for second in 0...5 {
            let before = service.statistics.ignoredBytes
            try pty.write(wrongRateBytes(200, seed: UInt64(second)))
            #expect(pump(service) { service.statistics.ignoredBytes == before + 200 })
            service.tick()
            #expect(service.baudRate == (second < 5 ? .b9600 : .b4800))
            if second < 5 { clock.advance(by: .seconds(1)) }
        }
        #expect(service.state == .noValidSentences)
        var attributes = termios()
        #expect(tcgetattr(service.port!.fileDescriptor, &attributes) == 0)
        #expect(cfgetispeed(&attributes) == speed_t(B4800))  // really reopened at 4800

        // Valid sentences again: the hunt stops, the rate stays.
        try feed(pty, service, clock: clock, epochs: 4..<7)
        #expect(!service.isHunting)
        #expect(service.currentFix != nil)
        #expect(service.baudRate == .b4800)

        // Unplug: the other side closes, the link goes; retries at +0.5 s, +1 s, +2 s.
        let kept = service.lastFix
        pty.close()
        try links.remove("serial0")
        #expect(pump(service) { service.port == nil })
        #expect(service.state == .noDevice)
        #expect(service.disconnections == 1)
        #expect(service.lastFix == kept)
        var delays: [Duration] = []
        for _ in 0..<3 {
            let deadline = try #require(service.nextDeadline)
            delays.append(deadline - clock.now())
            clock.advance(to: deadline)
            service.tick()
            #expect(service.state == .noDevice)
        }
        #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2)])
        #expect(service.statusLine.hasPrefix("GPS: no device at \(path) — plug the receiver in or check the path (retry in 4 s)"))
        #expect(service.currentFix == nil)

        // Replug: a new pty behind the same name; the next attempt opens it at the rate found.
        let replugged = try PseudoTerminal()
        try links.link("serial0", to: replugged)
        clock.advance(to: try #require(service.nextDeadline))
        service.tick()
        #expect(service.port != nil)
        #expect(service.baudRate == .b4800)
        try feed(replugged, service, clock: clock, epochs: 7..<9)
        #expect(service.lastFix!.receivedAt > kept!.receivedAt)
        #expect(service.currentFix != nil)
    }

    @Test func testServicePty_ByIDLinkReplaced_RescanFindsTheNewReceiver() throws {
        let links = try LinkDirectory()
        let first = try PseudoTerminal()
        try links.link("by-id/usb-u-blox_GNSS-if00", to: first)
        let clock = VirtualClock()
        let service = PtyService(
            devices: LinuxSerialDevices(byIDDirectory: FilePath(links.path + "/by-id")), clock: clock,
            configuration: .init(path: FilePath(links.path + "/by-id/usb-u-blox_GNSS-if00"), baudRate: .b9600))
        service.tick()
        #expect(service.port != nil)

        first.close()
        try links.remove("by-id/usb-u-blox_GNSS-if00")
        #expect(pump(service) { service.port == nil })
        let second = try PseudoTerminal()
        try links.link("by-id/usb-Prolific_PL2303-if00-port0", to: second)
        clock.advance(to: try #require(service.nextDeadline))
        service.tick()
        #expect(service.openPath == FilePath(links.path + "/by-id/usb-Prolific_PL2303-if00-port0"))
        try feed(second, service, clock: clock, epochs: 0..<2)
        #expect(service.statistics.accepted == 6)
    }

    @Test(.enabled(if: nmeaCorpusPresent, "needs ../shared/corpus/nmea beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here gpsd's regression captures of 20 receivers with gpsd's decoded fixes"))
    func testServicePtyCorpus_RealCapture_GivesAFix() throws {
        let pty = try PseudoTerminal()
        let clock = VirtualClock()
        let service = PtyService(
            devices: LinuxSerialDevices(byIDDirectory: "/nonexistent-by-id"), clock: clock,
            configuration: .init(path: pty.slavePath, baudRate: .b4800))
        service.tick()
        let epochs = NMEACaptureScript.epochs(try corpusStream("bu353s4.log"))
        var fixes = 0
        for epoch in epochs {
            let before = service.statistics.accepted
            let lines = epoch.filter { $0 == 0x0A }.count
            let previous = service.lastFix
            try pty.write(epoch)
            #expect(pump(service) { service.statistics.accepted == before + lines })
            if service.lastFix != previous { fixes += 1 }
            clock.advance(by: .seconds(1))
        }
        #expect(fixes >= epochs.count - 1)  // the last epoch may close only at the next one
        #expect(service.statistics.rejected == 0)
        let fix = try #require(service.lastFix?.fix)
        #expect(abs(fix.latitude!.degrees - -37.7848) < 0.001)
        #expect(abs(fix.longitude!.degrees - 175.3149) < 0.001)
        #expect(fix.mode == .threeD)
    }
}

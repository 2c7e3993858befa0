@testable import App
import Core
import Glibc
import HALSim
import HAL
@testable import HALLinux
import Screens
import SystemPackage
import Testing

/// The I²C adapter goes away and comes back (a USB adapter unplugged, a HAT reset),
/// on the daemon's kernel path (`KernelBusRig`: `ReopeningI2CBus` over i2c-dev's twin).
@Suite("Device: the I²C adapter gone and back")
struct AdapterGoneTests {
    static let gone = "i2c-1 gone"

    @Test("unplugged: the descriptor is closed in the turn that found it gone, the status says so, nothing is sent, no busy loop")
    func unplugged() {
        let rig = KernelBusRig()
        rig.start()
        rig.advance(by: .seconds(90))
        #expect(rig.device.state.display == .ok)
        #expect(rig.kernel.openDescriptors == 1)
        let healthyStart = rig.device.counters.wakeups
        rig.advance(by: .seconds(600))
        let healthyWakeups = rig.device.counters.wakeups - healthyStart

        rig.kernel.unplug()
        let unpluggedAt = rig.kernel.journal.count
        rig.advance(by: .seconds(61))  // a minute's frame and a sensor reading find it gone
        let failures = rig.kernel.journal[unpluggedAt...].filter { $0.call.hasSuffix("-> \(EOPNOTSUPP)") }
        let closes = rig.kernel.calls("close")
        #expect(failures.count == 1, "one failed call, then nothing on that descriptor: \(failures)")
        #expect(closes.count == 1)
        #expect(closes.first?.turn == failures.first?.turn, "closed in the loop turn that found the adapter gone")
        #expect(rig.kernel.openDescriptors == 0)
        #expect(rig.kernel.removing == nil, "the kernel could finish removing the adapter")
        #expect(rig.device.state.display == .failing(Self.gone))
        #expect(rig.line("Disp") == StatusLine("Disp", Self.gone, isProblem: true))
        #expect(DaemonStatus.text(rig.device.state.model.statusLines).contains("Disp \(Self.gone)"))
        #expect(rig.recorder.events == [.gone(I2CError(.adapterGone, errno: Errno(rawValue: EOPNOTSUPP)))])
        #expect(rig.recorder.log.contains("display: \(Self.gone)"))

        // Ten minutes away: a try now and then (1 s doubling to 15 s, and the sensor's minute),
        // each one open(2) that fails; no frame, no byte on the bus.
        let frames = rig.device.counters.frames
        let attempts = rig.bus.openAttempts
        let goneStart = rig.device.counters.wakeups
        let logged = rig.simulated.log.endIndex
        rig.advance(by: .seconds(600))
        let tries = rig.bus.openAttempts - attempts
        #expect(tries >= 40 && tries <= 60, "\(tries) opens in 10 minutes")
        #expect(rig.device.counters.wakeups - goneStart <= healthyWakeups + 30, "wake-ups: \(rig.device.counters.wakeups - goneStart) gone, \(healthyWakeups) healthy")
        #expect(rig.device.counters.frames == frames)
        #expect(rig.panelWrites(from: logged).isEmpty)
        let sent = rig.kernel.journal.filter { $0.turn > goneStart && !$0.call.contains("->") && ($0.call.hasPrefix("write") || $0.call == "ioctl I2C_RDWR") }
        #expect(sent.isEmpty, "transfers while gone: \(sent)")
        #expect(rig.recorder.events.count == 1, "an adapter still away is not told again: \(rig.recorder.events)")
    }

    @Test("plugged back: the whole initialisation and a full frame, the sensor again, then frames are diffs")
    func pluggedBack() {
        let rig = KernelBusRig()
        rig.start()
        rig.advance(by: .seconds(90))
        rig.kernel.unplug()
        rig.advance(by: .seconds(300))
        #expect(rig.device.state.display == .failing(Self.gone))
        #expect(rig.device.state.indoor == .failed(Self.gone))

        rig.kernel.plugIn()  // the panel and the sensor come back at power-on
        let logged = rig.simulated.log.endIndex
        rig.advance(by: .seconds(16))
        #expect(rig.device.state.display == .ok)
        #expect(rig.recorder.events.last == .opened)
        let writes = rig.panelWrites(from: logged)
        #expect(writes.first?.first == 0x00 && writes.first?.contains(0xA8) == true, "the initialisation first: \(writes.first.map(Array.init) ?? [])")
        #expect(writes.contains { $0.count == 1025 && $0.first == 0x40 && $0.dropFirst().allSatisfy { $0 == 0 } }, "RAM cleared")
        let data = writes.filter { $0.first == 0x40 }.reduce(0) { $0 + $1.count - 1 }
        #expect(data >= 2 * 1024, "RAM cleared and a full frame: \(data) data bytes")
        #expect(writes.last.map(Array.init) == [0x00, 0xAF], "display on last")
        Self.expectGlassAgrees(rig)
        guard case .reading? = rig.device.state.indoor else {
            Issue.record("the sensor was not read again: \(String(describing: rig.device.state.indoor))")
            return
        }
        #expect(rig.line("Disp")?.isProblem == false)
        #expect(rig.line("Sens")?.isProblem == false)

        let diffFrom = rig.simulated.log.endIndex
        rig.advance(by: .seconds(61))
        let next = rig.panelWrites(from: diffFrom)
        #expect(!next.isEmpty)
        #expect(!next.contains { $0.first == 0x00 && $0.contains(0xA8) }, "no initialisation")
        #expect(rig.device.counters.lastFlushPayloadBytes <= 64, "a minute's diff: \(rig.device.counters.lastFlushPayloadBytes) bytes")
        Self.expectGlassAgrees(rig)
    }

    @Test("plugged back before the descriptor was closed: the kernel registers it at the close, the frame follows")
    func replugWhileOpen() {
        let rig = KernelBusRig()
        rig.start()
        rig.advance(by: .seconds(90))
        rig.kernel.unplug()
        rig.kernel.plugIn()
        #expect(rig.kernel.registered == nil, "held by the open descriptor")
        rig.advance(by: .seconds(61))
        #expect(rig.kernel.openDescriptors == 1, "reopened")
        #expect(rig.device.state.display == .ok)
        Self.expectGlassAgrees(rig)
        // The close, then the new adapter's descriptor: in the same turn, since the part that
        // found the old one gone had the display draw again at once.
        let calls = rig.kernel.journal.map(\.call)
        let closed = calls.firstIndex { $0.hasPrefix("close") }
        let reopened = calls.lastIndex { $0.hasPrefix("open -> ") }
        #expect(closed != nil && reopened != nil && reopened! > closed!, "\(calls.suffix(12))")
    }

    @Test("missing at start: said once, tried on the clock, opened when it appears")
    func missingAtStart() {
        let rig = KernelBusRig(adapterPlugged: false)
        rig.start()
        rig.advance(by: .seconds(120))
        #expect(rig.device.counters.frames == 0)
        #expect(rig.device.state.display == .failing(Self.gone))
        #expect(rig.recorder.events == [.cannotOpen(I2CError(.adapterGone, errno: .noSuchFileOrDirectory))])
        #expect(rig.bus.openAttempts <= 20, "\(rig.bus.openAttempts) opens in 2 minutes")
        rig.kernel.plugIn()
        rig.advance(by: .seconds(16))
        #expect(rig.device.counters.frames >= 1)
        #expect(rig.device.state.display == .ok)
        #expect(rig.recorder.events.last == .opened)
        Self.expectGlassAgrees(rig)
    }

    @Test("the panel unplugged from a live adapter is a NACK: the descriptor stays open, the panel is retried")
    func panelNACK() {
        let rig = KernelBusRig()
        rig.start()
        rig.advance(by: .seconds(90))
        rig.simulated.detach(0x3C)
        rig.advance(by: .seconds(61))
        #expect(rig.device.state.display == .failing("no answer (NACK)"))
        #expect(rig.kernel.calls("write -> \(ENXIO)").count >= 1)
        #expect(rig.kernel.calls("close").isEmpty)
        #expect(rig.bus.openAttempts == 1)
        #expect(rig.recorder.events.isEmpty)
        rig.simulated.reattach(0x3C)
        rig.advance(by: .seconds(61))
        #expect(rig.device.state.display == .ok)
        Self.expectGlassAgrees(rig)
        #expect(rig.kernel.openDescriptors == 1)
    }

    /// The glass shows the device's state (and says where not, as ASCII art).
    static func expectGlassAgrees(_ rig: KernelBusRig, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = rig.expectedGlass
        let actual = rig.panel.snapshot()
        let agrees = actual == expected
        #expect(agrees, "the glass differs:\n\(agrees ? "" : PanelImage.differenceArt(expected: expected, actual: actual))", sourceLocation: sourceLocation)
    }

    @Test("the daemon's log lines")
    func logLines() {
        let path: FilePath = "/dev/i2c-1"
        #expect(
            BoardBus.line(.gone(I2CError(.adapterGone, errno: Errno(rawValue: EOPNOTSUPP))), path: path)
                == "/dev/i2c-1: adapter gone (Operation not supported); descriptor closed, opening it again when it is back")
        #expect(BoardBus.line(.opened, path: path) == "/dev/i2c-1: adapter opened")
        var lines: [String] = []
        var bus = BoardBus(kernelAdapter: "/dev/thunderstorm-no-such-i2c", report: { lines.append($0) })
        #expect(throws: I2CError(.adapterGone, errno: .noSuchFileOrDirectory)) { try bus.write(address: 0x3C, [0x00, 0xAE]) }
        #expect(lines == ["/dev/thunderstorm-no-such-i2c: cannot open (No such file or directory); enable I²C (sudo raspi-config nonint do_i2c 0, or scripts/setup-pi.sh) or plug the adapter in, retrying"])
    }
}

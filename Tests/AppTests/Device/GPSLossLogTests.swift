import App
import GPS
import HAL
import HALSim
import Testing

/// The device says when the GPS link loses sentences, in one log line starting
/// `GPS: lost `, at most one a minute, and never on a clean link (what the virtual board
/// asserts after its 10-minute run at 115,200 Bd).
@Suite("Device: GPS losses in the log")
struct GPSLossLogTests {
    static func lossLines(_ board: SimulatedBoard) -> [(seconds: Double, text: String)] {
        board.timeline.filter { $0.text.hasPrefix("GPS: lost ") }
    }

    @Test("a clean link logs no loss; a noisy one a line at once, then at most one a minute")
    func lossLines() throws {
        let board = DeviceRig.make()
        let receiver = try #require(board.receiver)
        board.advance(by: .seconds(600))
        #expect(board.device.state.gps.kind == .fix)
        #expect(Self.lossLines(board).isEmpty, "\(Self.lossLines(board))")
        receiver.wire.noise = .init(dropProbability: 0.01, seed: 7)
        let noisyFrom = board.clock.now()
        board.advance(by: .seconds(300))
        // Clean again: what the last minute lost is told at the minute, then nothing more.
        receiver.wire.noise = nil
        board.advance(by: .seconds(120))
        let lines = Self.lossLines(board)
        #expect((5...7).contains(lines.count), "\(lines.map(\.text))")
        let first = try #require(lines.first)
        #expect(first.seconds - Double((noisyFrom - board.startInstant).nanoseconds) / 1e9 <= 2, "the first loss is told at once")
        for (a, b) in zip(lines, lines.dropFirst()) { #expect(b.seconds - a.seconds >= 60) }
        #expect(first.text.contains(" on the simulated receiver at 9600 Bd in "), "\(first.text)")
        #expect(first.text.contains(" bad checksum, "), "\(first.text)")
        #expect(first.text.hasSuffix("damaged on the wire: check the wiring, the ground and the baud rate"), "\(first.text)")
        // Every lost sentence is in exactly one line.
        let told = lines.reduce(0) { $0 + Self.count(in: $1.text) }
        let lost = board.device.location.losses.sentences
        #expect(told == lost && lost > 100, "told \(told) of \(lost)")
    }

    @Test("the line names the kernel's dropped bytes and blames a late read when its buffer overflowed")
    func kernelOverflowLine() {
        var grown = GPSLosses(badChecksum: 2, cutShort: 1, kernel: SerialLossCounters(overrun: 0, bufferOverrun: 812))
        #expect(
            SimulatedBoard.SimDevice.lossLine(grown, path: "/dev/ttyS1", baud: .b115200, over: .seconds(60))
                == "GPS: lost 3 sentences and 812 bytes on /dev/ttyS1 at 115200 Bd in 1 min (2 bad checksum, 1 cut short;"
                + " kernel: 812 bytes with its tty buffer full, 0 UART FIFO overruns) — the daemon read the tty too late"
                + " (a stalled loop or an overloaded CPU)")
        grown.kernel = nil
        #expect(
            SimulatedBoard.SimDevice.lossLine(grown, path: "/dev/ttyACM0", baud: .b9600, over: .seconds(5))
                .hasSuffix("(2 bad checksum, 1 cut short; this tty keeps no overrun counts) — damaged on the wire: check the wiring, the ground and the baud rate"))
    }

    /// "GPS: lost 12 sentences…" → 12.
    static func count(in line: String) -> Int {
        Int(line.dropFirst("GPS: lost ".count).prefix { $0.isNumber }) ?? 0
    }
}

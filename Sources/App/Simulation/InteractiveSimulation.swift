import Glibc
import HAL
import HALLinux
import SystemPackage

/// `simulate` on a terminal: the simulated board runs in real time (or `speed` times faster),
/// the panel is drawn in the terminal, and keys are the buttons.
///
/// The loop is the device's Linux loop (docs/design/architecture.md#the-loop): one `poll(2)` over the terminal,
/// a timerfd armed at the board's next wake-up, a signalfd for SIGINT/SIGTERM/SIGHUP, and the
/// eventfd a real weather fetch wakes it through. Virtual time follows the monotonic clock:
/// at each wake-up the board is advanced to `start + speed × (real time elapsed)`.
public final class InteractiveSimulation {
    public let board: SimulatedBoard
    public let terminal: TerminalSession
    public let speed: Double
    /// The eventfd a real weather fetch wakes the loop through.
    public let wake: WakeDescriptor<LiveSystemCalls>?
    private var keys: [UInt8] = []

    public init(board: SimulatedBoard, terminal: TerminalSession, speed: Double, wake: WakeDescriptor<LiveSystemCalls>?) {
        self.board = board
        self.terminal = terminal
        self.speed = speed
        self.wake = wake
        board.waitsForRealFetches = false
    }

    /// Runs until `q`, Ctrl-C, SIGINT/SIGTERM or a hang-up and returns the reason; the caller
    /// gives the terminal back (`TerminalSession.restore()`, or its deinit).
    public func run() throws(Errno) -> String {
        let calls = LiveSystemCalls()
        let real = LinuxClock(calls: calls)
        let signals = try SignalDescriptor(calls: calls)
        let timer = try TimerDescriptor(calls: calls)
        let poller = Poller(capacity: 4, calls: calls)
        let keySlot = poller.add(terminal.input)
        let timerSlot = poller.add(timer.fileDescriptor)
        let signalSlot = poller.add(signals.fileDescriptor)
        let wakeSlot = wake.map { poller.add($0.fileDescriptor) }
        let realStart = real.now()
        let virtualStart = board.clock.now()
        func virtualTime(_ instant: Instant) -> Instant {
            virtualStart + .nanoseconds(Int64(Double((instant - realStart).nanoseconds) * speed))
        }
        func realTime(_ instant: Instant) -> Instant {
            realStart + .nanoseconds(Int64(Double((instant - virtualStart).nanoseconds) / speed))
        }
        board.start()
        var drawnFrames = -1
        var drawnSecond: Int64 = -1
        while true {
            // Wake at the board's next event, and at least every second for the status line.
            let nextSecond = real.now() + .seconds(1)
            let due = board.nextWake.map { min(realTime($0), nextSecond) } ?? nextSecond
            try timer.arm(at: due)
            _ = try poller.wait(timeout: nil)
            if poller.isReadable(signalSlot), let signal = try signals.next() {
                return signal == SIGHUP ? "hang-up" : "signal \(signal)"
            }
            if poller.isReadable(timerSlot) { _ = try timer.acknowledge() }
            if let wakeSlot, poller.isReadable(wakeSlot) { _ = wake?.drain() }
            board.advance(to: max(virtualTime(real.now()), board.clock.now()))
            if poller.revents(keySlot) != 0 {
                keys.removeAll(keepingCapacity: true)
                _ = terminal.readKeys(into: &keys)
                if terminal.isHungUp { return "hang-up" }
                for key in SimulatorKey.keys(in: keys) {
                    switch key {
                    case .quit:
                        return "quit"
                    case .press(let button):
                        board.note("key: press \(Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(button))))")
                        board.apply(.press(button: button))
                    case .hold(let button):
                        board.note("key: hold \(Character(Unicode.Scalar(UInt8(ascii: "A") + UInt8(button))))")
                        board.apply(.hold(button: button, duration: .milliseconds(1200)))
                    }
                }
                board.wake()
            }
            let second = board.clock.wallTime().seconds
            if board.device.counters.frames != drawnFrames || second != drawnSecond {
                drawnFrames = board.device.counters.frames
                drawnSecond = second
                draw()
            }
        }
    }

    /// The panel (the glass as the controller model lights it: an LCD's 5×8 dots too, so its
    /// custom glyphs look as they do on the module), then the status line, then the keys.
    public func draw() {
        var lines = TerminalPicture.panel(board.glass)
        let width = lines.first?.count ?? 80
        lines.append(TerminalPicture.statusLine(board.statusLine, width: max(width, 60)))
        lines.append(TerminalPicture.statusLine(SimulatorKey.help, width: max(width, 60)))
        terminal.draw(lines)
    }
}

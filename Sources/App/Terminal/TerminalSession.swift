#if os(Linux)
import Glibc

/// Why the terminal picture cannot be shown. `simulate` answers `.notATerminal` by pointing to
/// `--headless`, which needs no terminal.
public struct TerminalError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The input or the output is a pipe or a file (`isatty` is false): there are no keys to
        /// read one by one and no screen to draw on.
        case notATerminal
        /// `tcgetattr` or `tcsetattr` failed.
        case system(errno: Int32)
    }

    public var kind: Kind
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// The terminal of `simulate`: keys one at a time, the panel drawn in place.
///
/// `init` puts the input in raw mode — no echo, no line editing (`ICANON`), no signals from
/// Ctrl-C/Ctrl-Z (`ISIG`, so they arrive as bytes and quit through `SimulatorKey`), no flow
/// control (`IXON`), CR not turned into NL (`ICRNL`) — with `VMIN` = 0 and `VTIME` = 0, so a
/// read returns at once with whatever is waiting (termios(3), "Canonical and noncanonical
/// mode", case MIN == 0, TIME == 0). `O_NONBLOCK` would do the same, but it is a flag of the
/// open file description that the shell shares, and a crash would leave the shell's input
/// non-blocking; termios is what `restore()` puts back. Output processing (`OPOST`) stays on.
///
/// It then switches to the alternate screen (xterm's private mode 1049: the shell's screen
/// comes back unchanged afterwards) and hides the cursor. `restore()` undoes all of it, once;
/// it is called from `deinit` too, so a thrown error that unwinds the session still gives the
/// terminal back. A signal that kills the process (SIGKILL, or SIGTERM without a handler) does
/// not run it: `reset` or `stty sane` repairs the terminal then.
public final class TerminalSession {
    public let input: Int32
    public let output: Int32
    /// The input's settings before `init`, put back by `restore()`.
    private let saved: termios
    public private(set) var isActive = true
    /// The terminal went away (`EIO`: the window was closed, ssh dropped). Reads and draws do
    /// nothing after that; `simulate` should end.
    public private(set) var isHungUp = false

    /// Takes over the terminal on `input` and `output` (standard input and output by default).
    /// Throws `.notATerminal` when either is not a terminal, before changing anything.
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws(TerminalError) {
        for (fd, name) in [(input, "standard input"), (output, "standard output")] where isatty(fd) != 1 {
            throw TerminalError(.notATerminal, "\(name) is not a terminal: the panel cannot be drawn in place (use --headless)")
        }
        var attributes = termios()
        guard tcgetattr(input, &attributes) == 0 else { throw Self.failure("tcgetattr") }
        let original = attributes
        attributes.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        attributes.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &attributes.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        // TCSAFLUSH: keys typed before the picture appeared are dropped, not taken as presses.
        guard tcsetattr(input, TCSAFLUSH, &attributes) == 0 else { throw Self.failure("tcsetattr") }
        self.input = input
        self.output = output
        saved = original
        writeAll(Self.enter)
    }

    deinit { restore() }

    /// Shows the cursor, leaves the alternate screen and puts the input's settings back.
    /// Idempotent.
    public func restore() {
        guard isActive else { return }
        isActive = false
        writeAll(Self.leave)
        var original = saved
        // TCSADRAIN: the escape sequences above reach the terminal before echo comes back.
        _ = tcsetattr(input, TCSADRAIN, &original)
    }

    /// Appends the bytes waiting on the input (keys) to `buffer` without waiting for more, and
    /// returns how many it appended: 0 when none are waiting, after `restore()`, or after a
    /// hang-up (`isHungUp`). Decode them with `SimulatorKey.keys(in:)`.
    public func readKeys(into buffer: inout [UInt8]) -> Int {
        guard isActive, !isHungUp else { return 0 }
        var total = 0
        var chunk: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes on the stack
        while true {
            let count = withUnsafeMutableBytes(of: &chunk) { read(input, $0.baseAddress, $0.count) }
            if count > 0 {
                withUnsafeBytes(of: &chunk) { buffer.append(contentsOf: $0.prefix(count)) }
                total += count
                if count < MemoryLayout.size(ofValue: chunk) { return total }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EIO { isHungUp = true }
            return total  // 0: nothing waiting (VMIN = VTIME = 0); EAGAIN: likewise
        }
    }

    /// Draws `lines` from the top-left corner: the cursor goes home, each line is followed by
    /// "erase to end of line" (a shorter line leaves nothing of the last frame behind), and the
    /// rest of the screen below is erased. The whole frame goes out in one `write(2)` (repeated
    /// only for what a short write left), so the terminal never shows half a frame and nothing
    /// flickers. Lines are written as given: cut them to the terminal's width beforehand
    /// (`TerminalPicture.statusLine`), a wrapped line scrolls the picture.
    public func draw(_ lines: [String]) {
        guard isActive, !isHungUp else { return }
        var frame = "\u{1B}[H"
        frame.reserveCapacity(lines.reduce(16) { $0 + $1.utf8.count + 6 })
        for (index, line) in lines.enumerated() {
            if index > 0 { frame += "\r\n" }
            frame += line
            frame += "\u{1B}[K"
        }
        frame += "\u{1B}[J"
        writeAll(frame)
    }

    // MARK: Output

    /// Alternate screen on, cursor hidden, screen cleared.
    static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
    /// Cursor shown, alternate screen off (the shell's screen returns).
    static let leave = "\u{1B}[?25h\u{1B}[?1049l"

    /// Writes all of `text`, retrying after `EINTR` and short writes and waiting up to a second
    /// for room after `EAGAIN` (an output someone made non-blocking). Gives up on any other
    /// error: the picture is only a view, and the next frame is drawn whole anyway.
    private func writeAll(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let count = write(output, bytes.baseAddress! + done, bytes.count - done)
                if count > 0 {
                    done += count
                    continue
                }
                let code = errno
                if count < 0 && code == EINTR { continue }
                if count < 0 && code == EAGAIN {
                    var entry = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
                    if poll(&entry, 1, 1000) > 0 { continue }
                }
                if count < 0 && code == EIO { isHungUp = true }
                return
            }
        }
    }

    private static func failure(_ call: String) -> TerminalError {
        let code = errno
        return TerminalError(.system(errno: code), "\(call) on the terminal failed: \(String(cString: strerror(code)))")
    }
}
#endif

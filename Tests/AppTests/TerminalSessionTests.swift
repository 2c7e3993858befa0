#if os(Linux)
import App
import Glibc
import HALSim
import Testing

/// `TerminalSession` on a real pseudo-terminal: the test is the person at the keyboard (the
/// master side), the session runs on the slave as it would on `/dev/pts/N`.
@Suite("Terminal session")
struct TerminalSessionTests {
    func openSlave(_ pty: PseudoTerminal) throws -> Int32 {
        let fd = open(pty.slavePath.string, O_RDWR | O_NOCTTY)
        try #require(fd >= 0, "open \(pty.slavePath): errno \(errno)")
        return fd
    }

    func attributes(_ fd: Int32) throws -> termios {
        var t = termios()
        try #require(tcgetattr(fd, &t) == 0)
        return t
    }

    func cc(_ t: termios, _ index: Int32) -> UInt8 {
        withUnsafeBytes(of: t.c_cc) { $0[Int(index)] }
    }

    /// What the session wrote, read on the master until 50 ms pass without more (the pty hands
    /// bytes over through a kernel work queue).
    func written(_ pty: PseudoTerminal) throws -> String {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        var idle = 0
        while idle < 10 {
            let n = try buffer.withUnsafeMutableBytes { try pty.read(into: $0) }
            if n > 0 { result += buffer[..<n]; idle = 0 } else { usleep(5_000); idle += 1 }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The session's keys, waiting up to a second for `count` bytes.
    func keys(_ session: TerminalSession, count: Int) -> [UInt8] {
        var buffer: [UInt8] = []
        for _ in 0..<200 where buffer.count < count {
            if session.readKeys(into: &buffer) == 0 { usleep(5_000) }
        }
        return buffer
    }

    @Test("a pipe is not a terminal: init refuses and says to use --headless")
    func notATerminal() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(throws: TerminalError.self) { try TerminalSession(input: ends[0], output: ends[1]) }
        do {
            _ = try TerminalSession(input: ends[0], output: ends[1])
        } catch {
            #expect(error.kind == .notATerminal)
            #expect(error.description.contains("standard input is not a terminal"))
            #expect(error.description.contains("--headless"))
        }
    }

    @Test("raw mode: no echo, no line editing, no signals, reads that never wait; restore puts it all back once")
    func rawModeAndRestore() throws {
        let pty = try PseudoTerminal()
        let fd = try openSlave(pty)
        defer { close(fd) }
        let before = try attributes(fd)
        #expect(before.c_lflag & tcflag_t(ICANON | ECHO) != 0, "a new pty starts cooked")

        let session = try TerminalSession(input: fd, output: fd)
        let raw = try attributes(fd)
        #expect(raw.c_lflag & tcflag_t(ECHO | ICANON | ISIG | IEXTEN) == 0)
        #expect(raw.c_iflag & tcflag_t(IXON | ICRNL) == 0)
        #expect(cc(raw, VMIN) == 0 && cc(raw, VTIME) == 0)
        #expect(try written(pty) == "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")

        // Nothing typed: the read returns at once.
        var buffer: [UInt8] = []
        #expect(session.readKeys(into: &buffer) == 0 && buffer.isEmpty)
        // Ctrl-C arrives as a byte (no SIGINT), without echo; an arrow is skipped by the decoder.
        try pty.write([UInt8(ascii: "a"), 0x03, 0x1B, 0x5B, 0x41, UInt8(ascii: "C")])
        let typed = keys(session, count: 6)
        #expect(typed == [UInt8(ascii: "a"), 0x03, 0x1B, 0x5B, 0x41, UInt8(ascii: "C")])
        #expect(SimulatorKey.keys(in: typed) == [.press(button: 0), .quit, .hold(button: 2)])
        #expect(try written(pty).isEmpty, "no echo")

        session.restore()
        #expect(!session.isActive)
        #expect(try written(pty) == "\u{1B}[?25h\u{1B}[?1049l")
        let after = try attributes(fd)
        #expect(after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag)
        #expect(cc(after, VMIN) == cc(before, VMIN) && cc(after, VTIME) == cc(before, VTIME))
        session.restore()
        #expect(try written(pty).isEmpty, "restore is idempotent")
        buffer = []
        #expect(session.readKeys(into: &buffer) == 0)
    }

    @Test("the session's end restores the terminal too")
    func deinitRestores() throws {
        let pty = try PseudoTerminal()
        let fd = try openSlave(pty)
        defer { close(fd) }
        let before = try attributes(fd)
        do {
            let session = try TerminalSession(input: fd, output: fd)
            session.draw(["x"])
        }
        #expect(try attributes(fd).c_lflag == before.c_lflag)
        #expect(try written(pty).hasSuffix("\u{1B}[?25h\u{1B}[?1049l"))
    }

    @Test("a frame: cursor home, each line erased to its end, the rest of the screen erased, in one piece")
    func draw() throws {
        let pty = try PseudoTerminal()
        let fd = try openSlave(pty)
        defer { close(fd) }
        let session = try TerminalSession(input: fd, output: fd)
        _ = try written(pty)
        let picture = ["┌─────┐", "│Hello│", "└─────┘"]
        session.draw(picture)
        let output = try written(pty)
        // The pty's output processing (ONLCR) may turn the "\n" of "\r\n" into "\r\n".
        let lines = output.replacingNewlines()
        #expect(lines == "\u{1B}[H┌─────┐\u{1B}[K\r\n│Hello│\u{1B}[K\r\n└─────┘\u{1B}[K\u{1B}[J")
        session.restore()
    }
}

extension String {
    /// "\r\r\n" (CR, then NL turned into CR NL by ONLCR) as "\r\n".
    fileprivate func replacingNewlines() -> String {
        var result = ""
        var previousCR = false
        for scalar in unicodeScalars {
            if scalar == "\r" {
                if !previousCR { result.unicodeScalars.append(scalar) }
                previousCR = true
                continue
            }
            previousCR = false
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
#endif

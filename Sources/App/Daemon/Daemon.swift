import Board
import Core
import Glibc
import HAL
import HALLinux
import HALSim
import Logging
import Screens
import Store
import SystemPackage
import Weather

/// `thunderstorm run`: the device on a real board under systemd (docs/design/architecture.md,
/// "The loop" and "Under systemd"; the exit codes are in docs/reference/exit-codes.md).
///
/// One `DeviceLoop` runs the current `DaemonBoard`. Around it the daemon speaks systemd's notify
/// protocol (`READY=1` once the first frame is on the glass, `STATUS=` when the status line
/// changes, `WATCHDOG=1` from the loop itself at half of `$WATCHDOG_USEC`, `STOPPING=1`), logs
/// one line per state change with repeats rate-limited, re-reads the board file on SIGHUP, and
/// on SIGTERM or SIGINT leaves the panel as the board says and exits 0.
public final class Daemon {
    public struct Options {
        public var boardPath: String
        public var stateDirectory: FilePath
        /// Where to write the simulated panel's glass (PBM) after each frame; nil for nowhere.
        public var glassPath: FilePath?
        /// A test of the watchdog: the loop stops answering this long after start.
        public var stallAfter: Duration?
        /// A test of the time authority on a machine whose kernel clock is synchronised: the
        /// daemon acts as a Pi without NTP does (`adjtimex` reporting `STA_UNSYNC`).
        public var assumeClockUnsynchronised = false
        public var logLevel: LogLevel = .info

        public init(boardPath: String, stateDirectory: FilePath) {
            self.boardPath = boardPath
            self.stateDirectory = stateDirectory
        }
    }

    /// Why the daemon could not start: a sysexits code and one line.
    public struct Failure: Error {
        public var code: Int32
        public var message: String
    }

    public let options: Options
    let loop: DeviceLoop
    let notifier: SystemdNotifier
    let logger: Logger
    var limiter = LogLimiter()
    /// The store's writer thread: it outlives every board, as the store does.
    let store: StoreWriter<HostFiles, LinuxClock<LiveSystemCalls>>
    public private(set) var board: DaemonBoard!
    var context: DaemonBoard.Context!
    let started: Instant
    var ready = false
    /// When the running board was built (start, or the last reload): READY's latency is from here.
    var boardSince: Instant
    var nextPing: Instant?
    var statusLines: [StatusLine] = []
    var statusText = ""
    var glassFrames = -1
    var stallAt: Instant?
    /// Standard input carries key presses for simulated buttons until it ends (under systemd
    /// it is /dev/null: the first read ends it).
    var keysOpen = true
    var keyBytes = [UInt8](repeating: 0, count: 64)

    /// Reads and checks the board file, opens the store, builds the board. The loop (and its
    /// signalfd) is created first, on this thread, before the network worker exists.
    public init(_ options: Options, notifier: SystemdNotifier = SystemdNotifier()) throws(Failure) {
        self.options = options
        self.notifier = notifier
        var handler = JournalLogHandler()
        handler.logLevel = Self.loggerLevel(options.logLevel)
        let configured = handler
        logger = Logger(label: "thunderstorm", factory: { _ in configured })
        do throws(Errno) {
            loop = try DeviceLoop()
        } catch {
            throw Failure(code: 71, message: "cannot set up the event loop: \(error)")
        }
        let started = loop.clock.now()
        self.started = started
        boardSince = started
        stallAt = options.stallAfter.map { started + $0 }
        let config = try Self.readBoard(options.boardPath).mapError { Failure(code: $0.code, message: $0.lines.joined(separator: "\n")) }.get()
        store = try Self.openStore(options.stateDirectory, clock: loop.clock, wake: loop.wakeSignal)
        let log: (Instant, LogLine) -> Void = { [unowned self] instant, line in self.log(line, at: instant) }
        let kernel = KernelClock()
        let ignoreKernel = options.assumeClockUnsynchronised
        context = DaemonBoard.Context(
            store: store, stateDirectory: options.stateDirectory, clock: loop.clock, wake: loop.wakeSignal,
            dependencies: DeviceDependencies(
                systemClockSynchronised: { !ignoreKernel && kernel.isSynchronised() }, loadZone: Self.hostZone, log: log),
            report: { [unowned self] text in self.log(.problem(text), at: self.loop.clock.now()) })
        if let (reason, reopening) = store.fallbackReason {
            log(
                loop.clock.now(),
                .problem(
                    reopening
                        ? "store: \(reason); changes are kept in memory and saved once the card takes writes"
                        : "store: \(reason); settings will not be saved"))
        }
        log(loop.clock.now(), .text("starting: \(config.name) (\(options.boardPath)), state in \(options.stateDirectory)"))
        // Which way to the GPIO lines (libgpiod 2 or the kernel's uAPI), once: chosen here, before
        // the buttons are requested, so that libgpiod is loaded (and in /proc/PID/maps) from the start.
        log(loop.clock.now(), .text("GPIO: \(GPIOAccess.summary)"))
        board = DaemonBoard(config, context: context)
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status (0).
    public func run() -> Int32 {
        let companion = DeviceLoop.Companion(
            nextDeadline: { [unowned self] in
                Instant.earliest(Instant.earliest(board.nextDeadline, nextPing), limiter.nextDeadline)
            },
            beforeService: { [unowned self] now in
                if keysOpen { readKeys() }
                board.follow(now)
            },
            afterService: { [unowned self] now in afterService(now) },
            inputSlots: 9,
            inputDescriptor: { [unowned self] slot in
                slot == 8 ? (keysOpen && board.hasSimulatedButtons ? STDIN_FILENO : -1) : board.buttons.descriptor(slot)
            })
        nextPing = notifier.watchdogInterval.map { started + $0 }
        while true {
            let stop: DeviceLoop.Stop
            do throws(Errno) {
                stop = try loop.run(board.device, gpsDescriptor: { $0.pollDescriptor }, companion: companion)
            } catch {
                log(.problem("event loop failed: \(error); exiting for systemd to restart the service"), at: loop.clock.now())
                return 71
            }
            switch stop {
            case .signal(SIGHUP):
                reload()
            case .signal(let signal):
                shutdown(signal == SIGINT ? "SIGINT" : "SIGTERM")
                return 0
            case .finished:
                shutdown("end")
                return 0
            }
        }
    }

    // MARK: Each wake-up

    func afterService(_ now: Instant) {
        let device = board.device
        if let path = options.glassPath, device.counters.frames != glassFrames {
            glassFrames = device.counters.frames
            writeGlass(path)
        }
        if !ready, device.counters.frames > 0 || device.state.display != .ok {
            ready = true
            statusLines = device.state.model.statusLines
            statusText = DaemonStatus.text(statusLines)
            notifier.send("READY=1\nSTATUS=\(statusText)")
            log(.text("ready: first frame \(device.counters.frames > 0 ? "on the glass" : "not shown (display failing)") after \(Self.milliseconds(now - boardSince)) ms"), at: now)
        } else if ready, device.state.model.statusLines != statusLines {
            statusLines = device.state.model.statusLines
            let text = DaemonStatus.text(statusLines)
            if text != statusText {
                statusText = text
                notifier.send("STATUS=\(text)")
            }
        }
        if let due = nextPing, now >= due, let interval = notifier.watchdogInterval {
            notifier.send("WATCHDOG=1")
            nextPing = now + interval
        }
        limiter.close(dueBy: now) { emit($0) }
        if let due = stallAt, now >= due { stall() }
    }

    /// Keys on standard input press the simulated buttons (`a`–`d` press, `A`–`D` hold), so a
    /// desk build can be driven from a terminal or a test's pipe. Nothing waits: a read happens
    /// only when poll(2) says there is something.
    func readKeys() {
        guard board.hasSimulatedButtons else { return }
        var entry = pollfd(fd: STDIN_FILENO, events: CShort(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return }
        let n = keyBytes.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
        guard n > 0 else {
            keysOpen = false  // end of input, or an error: stop watching it
            return
        }
        for key in SimulatorKey.keys(in: keyBytes[..<n]) where board.press(key) {
            log(.text("key: \(key)"), at: loop.clock.now())
        }
    }

    /// `--stall-after`: the loop stops turning, as if a transfer hung, so the watchdog pings
    /// stop and systemd restarts the service. Only SIGKILL ends it (the other signals wait in
    /// the signalfd that is no longer read).
    func stall() {
        log(.problem("stalling the event loop on purpose (--stall-after): the watchdog pings stop"), at: loop.clock.now())
        while true { _ = poll(nil, 0, -1) }
    }

    func writeGlass(_ path: FilePath) {
        guard let image = board.glass else { return }
        var files = HostFiles()
        let directory = path.removingLastComponent()
        do throws(FileSystemError) {
            try files.replace(path.lastComponent?.string ?? "glass.pbm", in: directory.isEmpty ? "." : directory, with: image.pbm())
        } catch {
            log(.problem("glass: cannot write \(path): \(error)"), at: loop.clock.now())
        }
    }

    // MARK: SIGHUP

    /// Re-reads the board file: a valid, changed one replaces the running board (the store,
    /// and so every setting and place, stays); an invalid one is logged problem by problem and
    /// the running board stays.
    func reload() {
        let now = loop.clock.now()
        log(.text("SIGHUP: reading \(options.boardPath) again"), at: now)
        switch Self.readBoard(options.boardPath) {
        case .failure(let failure):
            for line in failure.lines { log(.problem(line), at: now) }
            log(.problem("board file not applied; still running \(board.config.name)"), at: now)
        case .success(let config) where config == board.config:
            log(.text("board file unchanged"), at: now)
        case .success(let config):
            notifier.send("RELOADING=1")
            board.device.close()
            let next = DaemonBoard(config, context: context, replacing: board)
            board.releaseWorker(keptBy: next)
            let kept = Self.keptParts(next, previous: board)
            board = next
            boardSince = loop.clock.now()
            ready = false
            log(.text("board file applied: \(config.name); \(kept.isEmpty ? "every part started again" : "kept as they were: " + kept.joined(separator: ", "))"), at: now)
        }
    }

    /// The parts `next` took over from `previous`, for the reload's log line.
    static func keptParts(_ next: DaemonBoard, previous: DaemonBoard) -> [String] {
        var names: [String] = []
        if next.device.location === previous.device.location { names.append("GPS") }
        if next.kept.display { names.append("display") }
        if next.kept.sensor { names.append("sensor") }
        if next.kept.buttons { names.append("buttons") }
        if let worker = next.worker, worker === previous.worker { names.append("weather worker") }
        return names
    }

    // MARK: SIGTERM

    func shutdown(_ reason: String) {
        notifier.send("STOPPING=1")
        let now = loop.clock.now()
        log(.text("stopping (\(reason))"), at: now)
        board.device.close()
        // The writes still out, then one last try of what a degraded store kept in memory;
        // within the unit's TimeoutStopSec (5 s), so a hanging card gets 3 s and the panel the
        // rest. Whatever did not reach the card is named.
        let saved = store.finish(within: Self.lastWrites, clock: loop.clock)
        store.receive(now: loop.clock.now()) { _ in }
        if !saved {
            let n = store.waiting
            log(.problem("store: the card did not answer within \(Self.lastWrites); \(n) write\(n == 1 ? "" : "s") not saved"), at: now)
        } else if case .degraded(let why, let pending) = store.health, pending > 0 {
            log(.problem("store: \(pending) change\(pending == 1 ? "" : "s") not saved (\(why))"), at: now)
        }
        board.stop()
        if let path = options.glassPath { writeGlass(path) }  // the panel as the stop left it
        limiter.flush(at: loop.clock.now()) { emit($0) }
        let counters = board.device.counters
        let longest = counters.longestTurn.nanoseconds / 100_000
        let when = counters.longestTurnAt.map { ", \(($0 - boardSince).nanoseconds / 1_000_000_000) s after the board started" } ?? ""
        log(.text("loop: \(counters.wakeups) wake-ups since the board started; the longest turn took \(longest / 10).\(longest % 10) ms\(when)"), at: loop.clock.now())
        log(.text("stopped after \(Self.milliseconds(loop.clock.now() - now)) ms"), at: loop.clock.now())
    }

    // MARK: Logging

    func log(_ line: LogLine, at instant: Instant) {
        let level: LogLevel
        switch line {
        case .settings, .text: level = .info
        case .problem: level = .warning
        }
        guard level >= options.logLevel else { return }
        // Failures repeat (a loose cable, a network that is down); news does not: only the
        // former are rate-limited, so every setting and every recovery is its own line.
        if case .problem = line {
            limiter.offer(LogLimiter.Line(level, line.words), at: instant) { emit($0) }
        } else {
            emit(LogLimiter.Line(level, line.words))
        }
    }

    func emit(_ line: LogLimiter.Line) {
        logger.log(level: Self.loggerLevel(line.level), "\(line.text)")
    }

    static func loggerLevel(_ level: LogLevel) -> Logger.Level {
        switch level {
        case .error: .error
        case .warning: .warning
        case .notice: .notice
        case .info: .info
        case .debug: .debug
        }
    }

    /// How long SIGTERM waits for the card.
    static var lastWrites: Duration { .seconds(3) }

    static func milliseconds(_ duration: Duration) -> Int64 { duration.nanoseconds / 1_000_000 }

    // MARK: Start-up

    struct BoardProblem: Error {
        var code: Int32
        var lines: [String]
    }

    /// The board file, checked; each problem one line (`FILE: path: reason`).
    static func readBoard(_ path: String) -> Result<BoardConfig, BoardProblem> {
        switch BoardFileReader.read(path) {
        case .failure(.unreadable(let reason)):
            return .failure(BoardProblem(code: 66, lines: ["\(path): cannot read: \(reason)"]))
        case .failure(.tooLarge(let limit)):
            return .failure(BoardProblem(code: 65, lines: ["\(path): larger than \(limit / 1024) KiB, far more than a board file"]))
        case .success(let bytes):
            switch BoardFile.check(bytes) {
            case .success(let config): return .success(config)
            case .failure(let problems): return .failure(BoardProblem(code: 65, lines: problems.problems.map { "\(path): \($0)" }))
            }
        }
    }

    /// The file store in `directory`, on its writer thread. Another process holding it is
    /// fatal (two daemons would fight over the panel); a store that cannot be opened for another
    /// reason (a full or read-only card, damage on both files) leaves the device running on an
    /// in-memory store, which the writer replaces with the files once they open, if they can.
    static func openStore(
        _ directory: FilePath, clock: LinuxClock<LiveSystemCalls>, wake: @escaping @Sendable () -> Void
    ) throws(Failure) -> StoreWriter<HostFiles, LinuxClock<LiveSystemCalls>> {
        let opening = StoreOpening(files: HostFiles(), clock: clock, configuration: FileStoreConfiguration(directory: directory))
        switch opening.start() {
        case .opened(let store):
            return .threaded(.file(store), directory: directory, files: HostFiles(), wake: wake)
        case .inMemory(let store, let reason, let reopen):
            return .threaded(.memory(store, reason: reason), directory: directory, files: HostFiles(), reopen: reopen, wake: wake)
        case .locked(let error):
            throw Failure(code: 75, message: "\(error)")
        }
    }

    static func hostZone(_ name: String) -> Result<ZoneRules, ZoneError> {
        var files = HostFiles()
        return ZoneRules.load(identifier: name, files: &files)
    }
}

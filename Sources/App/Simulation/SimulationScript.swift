/// What happens to the simulated board, and when: the script of `simulate --headless --script
/// FILE`, so that a run through power cuts, unplugged cables and a dead network is written down
/// once and replayed the same way every time (like gpsd's `gpsfake` replays a
/// capture; format: docs/reference/simulate-scripts.md).
///
/// The file is JSON Lines (jsonlines.org: UTF-8, one JSON value per line), one event per line:
///
///     # comment lines and blank lines are skipped
///     {"at": 12, "press": "a"}                 short press of button a (with contact bounce)
///     {"at": 30, "hold": "b", "ms": 1500}      hold button b for 1500 ms (1…60000)
///     {"at": 60, "gps": "unplug"}              or "replug"
///     {"at": 90, "network": "down"}            or "up"
///     {"at": 95, "i2c": "nack", "count": 3}    the display refuses the next 3 transactions (1…1000, default 1)
///     {"at": 100, "disk": "eio"}               or "enospc", "readonly", "ok"
///     {"at": 120, "power": "cut"}              the run ends as at a power cut
///     {"at": 30, "clock": "step", "by": 3600}  NTP steps the system clock by +3600 s (±, any size) and synchronises it
///     {"at": 30, "clock": "set", "by": -259200} the system clock set 3 days behind the true time, not synchronised
///     {"at": 30, "clock": "sync"}              NTP sets the system clock right and synchronises it
///     {"at": 30, "clock": "unsync"}            the kernel stops vouching for the system clock (STA_UNSYNC)
///     {"at": 0, "gps": "week-rollover"}        the receiver dates its fixes 1,024 weeks back from now on
///
/// `at` is seconds of virtual time from the start, whole or fractional, 0 or more. Lines may come
/// in any order; the steps are sorted by time, and events at the same time keep the order of
/// their lines. A line is parsed whole, with the project's own JSON parser, and any mistake
/// refuses the script with the line's number and one line saying what is wrong
/// (`SimulationScript+Line.swift`), because a script that silently skips a misspelt event
/// tests something else than its author thinks.
public struct SimulationScript: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// A short press of button 0…3 (the board's contact bounce included).
        case press(button: Int)
        /// Button 0…3 held down for `duration`, then released.
        case hold(button: Int, duration: Duration)
        /// The GPS receiver's USB cable pulled out (`false`) or put back (`true`).
        case gps(plugged: Bool)
        /// The network gone (`false`: the weather service is unreachable) or back (`true`).
        case network(up: Bool)
        /// The display leaves the next `count` I²C transactions unacknowledged.
        case i2cNack(count: Int)
        /// Every later write to the store's files fails this way, until `.ok`.
        case disk(DiskCondition)
        /// Power is cut: the run ends without a clean shutdown.
        case powerCut
        /// Something happens to the system clock (the true time, the receiver's and the weather
        /// service's, goes on undisturbed).
        case clock(ClockChange)
        /// The receiver's firmware mishandles the GPS week-number rollover: its dates go 1,024
        /// weeks back.
        case gpsWeekRollover
    }

    /// What happens to the simulated system clock (`CLOCK_REALTIME` and the kernel's
    /// synchronisation flag).
    public enum ClockChange: Sendable, Equatable {
        /// NTP steps the clock by this much and marks it synchronised.
        case step(Duration)
        /// The clock is set this far from the true time (negative: behind) and is not
        /// synchronised: a fake-hwclock restore, a hand-set clock.
        case set(offset: Duration)
        /// NTP sets the clock to the true time and marks it synchronised.
        case sync
        /// The kernel stops vouching for the clock.
        case unsync
    }

    /// What the store's disk does from a `disk` event on.
    public enum DiskCondition: String, Sendable, Equatable, CaseIterable {
        /// Writes work again.
        case ok
        /// I/O error: a worn or loose SD card.
        case eio
        /// No space left on the device.
        case enospc
        /// The file system went read-only (the kernel remounts ext4 so after errors).
        case readOnly = "readonly"
    }

    public struct Step: Sendable, Equatable {
        /// When, from the start of the run.
        public var at: Duration
        public var action: Action
        /// The step's line in the file, 1-based, for messages about it.
        public var line: Int

        public init(at: Duration, action: Action, line: Int) {
            self.at = at
            self.action = action
            self.line = line
        }
    }

    /// Sorted by `at`; steps at the same time in the order of their lines.
    public var steps: [Step]

    public init(steps: [Step]) {
        self.steps = steps.sorted { ($0.at, $0.line) < ($1.at, $1.line) }
    }

    /// Reads a script. Lines end in LF or CRLF; a UTF-8 byte order mark at the start is skipped.
    /// Throws for the first line that is not a valid event.
    ///
    /// The text is split as bytes, not `Character`s: Swift takes CR LF for one character, so
    /// a split on "\n" would leave a CRLF file whole.
    public static func parse(_ text: String) throws(ScriptError) -> SimulationScript {
        var steps: [Step] = []
        var bytes = Array(text.utf8)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        for (index, rawLine) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            var line = rawLine
            if line.last == 0x0D { line = line.dropLast() }
            let content = line.drop(while: { $0 == 0x20 || $0 == 0x09 })
            if content.isEmpty || content.first == UInt8(ascii: "#") { continue }
            do throws(ScriptLineError) {
                let (at, action) = try ScriptLine.parse(Array(line))
                steps.append(Step(at: at, action: action, line: index + 1))
            } catch {
                throw ScriptError(line: index + 1, message: error.message)
            }
        }
        return SimulationScript(steps: steps)
    }
}

/// Why a script was refused: the line (1-based) and one line of reason.
public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// `line 3: unknown key "prses" (known: at, press, hold, ms, gps, network, i2c, count, disk, power)`
    public var description: String { "line \(line): \(message)" }
}

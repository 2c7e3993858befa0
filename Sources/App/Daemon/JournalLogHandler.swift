import Glibc
import Logging
import SystemPackage

/// swift-log's handler for the daemon: one line per message on standard error, written with one
/// `write(2)` so lines from the loop and the network thread never interleave.
///
/// Under systemd, standard error is a stream to journald, which reads a leading `<N>` as the
/// line's syslog priority (systemd.exec(5), `SyslogLevelPrefix=`, on by default): the journal
/// then shows warnings and errors as such (`journalctl -p warning -u thunderstorm`). The stream
/// is recognised as systemd documents it: `$JOURNAL_STREAM` holds the device and inode of the
/// journal's socket, which must match standard error's. Anywhere else (a terminal, a file) the
/// line starts with the level's name instead.
///
/// Logging happens on state changes only, never in the steady state; this handler allocates
/// (it formats a string), which is why the loop's allocation tests see no log line.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public let toJournal: Bool
    let descriptor: CInt

    public init(descriptor: CInt = STDERR_FILENO, toJournal: Bool = JournalLogHandler.standardErrorIsJournal()) {
        self.descriptor = descriptor
        self.toJournal = toJournal
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line = toJournal ? "<\(Self.priority(event.level))>" : "\(event.level): "
        line += "\(event.message)"
        line.append("\n")
        // swift-system's writeAll: one write(2) for a line, retried after EINTR and short
        // writes. A failure has nowhere to be said and is never fatal.
        _ = try? FileDescriptor(rawValue: descriptor).writeAll(line.utf8)
    }

    /// syslog(3) priorities: what journald reads from the `<N>` prefix.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Whether standard error is journald's stream (`$JOURNAL_STREAM` = "device:inode").
    public static func standardErrorIsJournal() -> Bool {
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return value == "\(status.st_dev):\(status.st_ino)"
    }
}

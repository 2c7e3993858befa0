import Glibc
import HAL

/// systemd's notify protocol, written directly (sd_notify(3)): each
/// message is one datagram of newline-separated `KEY=value` lines sent to the `AF_UNIX` socket
/// named by `$NOTIFY_SOCKET`. A leading `@` names a socket in the abstract namespace (its
/// address starts with a NUL byte). Without `$NOTIFY_SOCKET` (not started by systemd, or
/// `Type=` other than notify) every send is a no-op, as with libsystemd.
///
/// The socket is created once; `send` is one `sendto(2)` and allocates nothing for a static
/// message (`WATCHDOG=1`), so the loop can ping from its steady state.
public final class SystemdNotifier {
    private let socket: CInt
    private var address = sockaddr_un()
    private let addressLength: socklen_t
    /// Half of `$WATCHDOG_USEC` when the watchdog is on for this process (sd_watchdog_enabled(3)
    /// recommends pinging at that period); nil otherwise.
    public let watchdogInterval: Duration?
    /// Datagrams that could not be sent (the manager restarted, its queue is full); never
    /// fatal: a missed `WATCHDOG=1` is retried at the next ping.
    public private(set) var failures = 0

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment` (the
    /// process's own by default). A malformed socket path disables notification.
    public init(environment: (String) -> String? = SystemdNotifier.processEnvironment) {
        watchdogInterval = Self.watchdogInterval(
            usec: environment("WATCHDOG_USEC"), pid: environment("WATCHDOG_PID"), ownPID: getpid())
        guard let path = environment("NOTIFY_SOCKET"), let length = Self.fill(&address, path: path) else {
            socket = -1
            addressLength = 0
            return
        }
        addressLength = length
        // Non-blocking: a manager that does not read (its queue holds a handful of datagrams)
        // must cost a failed ping, never a loop stuck in sendto(2).
        socket = Glibc.socket(
            AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    }

    deinit { if socket >= 0 { close(socket) } }

    /// Whether a manager listens (`$NOTIFY_SOCKET` was set and usable).
    public var isEnabled: Bool { socket >= 0 }

    public static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Sends one message, e.g. `"READY=1\nSTATUS=GPS fix"`. Returns whether it was sent.
    @discardableResult
    public func send(_ message: StaticString) -> Bool {
        message.withUTF8Buffer { send(UnsafeRawBufferPointer($0)) }
    }

    @discardableResult
    public func send(_ message: String) -> Bool {
        var text = message
        return text.withUTF8 { send(UnsafeRawBufferPointer($0)) }
    }

    private func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard socket >= 0 else { return false }
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(socket, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, addressLength)
            }
        }
        if sent != bytes.count { failures += 1 }
        return sent == bytes.count
    }

    /// `sockaddr_un` for `path`: a file path, or `@name` for the abstract namespace. Nil when it
    /// is neither or does not fit `sun_path` (108 bytes).
    static func fill(_ address: inout sockaddr_un, path: String) -> socklen_t? {
        var bytes = Array(path.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "@") else { return nil }
        let abstract = first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A file path needs its terminating NUL inside sun_path; an abstract name does not.
        guard bytes.count + (abstract ? 0 : 1) <= capacity, bytes.count > 1 else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            raw.copyBytes(from: bytes)
        }
        let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        return socklen_t(offset + bytes.count + (abstract ? 0 : 1))
    }

    /// Half the watchdog timeout, when it applies to `ownPID` (sd_watchdog_enabled(3): a
    /// `WATCHDOG_PID` naming another process means the watchdog is someone else's).
    static func watchdogInterval(usec: String?, pid: String?, ownPID: pid_t) -> Duration? {
        guard let usec, let micro = Int64(usec), micro > 0 else { return nil }
        if let pid, let owner = Int32(pid), owner != ownPID { return nil }
        return .microseconds(micro / 2)
    }
}

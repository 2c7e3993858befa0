#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HAL
import Weather

/// One TCP connection of SocketTransport, plain or TLS, with the bytes received and not yet
/// parsed. Used by one request at a time: taken out of the idle pool under the transport's lock,
/// used without it, put back (ownership moves between threads, hence @unchecked Sendable).
final class SocketConnection: @unchecked Sendable {
    let fd: Int32
    /// `HTTPTarget.connectionKey`: reused only for the same scheme, host and port.
    let key: String
    private(set) var tls: TLSChannel?
    let inbox = Inbox()
    /// CLOCK_MONOTONIC nanoseconds when it went idle.
    var idleSince: Int64 = 0
    /// Bytes received for the current request: none means a failure may be a stale connection.
    private(set) var receivedForRequest = 0

    /// Connects (and, for https, completes the handshake, certificates checked at
    /// `verificationTime` or, nil, the system clock) within the deadline. `fixedAddresses`: the
    /// resolver's answer given in advance (`SocketTransport.Configuration.fixedAddresses`).
    init(
        _ target: HTTPTarget, context: TLSContext?, verificationTime: WallTime? = nil, fixedAddresses: [String]? = nil,
        attemptDelay: Duration = HappyEyeballs.attemptDelay, _ deadline: Deadline
    ) throws(TransportError) {
        fd = try Wire.open(target, fixedAddresses: fixedAddresses, attemptDelay: attemptDelay, deadline)
        key = target.connectionKey
        if let context {
            let isAddress = target.isIPv6Literal || Wire.literal(target.host, port: target.port) != nil
            let channel = try TLSChannel(context, for: target, isAddress: isAddress, verificationTime: verificationTime)
            tls = channel
            try channel.handshake(fd, deadline)
        }
    }

    deinit { close(fd) }

    /// Sends a whole request.
    func send(_ bytes: [UInt8], _ deadline: Deadline) throws(TransportError) {
        receivedForRequest = 0
        let sent = bytes.withUnsafeBytes { raw in
            Result { () throws(TransportError) in
                if let tls {
                    try tls.write(fd, raw, deadline)
                } else {
                    try Wire.sendAll(fd, raw, deadline, "sending the request")
                }
            }
        }
        try sent.get()
    }

    /// Appends what arrives to `inbox`, waiting for at least one byte; false at the end of the stream.
    func fill(_ deadline: Deadline, _ waitingFor: String) throws(TransportError) -> Bool {
        let space = inbox.space(atLeast: 16 * 1024)
        let count =
            if let tls {
                try tls.read(fd, into: space, deadline)
            } else {
                try Wire.receiveSome(fd, into: space, deadline, waitingFor)
            }
        inbox.commit(count)
        receivedForRequest += count
        return count > 0
    }

    /// The TLS stream ended without close_notify (never for plain TCP, whose end is its FIN).
    var endedWithoutCloseNotify: Bool { tls?.endedWithoutCloseNotify ?? false }

    /// An idle connection can carry the next request: nothing unread, young enough, for TLS a
    /// verified chain valid at the request's `verificationTime` (nil: the system clock), and the
    /// socket has nothing to say (no data, no FIN, no error) — a server that closed it while idle
    /// made it readable.
    func isReusable(now: Int64, maximumIdle: Int64, verificationTime: WallTime? = nil) -> Bool {
        guard inbox.isEmpty, now - idleSince <= maximumIdle, tls?.isDrained ?? true else { return false }
        if let tls, !tls.chainIsValid(at: verificationTime) { return false }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 0
    }
}

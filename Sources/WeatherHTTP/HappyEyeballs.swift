#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Weather

/// Connecting to a host with several addresses the way RFC 8305 ("Happy Eyeballs Version 2")
/// says, because the classic broken home network has an address that never answers: an IPv6
/// route that the router announces and then drops, a stale A record. Tried one after the other,
/// that first address takes the whole deadline and the fetch fails although the next address
/// works. Here it costs 250 ms.
///
/// What is not done: the lookup is one getaddrinfo_a for both families (no separate AAAA and A
/// queries, §3), and the TLS handshake runs on the winner only.
enum HappyEyeballs {
    /// "Connection Attempt Delay" (RFC 8305 §5): 250 ms recommended, 100 ms to 2 s allowed.
    static let attemptDelay: Duration = .milliseconds(250)

    /// The resolver's order (RFC 6724 sorting, done by getaddrinfo) with the families
    /// interleaved: the first address's family, then the other, and so on (§4, "First Address
    /// Family Count" 1). A host whose IPv6 addresses all black-hole still gets an IPv4 attempt
    /// after the first delay.
    static func interleaved(_ addresses: [Wire.Address]) -> [Wire.Address] {
        guard let family = addresses.first?.family else { return [] }
        let preferred = addresses.filter { $0.family == family }
        let other = addresses.filter { $0.family != family }
        var result: [Wire.Address] = []
        result.reserveCapacity(addresses.count)
        for index in 0..<max(preferred.count, other.count) {
            if index < preferred.count { result.append(preferred[index]) }
            if index < other.count { result.append(other[index]) }
        }
        return result
    }

    /// Starts an attempt on the first address, and another on the next address whenever the
    /// attempt delay passes without a connection, or at once when an attempt fails (§5). The
    /// attempts under way keep going; the first to connect wins and the others are closed. Every
    /// wait is a poll(2) bounded by the deadline. When all fail, the last failure is thrown
    /// (`.connectionRefused` for ECONNREFUSED); when the deadline passes first, `.timeout`.
    static func connect(_ addresses: [Wire.Address], attemptDelay: Duration = attemptDelay, _ deadline: Deadline) throws(TransportError)
        -> Int32
    {
        let (seconds, attoseconds) = attemptDelay.components
        let delay = max(0, min(seconds, 60)) * 1_000_000_000 + max(0, attoseconds / 1_000_000_000)
        var pending: [pollfd] = []
        pending.reserveCapacity(min(addresses.count, 4))
        defer { for entry in pending { close(entry.fd) } }
        var next = 0
        var nextStart: Int64 = 0  // CLOCK_MONOTONIC ns; 0: the next attempt may start at once
        var last = deadline.expired("connecting")
        while true {
            let now = Deadline.now()
            if next < addresses.count && (pending.isEmpty || now >= nextStart) {
                let address = addresses[next]
                next += 1
                do {
                    switch try Wire.startConnect(address) {
                    case .connected(let fd): return fd
                    case .inProgress(let fd):
                        pending.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0))
                        nextStart = now + delay
                    }
                } catch {
                    last = error  // Failed at once: the next address now.
                }
                continue
            }
            if pending.isEmpty { throw last }
            var timeout = deadline.millisecondsLeft
            if timeout == 0 { throw deadline.expired("connecting") }
            if next < addresses.count {
                timeout = min(timeout, Int32(clamping: max(1, (nextStart - now + 999_999) / 1_000_000)))
            }
            let ready = poll(&pending, nfds_t(pending.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw Wire.failure(errno, "poll")
            }
            var index = 0
            while index < pending.count {
                guard pending[index].revents != 0 else {
                    index += 1
                    continue
                }
                let fd = pending.remove(at: index).fd
                let error = Wire.connectResult(fd)
                if error == 0 {
                    Wire.connected(fd)
                    return fd
                }
                close(fd)
                last = Wire.failure(error, "connect")
                nextStart = 0
            }
        }
    }
}

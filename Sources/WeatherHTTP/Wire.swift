#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTLS
import Weather

/// The socket calls of SocketTransport: a non-blocking TCP connection, every wait a poll(2)
/// bounded by the request's deadline, no SIGPIPE (MSG_NOSIGNAL), and errno mapped to the kinds
/// of `TransportError`.
enum Wire {
    /// Waits until `fd` is ready for `events` (or has an error or hang-up, which the next call
    /// reports), or throws `.timeout` once the deadline has passed.
    static func wait(_ fd: Int32, for events: Int32, _ deadline: Deadline, _ waitingFor: String) throws(TransportError) {
        while true {
            let timeout = deadline.millisecondsLeft
            if timeout == 0 { throw deadline.expired(waitingFor) }
            var entry = pollfd(fd: fd, events: Int16(events), revents: 0)
            let ready = poll(&entry, 1, timeout)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw failure(errno, "poll") }
        }
    }

    /// Sends all of `bytes`.
    static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ deadline: Deadline, _ waitingFor: String) throws(TransportError) {
        var offset = 0
        while offset < bytes.count {
            let sent = send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                try wait(fd, for: Int32(POLLOUT), deadline, waitingFor)
            } else if sent < 0 && errno == EINTR {
                continue
            } else {
                throw failure(sent < 0 ? errno : EPIPE, "send")
            }
        }
    }

    /// Reads what has arrived, waiting for at least one byte; 0 when the peer has closed.
    static func receiveSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, _ deadline: Deadline, _ waitingFor: String)
        throws(TransportError) -> Int
    {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(fd, for: Int32(POLLIN), deadline, waitingFor)
            } else if errno != EINTR {
                throw failure(errno, "recv")
            }
        }
    }

    /// Nothing listens or no route: `.connectionRefused` (as CURLE_COULDNT_CONNECT); the kernel's own
    /// connect timeout: `.timeout`; anything else: `.other`.
    static func failure(_ code: Int32, _ call: String) -> TransportError {
        let kind: TransportError.Kind =
            switch code {
            case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH: .connectionRefused
            case ETIMEDOUT: .timeout
            default: .other
            }
        return TransportError(kind, "\(call): \(String(cString: strerror(code)))")
    }
}

// MARK: - Connecting

extension Wire {
    /// A connected non-blocking socket to the target's host and port. Address literals are used
    /// as they are; names go through `ctls_resolve` (getaddrinfo_a, bounded by the deadline). The
    /// addresses are raced as RFC 8305 says (`HappyEyeballs`): one that black-holes costs 250 ms,
    /// not the whole deadline.
    static func open(
        _ target: HTTPTarget, fixedAddresses: [String]? = nil, attemptDelay: Duration = HappyEyeballs.attemptDelay, _ deadline: Deadline
    ) throws(TransportError) -> Int32 {
        let addresses = try resolve(target, fixedAddresses: fixedAddresses, deadline)
        guard !addresses.isEmpty else { throw TransportError(.hostNotFound, "\(target.host) has no address") }
        return try HappyEyeballs.connect(HappyEyeballs.interleaved(addresses), attemptDelay: attemptDelay, deadline)
    }

    /// A sockaddr_in or sockaddr_in6, as bytes.
    struct Address {
        var family: Int32
        var bytes: [UInt8]
    }

    static func resolve(_ target: HTTPTarget, fixedAddresses: [String]? = nil, _ deadline: Deadline) throws(TransportError) -> [Address] {
        if let literal = literal(target.host, port: target.port) { return [literal] }
        if let fixedAddresses {
            var addresses: [Address] = []
            for text in fixedAddresses {
                guard let address = literal(text, port: target.port) else {
                    throw TransportError(.other, "fixed address \(HTTPText.quoted(text)) of \(target.host) is not an IP address")
                }
                addresses.append(address)
            }
            return addresses
        }
        guard !target.isIPv6Literal else { throw TransportError(.other, "not an IPv6 address: [\(target.host)]") }
        var list: UnsafeMutablePointer<addrinfo>?
        let code = ctls_resolve(target.host, String(target.port), deadline.millisecondsLeft, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard code == 0 else {
            if code == CTLS_RESOLVE_TIMEOUT { throw deadline.expired("resolving \(target.host)") }
            throw lookupFailure(code)
        }
        var addresses: [Address] = []
        var entry = list
        while let current = entry {
            let info = current.pointee
            if let address = info.ai_addr, info.ai_family == AF_INET || info.ai_family == AF_INET6 {
                let bytes = Array(UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen)))
                addresses.append(Address(family: info.ai_family, bytes: bytes))
            }
            entry = info.ai_next
        }
        return addresses
    }

    /// EAI_NONAME, EAI_AGAIN, EAI_FAIL and glibc's EAI_NODATA (-5) and EAI_ADDRFAMILY (-9): the
    /// name has no address, for now or for good (`.hostNotFound`). Anything else is `.other`.
    static func lookupFailure(_ code: Int32) -> TransportError {
        let text = String(cString: gai_strerror(code))
        switch code {
        case EAI_NONAME, EAI_AGAIN, EAI_FAIL, -5, -9:
            return TransportError(.hostNotFound, "cannot resolve the name (\(text))")
        case EAI_SYSTEM:
            return TransportError(.other, "name lookup failed: \(String(cString: strerror(errno)))")
        default:
            return TransportError(.other, "name lookup failed (\(text))")
        }
    }

    /// An IPv4 or IPv6 address written out, as a socket address; nil for a name.
    static func literal(_ host: String, port: UInt16) -> Address? {
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            return Address(family: AF_INET, bytes: withUnsafeBytes(of: v4) { Array($0) })
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            return Address(family: AF_INET6, bytes: withUnsafeBytes(of: v6) { Array($0) })
        }
        return nil
    }

    /// One connection attempt under way, or already made (loopback may connect at once).
    enum Attempt {
        case connected(Int32)
        case inProgress(Int32)
    }

    /// socket(2) and connect(2), non-blocking: EINPROGRESS is an attempt under way, to be polled
    /// for POLLOUT and read with `connectResult` (connect(2), "EINPROGRESS"). A failure at once
    /// (ECONNREFUSED, ENETUNREACH: no route for this family) throws.
    static func startConnect(_ address: Address) throws(TransportError) -> Attempt {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(address.family, type, 0)
        guard fd >= 0 else { throw failure(errno, "socket") }
        let result = address.bytes.withUnsafeBytes {
            connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
        }
        if result == 0 {
            connected(fd)
            return .connected(fd)
        }
        // EINTR: the connection goes on asynchronously, as with EINPROGRESS (connect(2)).
        guard errno == EINPROGRESS || errno == EINTR else {
            let error = failure(errno, "connect")
            close(fd)
            throw error
        }
        return .inProgress(fd)
    }

    /// The outcome of an attempt that poll(2) reported: 0 when connected, else its errno (SO_ERROR).
    static func connectResult(_ fd: Int32) -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errno }
        return error
    }

    /// Settings of a connected socket: the request goes out in one write, so there is no reason to
    /// let Nagle hold back its last segment.
    static func connected(_ fd: Int32) {
        var on: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1, started by the test that uses it: the transport under test
/// goes through the kernel's TCP stack, its own parser and its own timeouts, not through a mock.
/// With a `TLSIdentity` it speaks HTTPS (libssl.so.3 through the CTLS shim, as SocketTransport).
///
/// It listens on an ephemeral port (bind to port 0) and serves each connection on its own
/// thread, with keep-alive, so connection reuse can be observed (`connectionsAccepted`). Answers
/// are scripted per path (`route`), and may misbehave on purpose: stall past the client's
/// timeout, close before the announced Content-Length, close without answering. Every request is
/// recorded (request line, target, headers) before it is answered.
///
/// Nothing here sleeps: a stalled answer waits until the client gives up (closes its socket) or
/// the server stops. `stop()` (or the end of the last reference) closes everything and joins
/// every thread.
///
/// ```swift
/// let server = try LoopbackHTTPServer()
/// defer { server.stop() }
/// server.route("/v1/forecast", .response(status: 200, headers: [.init("Content-Type", "application/json")], body: bytes))
/// let response = transport.send(HTTPRequest(url: server.url("/v1/forecast?latitude=52.52")))
/// #expect(server.requests.first?.query == "latitude=52.52")
/// ```
public final class LoopbackHTTPServer: Sendable {
    /// A header line, as sent or received.
    public struct Header: Sendable, Equatable, CustomStringConvertible {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }

        public var description: String { "\(name): \(value)" }
    }

    /// What the server does with a request.
    public enum Reply: Sendable {
        /// A complete answer. `Content-Length` is added unless `headers` has one or a
        /// `Transfer-Encoding`, or the status has no body (1xx, 204, 304).
        case response(status: Int, headers: [Header] = [], body: [UInt8] = [])
        /// `Transfer-Encoding: chunked`, one chunk per element, then the last chunk.
        case chunked(status: Int, headers: [Header] = [], chunks: [[UInt8]])
        /// Announces `declaredLength` bytes, sends `body` (shorter), then closes the connection.
        case truncated(status: Int, headers: [Header] = [], body: [UInt8], declaredLength: Int)
        /// Sends `first` (nothing, or a head and part of a body), then waits without a timer
        /// until the client closes the connection or the server stops: a server slower than
        /// any client timeout.
        case stall(first: [UInt8])
        /// Closes the connection without a byte of answer.
        case closeWithoutResponse
        /// These bytes as they are, then closes the connection.
        case raw([UInt8])
        /// These bytes as they are, then closes the TCP connection without TLS close_notify
        /// (RFC 8446 §6.1): what a cut by the network or an attacker looks like. Over plain HTTP,
        /// the same as `raw`.
        case cutWithoutCloseNotify([UInt8])

        /// A complete answer with a UTF-8 body.
        public static func response(status: Int, headers: [Header] = [], text: String) -> Reply {
            .response(status: status, headers: headers, body: Array(text.utf8))
        }

        /// Sends a head announcing 1,000 bytes of body, then stalls.
        public static var stallAfterHead: Reply {
            .stall(first: Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n".utf8))
        }

        /// An answer from a recorded head ("HTTP/1.1 304 Not Modified\r\nDate: …\r\n\r\n", LF or
        /// CR LF line ends, as in the test-data corpus's `weather/*.headers.txt`) and a body.
        public static func recorded(head: String, body: [UInt8] = []) throws(RecordedHeadError) -> Reply {
            var lines = head.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
                .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
            while lines.last?.isEmpty == true { lines.removeLast() }
            guard let statusLine = lines.first else { throw RecordedHeadError(line: "", reason: "empty head") }
            let fields = statusLine.split(separator: " ", maxSplits: 2)
            guard fields.count >= 2, fields[0].hasPrefix("HTTP/"), let status = Int(fields[1]) else {
                throw RecordedHeadError(line: String(statusLine), reason: "not a status line")
            }
            var headers: [Header] = []
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else {
                    throw RecordedHeadError(line: String(line), reason: "a header line without a colon")
                }
                headers.append(Header(String(line[..<colon]), trimmed(line[line.index(after: colon)...])))
            }
            return .response(status: status, headers: headers, body: body)
        }
    }

    public struct RecordedHeadError: Error, Equatable, CustomStringConvertible {
        public var line: String
        public var reason: String
        public var description: String { "recorded head: \(reason): \(line)" }
    }

    /// A request as the server read it.
    public struct Request: Sendable, Equatable {
        /// "GET /v1/forecast?latitude=52.52 HTTP/1.1"
        public var requestLine: String
        public var method: String
        /// The request target as sent: path and query, percent-encoding untouched.
        public var target: String
        public var version: String
        /// In the order received, names as sent.
        public var headers: [Header]
        /// 1 for the first connection the server accepted, 2 for the second…
        public var connection: Int

        public var path: String { String(target.prefix { $0 != "?" }) }
        /// The query without "?", or nil when there is none.
        public var query: String? { target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) } }

        /// The first header named `name` (ASCII case-insensitive).
        public func header(_ name: String) -> String? { headers(named: name).first }

        public func headers(named name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }
    }

    public struct StartError: Error, CustomStringConvertible {
        public var call: String
        public var errno: Int32
        /// Instead of strerror(errno), for failures that are not a system call's (TLS setup).
        public var reason: String? = nil
        public var description: String { "loopback server: \(call) failed: \(reason ?? String(cString: strerror(errno)))" }
    }

    private let core: Core

    /// The port the server listens on, on 127.0.0.1.
    public var port: UInt16 { core.port }
    /// "http://127.0.0.1:PORT", or "https://…" with TLS.
    public var baseURL: String { "\(core.tls == nil ? "http" : "https")://127.0.0.1:\(port)" }

    /// Binds 127.0.0.1 on an ephemeral port and starts accepting on a thread of its own. Paths
    /// without a route are answered 404. With `tls`, every connection starts with a TLS handshake
    /// in which the server presents that identity.
    public init(tls: TLSIdentity? = nil) throws(StartError) {
        core = try Core(tls: tls.map { (identity) throws(StartError) in try ServerTLS(identity) })
        core.start()
    }

    deinit { core.stop() }

    /// The absolute URL of `pathAndQuery` ("/v1/forecast?latitude=52.52") on this server.
    public func url(_ pathAndQuery: String) -> String {
        baseURL + (pathAndQuery.hasPrefix("/") ? "" : "/") + pathAndQuery
    }

    /// Answers every request for `path` (the target without its query) with `reply`.
    public func route(_ path: String, _ reply: Reply) {
        route(path) { _ in reply }
    }

    /// Answers requests for `path` with whatever `handler` decides for each (e.g. 304 when
    /// If-Modified-Since matches). The handler runs on a connection thread.
    public func route(_ path: String, handler: @escaping @Sendable (Request) -> Reply) {
        core.state.withLock { $0.routes[path] = handler }
    }

    /// Every request received so far, in the order they were read.
    public var requests: [Request] { core.state.withLock { $0.requests } }

    /// How many TCP connections the server accepted so far.
    public var connectionsAccepted: Int { core.state.withLock { $0.connections } }

    /// Closes the listening socket and every connection (a stalled answer ends) and joins every
    /// thread. Idempotent; also done when the server is released.
    public func stop() { core.stop() }

    /// A port on 127.0.0.1 that nothing listens on (bound, read, closed): connecting to it is
    /// refused. Another program could take it in between; on loopback in a test that is unlikely.
    public static func unusedPort() throws(StartError) -> UInt16 {
        let fd = try Core.listeningSocket(listen: false)
        defer { close(fd) }
        return try Core.boundPort(fd)
    }

    static func trimmed(_ text: Substring) -> String {
        let isSpace = { (c: Character) in c == " " || c == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(text[first...last])
    }
}

// MARK: - The sockets and threads

extension LoopbackHTTPServer {
    struct State {
        var routes: [String: @Sendable (Request) -> Reply] = [:]
        var requests: [Request] = []
        var connections = 0
        var threads: [pthread_t] = []
        var stopped = false
    }

    /// What the threads share; the server object owns it, so dropping the server stops them.
    final class Core: Sendable {
        let listenFD: Int32
        let port: UInt16
        /// Written once by `stop`, never read: every poll that includes it wakes up for good.
        let wakeRead: Int32
        let wakeWrite: Int32
        /// The SSL_CTX of an HTTPS server.
        let tls: ServerTLS?
        let state = Mutex(State())
        private let acceptThread = Mutex<pthread_t?>(nil)

        init(tls: ServerTLS?) throws(StartError) {
            self.tls = tls
            let fd = try Self.listeningSocket(listen: true)
            var pipeFDs: [Int32] = [-1, -1]
            guard pipe(&pipeFDs) == 0 else {
                let error = StartError(call: "pipe", errno: errno)
                close(fd)
                throw error
            }
            do {
                port = try Self.boundPort(fd)
            } catch {
                close(fd)
                close(pipeFDs[0])
                close(pipeFDs[1])
                throw error
            }
            listenFD = fd
            wakeRead = pipeFDs[0]
            wakeWrite = pipeFDs[1]
        }

        static func listeningSocket(listen shouldListen: Bool) throws(StartError) -> Int32 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw StartError(call: "socket", errno: errno) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let error = StartError(call: "bind 127.0.0.1:0", errno: errno)
                close(fd)
                throw error
            }
            if shouldListen, listen(fd, 64) != 0 {
                let error = StartError(call: "listen", errno: errno)
                close(fd)
                throw error
            }
            return fd
        }

        static func boundPort(_ fd: Int32) throws(StartError) -> UInt16 {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let result = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard result == 0 else { throw StartError(call: "getsockname", errno: errno) }
            return UInt16(bigEndian: address.sin_port)
        }

        func start() {
            let thread = spawn { [self] in acceptLoop() }
            acceptThread.withLock { $0 = thread }
        }

        func stop() {
            let first = state.withLock { state in
                defer { state.stopped = true }
                return !state.stopped
            }
            guard first else { return }
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
            if let thread = acceptThread.withLock({ $0 }) { pthread_join(thread, nil) }
            // The accept loop has ended: no thread is added any more.
            for thread in state.withLock({ $0.threads }) { pthread_join(thread, nil) }
            close(listenFD)
            close(wakeRead)
            close(wakeWrite)
        }

        private func acceptLoop() {
            while true {
                guard waitFor(listenFD, events: POLLIN) else { return }
                let connection = accept(listenFD, nil, nil)
                if connection < 0 {
                    if errno == EINTR || errno == ECONNABORTED || errno == EAGAIN { continue }
                    return
                }
                let index = state.withLock { state -> Int? in
                    guard !state.stopped else { return nil }
                    state.connections += 1
                    return state.connections
                }
                guard let index else {
                    close(connection)
                    return
                }
                let thread = spawn { [self] in serve(connection, index: index) }
                state.withLock { $0.threads.append(thread) }
            }
        }

        /// Polls `fd` and the wake pipe; false once the server stops.
        func waitFor(_ fd: Int32, events: Int32) -> Bool {
            var fds = [pollfd(fd: fd, events: Int16(events), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            while true {
                let ready = poll(&fds, 2, -1)
                if ready < 0 && errno == EINTR { continue }
                if ready < 0 || fds[1].revents != 0 { return false }
                return true
            }
        }

        // MARK: One connection

        private func serve(_ fd: Int32, index: Int) {
            // Closed when the link goes; nil when a TLS handshake failed.
            guard let fd = link(fd) else { return }
            var buffer: [UInt8] = []
            while true {
                guard let (request, keepAlive) = readRequest(fd, &buffer, connection: index) else { return }
                let handler = state.withLock { state -> (@Sendable (Request) -> Reply)? in
                    state.requests.append(request)
                    return state.routes[request.path]
                }
                let reply = handler?(request) ?? .response(status: 404, text: "no route for \(request.path)\n")
                guard answer(reply, on: fd, keepAlive: keepAlive) else { return }
            }
        }

        /// Reads one request head (and discards a body announced by Content-Length). Nil when the
        /// client closed, the head is malformed or too large, or the server stops.
        private func readRequest(_ fd: Link, _ buffer: inout [UInt8], connection: Int) -> (Request, Bool)? {
            let end: Int
            while true {
                if let first = buffer.first, !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) {
                    // Not HTTP (a TLS ClientHello starts with 0x16): answer as a plain server would.
                    _ = sendAll(fd, Self.head(400, [Header("Content-Length", "0"), Header("Connection", "close")]))
                    return nil
                }
                if let found = Self.endOfHead(buffer) {
                    end = found
                    break
                }
                guard buffer.count < 65536, receive(fd, into: &buffer) else { return nil }
            }
            let head = String(decoding: buffer[..<end], as: UTF8.self)
            buffer.removeFirst(end + 4)
            var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
            let requestLine = String(lines.removeFirst())
            let parts = requestLine.split(separator: " ")
            guard parts.count == 3 else { return nil }
            var headers: [Header] = []
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { return nil }
                headers.append(Header(String(line[..<colon]), trimmed(line[line.index(after: colon)...])))
            }
            let request = Request(
                requestLine: requestLine, method: String(parts[0]), target: String(parts[1]), version: String(parts[2]),
                headers: headers, connection: connection)
            if let length = request.header("Content-Length").flatMap({ Int($0) }), length > 0 {
                while buffer.count < length {
                    guard receive(fd, into: &buffer) else { return nil }
                }
                buffer.removeFirst(length)
            }
            let close = request.headers(named: "Connection").contains { $0.lowercased() == "close" } || request.version == "HTTP/1.0"
            return (request, !close)
        }

        private static func endOfHead(_ buffer: [UInt8]) -> Int? {
            guard buffer.count >= 4 else { return nil }
            for i in 0...(buffer.count - 4)
            where buffer[i] == 0x0D && buffer[i + 1] == 0x0A && buffer[i + 2] == 0x0D && buffer[i + 3] == 0x0A {
                return i
            }
            return nil
        }

        /// Appends what arrives; false when the peer closed, on an error, or when the server stops.
        private func receive(_ link: Link, into buffer: inout [UInt8]) -> Bool {
            if link.session != nil { return receiveTLS(link, into: &buffer) }
            let fd = link.fd
            guard waitFor(fd, events: POLLIN) else { return false }
            var chunk = [UInt8](repeating: 0, count: 16384)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return true }
            guard count > 0 else { return false }
            buffer += chunk[..<count]
            return true
        }

        /// Writes all of `bytes`; false when the peer is gone or the server stops.
        private func sendAll(_ link: Link, _ bytes: [UInt8]) -> Bool {
            if link.session != nil { return sendAllTLS(link, bytes) }
            let fd = link.fd
            var offset = 0
            while offset < bytes.count {
                guard waitFor(fd, events: POLLOUT) else { return false }
                let sent = bytes.withUnsafeBytes {
                    send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                if sent < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }

        /// Sends the reply; true when the connection stays open for another request.
        private func answer(_ reply: Reply, on fd: Link, keepAlive: Bool) -> Bool {
            switch reply {
            case .response(let status, let headers, let body):
                let announces = headers.contains { ["content-length", "transfer-encoding"].contains($0.name.lowercased()) }
                let bodiless = (100..<200).contains(status) || status == 204 || status == 304
                var all = headers
                if !announces && !bodiless { all.append(Header("Content-Length", String(body.count))) }
                if !keepAlive { all.append(Header("Connection", "close")) }
                return sendAll(fd, Self.head(status, all) + body) && keepAlive
            case .chunked(let status, let headers, let chunks):
                var all = headers + [Header("Transfer-Encoding", "chunked")]
                if !keepAlive { all.append(Header("Connection", "close")) }
                var bytes = Self.head(status, all)
                for chunk in chunks where !chunk.isEmpty {
                    bytes += Array(String(chunk.count, radix: 16).utf8) + [0x0D, 0x0A] + chunk + [0x0D, 0x0A]
                }
                bytes += Array("0\r\n\r\n".utf8)
                return sendAll(fd, bytes) && keepAlive
            case .truncated(let status, let headers, let body, let declaredLength):
                let all = headers.filter { $0.name.lowercased() != "content-length" } + [Header("Content-Length", String(declaredLength))]
                _ = sendAll(fd, Self.head(status, all) + body)
                return false
            case .stall(let first):
                guard first.isEmpty || sendAll(fd, first) else { return false }
                // Until the client hangs up (read gives 0) or the server stops.
                var discard: [UInt8] = []
                while receive(fd, into: &discard) { discard.removeAll(keepingCapacity: true) }
                return false
            case .closeWithoutResponse:
                return false
            case .raw(let bytes):
                _ = sendAll(fd, bytes)
                return false
            case .cutWithoutCloseNotify(let bytes):
                _ = sendAll(fd, bytes)
                fd.sendsCloseNotify = false
                return false
            }
        }

        static func head(_ status: Int, _ headers: [Header]) -> [UInt8] {
            var text = "HTTP/1.1 \(status) \(reason(status))\r\n"
            for header in headers { text += "\(header.name): \(header.value)\r\n" }
            text += "\r\n"
            return Array(text.utf8)
        }

        static func reason(_ status: Int) -> String {
            switch status {
            case 200: "OK"
            case 203: "Non-Authoritative Information"
            case 204: "No Content"
            case 301: "Moved Permanently"
            case 302: "Found"
            case 304: "Not Modified"
            case 400: "Bad Request"
            case 403: "Forbidden"
            case 404: "Not Found"
            case 429: "Too Many Requests"
            case 500: "Internal Server Error"
            case 502: "Bad Gateway"
            case 503: "Service Unavailable"
            default: "Status \(status)"
            }
        }
    }
}

/// Starts `body` on a new thread (pthreads: no Foundation).
private func spawn(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var thread = pthread_t()
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    let result = pthread_create(&thread, nil, { argument in
        Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
        return nil
    }, box)
    precondition(result == 0, "pthread_create failed: \(result)")
    return thread
}

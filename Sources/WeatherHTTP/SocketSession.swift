import HAL
import Synchronization
import Weather

/// The state behind a `SocketTransport` and its copies: the libraries, the TLS context and the
/// idle connections, under a mutex held only while they are taken or returned.
final class SocketSession: Sendable {
    let configuration: SocketTransport.Configuration
    private let state = Mutex(State())

    /// Idle connections kept at most (one per scheme, host and port).
    static let maximumIdleConnections = 4
    /// An idle connection older than this is closed rather than reused: servers drop idle ones
    /// after a while anyway (nginx's keepalive_timeout is 75 s by default).
    static let maximumIdle: Int64 = 60 * 1_000_000_000

    private struct State {
        var zlib: Result<ZlibLibrary, TransportError>?
        var ssl: Result<SSLLibrary, TransportError>?
        var context: TLSContext?
        var idle: [SocketConnection] = []
        var connectionsOpened = 0
    }

    init(configuration: SocketTransport.Configuration) {
        self.configuration = configuration
    }

    var connectionsOpened: Int { state.withLock { $0.connectionsOpened } }

    var libraryVersion: Result<String, TransportError> {
        state.withLock { state in
            Result { () throws(TransportError) in
                let zlib = try zlib(&state).get()
                let ssl = try ssl(&state).get()
                return "\(ssl.version), zlib \(zlib.version)"
            }
        }
    }

    func send(_ request: HTTPRequest) -> Result<HTTPResponse, TransportError> {
        let deadline = Deadline(after: request.timeout)
        let authority = HTTPText.authority(of: request.url)
        do {
            return .success(try exchange(request, deadline))
        } catch {
            let detail = "\(authority): \(HTTPText.oneLine(error.detail))"
            return .failure(TransportError(error.kind, detail, certificateTime: error.certificateTime))
        }
    }

    private func exchange(_ request: HTTPRequest, _ deadline: Deadline) throws(TransportError) -> HTTPResponse {
        let target = try HTTPTarget.parse(request.url)
        if let bad = request.headers.first(where: { !HTTPText.isSendable($0) }) {
            throw TransportError(.other, "header \(HTTPText.quoted(bad.name)) cannot be sent (a line break, NUL or bad name)")
        }
        let head = target.requestHead(request.headers)
        let closeAsked = request.headers.contains { $0.isNamed("Connection") && $0.value.lowercased().contains("close") }
        let (zlib, context, idle) = try prepare(target, verificationTime: request.verificationTime)

        var connection = idle
        var reused = idle != nil
        while true {
            let current: SocketConnection
            if let connection {
                current = connection
            } else {
                current = try SocketConnection(
                    target, context: context, verificationTime: request.verificationTime,
                    fixedAddresses: configuration.fixedAddresses[target.host], attemptDelay: configuration.connectionAttemptDelay, deadline)
                state.withLock { $0.connectionsOpened += 1 }
            }
            connection = current
            do {
                try current.send(head, deadline)
                let reader = ResponseReader(connection: current, deadline: deadline, maximumBodySize: request.maximumBodySize, zlib: zlib)
                let (response, reusable) = try reader.read()
                if reusable && !closeAsked { keep(current) }
                return response
            } catch {
                // The server closed a connection that sat idle: try once more on a fresh one.
                if reused && current.receivedForRequest == 0 && error.kind != .timeout && error.kind != .tooLarge {
                    connection = nil
                    reused = false
                    continue
                }
                throw error
            }
        }
    }

    /// Loads what the target needs and takes its idle connection, if a usable one is there: for
    /// https, one whose certificates are valid at the time this request checks at too (a
    /// connection verified under another time must not stand in for a handshake that fails).
    private func prepare(_ target: HTTPTarget, verificationTime: WallTime?) throws(TransportError)
        -> (ZlibLibrary, TLSContext?, SocketConnection?)
    {
        try state.withLock { (state) throws(TransportError) in
            let zlib = try zlib(&state).get()
            var context: TLSContext?
            if target.secure {
                if state.context == nil {
                    state.context = try TLSContext(ssl(&state).get(), trust: configuration.trust)
                }
                context = state.context
            }
            let now = Deadline.now()
            var idle: SocketConnection?
            if let index = state.idle.firstIndex(where: { $0.key == target.connectionKey }) {
                let candidate = state.idle.remove(at: index)
                if candidate.isReusable(now: now, maximumIdle: Self.maximumIdle, verificationTime: verificationTime) { idle = candidate }
            }
            state.idle.removeAll { now - $0.idleSince > Self.maximumIdle }
            return (zlib, context, idle)
        }
    }

    /// Puts a connection back for the next request to its host, replacing an older one.
    private func keep(_ connection: SocketConnection) {
        connection.idleSince = Deadline.now()
        let dropped: [SocketConnection] = state.withLock { state in
            var dropped = state.idle.filter { $0.key == connection.key }
            state.idle.removeAll { $0.key == connection.key }
            state.idle.append(connection)
            if state.idle.count > Self.maximumIdleConnections { dropped.append(state.idle.removeFirst()) }
            return dropped
        }
        _ = dropped  // closed here, outside the lock
    }

    private func zlib(_ state: inout State) -> Result<ZlibLibrary, TransportError> {
        if let zlib = state.zlib { return zlib }
        let loaded = ZlibLibrary.open(configuration.zlibLibraryName)
        state.zlib = loaded
        return loaded
    }

    private func ssl(_ state: inout State) -> Result<SSLLibrary, TransportError> {
        if let ssl = state.ssl { return ssl }
        let loaded = SSLLibrary.open(configuration.sslLibraryName)
        state.ssl = loaded
        return loaded
    }
}

import CCurl
import Synchronization
import Weather

/// An `HTTPTransport` over libcurl's easy API, loaded at run time from `libcurl.so.4` (Debian's
/// `libcurl4`, the library FoundationNetworking links too), so the package builds with nothing
/// but the Swift toolchain. Not the device's transport: `SocketTransport` is, because libcurl's
/// dependencies cost the daemon its memory budget (docs/http-transport.md). This one stays as
/// the measured alternative and a fallback (`weather fetch --transport curl`), held to the same
/// contract by the same tests.
///
/// What a request gets:
/// - the whole exchange bounded by `HTTPRequest.timeout` (CURLOPT_TIMEOUT_MS), connecting by the
///   smaller of that and `Configuration.connectTimeout`; no signals (CURLOPT_NOSIGNAL), so any
///   thread may call it;
/// - the request's headers as given, in order (an empty value is sent as `Name:`);
///   `Accept-Encoding` is libcurl's (every coding it decodes) unless the request names one, and
///   the body comes back decoded either way;
/// - HTTP/1.1, `http` and `https` only, redirects not followed (a 3xx is returned as it is);
/// - the headers of the final response, the status as it is (the transport does not judge
///   4xx/5xx), and the body, refused with `.tooLarge` as soon as it passes
///   `HTTPRequest.maximumBodySize` (decoded bytes, so a gzip bomb stops there as well);
/// - HTTPS with TLS ≥ 1.2 (CURLOPT_SSLVERSION, as SocketTransport; RFC 8996), checked against
///   the system's CA certificates (libcurl's built-in bundle path, on Debian
///   `/etc/ssl/certs/ca-certificates.crt`) unless `Configuration.trust` says otherwise.
///
/// The easy handle, and with it the connection cache, DNS cache and TLS sessions, lives as long
/// as the transport and its copies: consecutive requests to one host reuse the connection.
/// Copies share that handle; a mutex lets one request through at a time.
///
/// When libcurl cannot be loaded, every `send` fails with `.unavailable` ("libcurl.so.4 not found:
/// apt install libcurl4"); nothing crashes. The library is loaded on the first `send`, not by
/// `init`, so a process that never fetches never maps it.
public struct CurlTransport: HTTPTransport, Sendable {
    public struct Configuration: Sendable, Equatable {
        public typealias Trust = TLSTrust

        /// dlopen's name of the library: a file name searched the usual way, or a path.
        public var libraryName: String
        /// The most connecting (DNS, TCP, TLS) may take; never more than the request's timeout.
        public var connectTimeout: Duration
        public var trust: Trust

        public init(libraryName: String = "libcurl.so.4", connectTimeout: Duration = .seconds(10), trust: Trust = .system) {
            self.libraryName = libraryName
            self.connectTimeout = connectTimeout
            self.trust = trust
        }
    }

    private let session: CurlSession

    public init(configuration: Configuration = Configuration()) {
        session = CurlSession(configuration: configuration)
    }

    /// A transport over the library `libraryName` (tests pass a name that does not exist).
    public init(libraryName: String) {
        self.init(configuration: Configuration(libraryName: libraryName))
    }

    public var configuration: Configuration { session.configuration }

    /// libcurl's `curl_version()` ("libcurl/7.88.1 OpenSSL/3.0.19 zlib/1.2.13 …"), or the
    /// reason it cannot be loaded. Loads the library.
    public var libraryVersion: Result<String, TransportError> {
        session.library().map { String(cString: ccurl_version($0.pointer)) }
    }

    /// How many connections this transport (and its copies) opened so far: fewer than the
    /// requests when connections are reused.
    public var connectionsOpened: Int { session.connectionsOpened }

    public mutating func send(_ request: HTTPRequest) -> Result<HTTPResponse, TransportError> {
        session.send(request)
    }
}

/// A libcurl opened by the shim; immutable and shared by every thread (the functions it points
/// to are thread-safe as long as one easy handle is used by one thread at a time).
struct CurlLibrary: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The state behind a `CurlTransport` and its copies.
final class CurlSession: Sendable {
    let configuration: CurlTransport.Configuration
    private let state: Mutex<State>

    private struct State: ~Copyable {
        var library: Result<CurlLibrary, TransportError>?
        var easy: OpaquePointer?
        var connectionsOpened = 0
        /// CURLOPT_ERRORBUFFER: libcurl writes into it during a transfer.
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CCURL_ERROR_SIZE))

        deinit {
            if let easy, case .success(let library) = library {
                ccurl_easy_cleanup(library.pointer, easy)
            }
            errorBuffer.deallocate()
        }
    }

    init(configuration: CurlTransport.Configuration) {
        self.configuration = configuration
        state = Mutex(State())
    }

    var connectionsOpened: Int { state.withLock { $0.connectionsOpened } }

    func library() -> Result<CurlLibrary, TransportError> {
        state.withLock { state in Self.load(&state, configuration.libraryName) }
    }

    private static func load(_ state: inout State, _ name: String) -> Result<CurlLibrary, TransportError> {
        if let library = state.library { return library }
        var error = [CChar](repeating: 0, count: 256)
        let opened = error.withUnsafeMutableBufferPointer { ccurl_open(name, $0.baseAddress, $0.count) }
        let library: Result<CurlLibrary, TransportError> =
            if let opened {
                .success(CurlLibrary(pointer: opened))
            } else {
                .failure(TransportError(.unavailable, String(decoding: error.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)))
            }
        state.library = library
        return library
    }

    func send(_ request: HTTPRequest) -> Result<HTTPResponse, TransportError> {
        state.withLock { state in
            let library: CurlLibrary
            switch Self.load(&state, configuration.libraryName) {
            case .success(let loaded): library = loaded
            case .failure(let error): return .failure(error)
            }
            let lib = library.pointer
            let easy: OpaquePointer
            if let existing = state.easy {
                ccurl_easy_reset(lib, existing)
                easy = existing
            } else {
                guard let created = ccurl_easy_init(lib) else {
                    return .failure(TransportError(.other, "\(CurlRequest.host(of: request.url)): curl_easy_init failed"))
                }
                state.easy = created
                easy = created
            }
            let transfer = CurlRequest(request: request, library: lib, easy: easy, errorBuffer: state.errorBuffer)
            let result = transfer.perform(configuration)
            var opened = 0
            if ccurl_getinfo_long(lib, easy, CCURLINFO_NUM_CONNECTS, &opened) == CCURLE_OK {
                state.connectionsOpened += opened
            }
            return result
        }
    }
}

import CTLS
import Weather

/// A libssl opened by the shim; immutable and shared by every thread (OpenSSL 3 is thread-safe
/// as long as one SSL is used by one thread at a time).
struct SSLLibrary: @unchecked Sendable {
    let pointer: OpaquePointer

    /// `.unavailable` with the shim's line ("libssl.so.3 not found: apt install libssl3t64 (Debian 13) or libssl3 (Debian 12)") when
    /// the library cannot be opened or is not an OpenSSL 3 libssl.
    static func open(_ name: String) -> Result<SSLLibrary, TransportError> {
        var error = [CChar](repeating: 0, count: 256)
        let opened = error.withUnsafeMutableBufferPointer { ctls_open(name, $0.baseAddress, $0.count) }
        guard let opened else { return .failure(TransportError(.unavailable, HTTPText.string(error))) }
        return .success(SSLLibrary(pointer: opened))
    }

    /// The peer closed without close_notify (CTLS_ERR_UNEXPECTED_EOF).
    static let unexpectedEOF = UInt(CTLS_ERR_UNEXPECTED_EOF)

    /// OpenSSL's error queue (ERR_get_error(3), thread-local) as one line, emptied: "error:0A000086:
    /// SSL routines::certificate verify failed; …". At most four entries; `except` is left out.
    func drainErrors(except ignored: UInt = 0) -> String {
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        while true {
            let code = ctls_error_next(pointer)
            if code == 0 { break }
            if code != ignored && lines.count < 4 {
                ctls_error_string(pointer, code, &buffer, buffer.count)
                lines.append(HTTPText.string(buffer))
            }
        }
        return lines.joined(separator: "; ")
    }

    var version: String { String(cString: ctls_version(pointer)) }
}

/// The client SSL_CTX of a transport: TLS 1.2 or later, the peer verified against `trust`.
/// Created on the first HTTPS request and shared by its connections (SSL_new on one SSL_CTX from
/// several threads is safe in OpenSSL 3).
final class TLSContext: @unchecked Sendable {
    let library: SSLLibrary
    let pointer: OpaquePointer

    init(_ library: SSLLibrary, trust: SocketTransport.Configuration.Trust) throws(TransportError) {
        self.library = library
        let lib = library.pointer
        ctls_error_clear(lib)
        guard let context = ctls_context_new(lib, 0) else {
            throw TransportError(.tls, "SSL_CTX_new failed: \(library.drainErrors())")
        }
        pointer = context
        // Everything below configures; a failure frees the context in deinit.
        guard ctls_context_require_tls12(lib, context) == 1 else {
            throw TransportError(.tls, "cannot require TLS 1.2: \(library.drainErrors())")
        }
        // No SSL_OP_IGNORE_UNEXPECTED_EOF: a close without close_notify must stay visible, since a
        // body framed by the connection's end is complete only with it (RFC 9112 §9.8; TLSChannel).
        ctls_context_verify_peer(lib, context)
        let loaded: Int32
        let source: String
        switch trust {
        case .system:
            loaded = ctls_context_trust_default_paths(lib, context)
            source = "OpenSSL's default CA paths"
        case .bundle(let path):
            loaded = ctls_context_trust_locations(lib, context, path, nil)
            source = "the CA bundle \(path)"
        case .directory(let path):
            // Loaded lazily by subject hash during each handshake (SSL_CTX_load_verify_locations(3)).
            loaded = ctls_context_trust_locations(lib, context, nil, path)
            source = "the CA directory \(path)"
        }
        guard loaded == 1 else {
            let queue = library.drainErrors()
            throw TransportError(.tls, "cannot load \(source)" + (queue.isEmpty ? "" : ": \(queue)"))
        }
    }

    deinit { ctls_context_free(library.pointer, pointer) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CTLS

/// The HTTPS side of LoopbackHTTPServer: OpenSSL's server half through the same dlopen'd
/// libssl.so.3 as SocketTransport (Sources/CTLS), so the tests need neither python nor a -dev
/// package. Each connection thread runs its SSL on the non-blocking socket itself (SSL_set_fd)
/// and waits in the server's poll, which the wake pipe interrupts, so `stop()` still ends a
/// stalled answer.
extension LoopbackHTTPServer {
    /// What an HTTPS server presents: a PEM certificate chain and its PEM private key.
    public struct TLSIdentity: Sendable, Equatable {
        public var certificateChainPath: String
        public var privateKeyPath: String
        /// dlopen's name of libssl.
        public var libraryName: String
        /// Offer TLS 1.1 and nothing else (at OpenSSL security level 0, which TLS 1.1 needs): a
        /// server every client of this project must refuse (RFC 8996 deprecates TLS 1.0 and 1.1).
        public var onlyTLS11: Bool

        public init(certificateChainPath: String, privateKeyPath: String, libraryName: String = "libssl.so.3", onlyTLS11: Bool = false) {
            self.certificateChainPath = certificateChainPath
            self.privateKeyPath = privateKeyPath
            self.libraryName = libraryName
            self.onlyTLS11 = onlyTLS11
        }
    }

    /// The server's SSL_CTX, shared by the connection threads (SSL_new on one context from
    /// several threads is safe in OpenSSL 3).
    final class ServerTLS: @unchecked Sendable {
        let library: OpaquePointer
        let context: OpaquePointer

        init(_ identity: TLSIdentity) throws(StartError) {
            var error = [CChar](repeating: 0, count: 256)
            guard let library = error.withUnsafeMutableBufferPointer({ ctls_open(identity.libraryName, $0.baseAddress, $0.count) }) else {
                let reason = String(decoding: error.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
                throw StartError(call: "TLS setup", errno: 0, reason: reason)
            }
            guard let context = ctls_context_new(library, 1) else {
                throw StartError(call: "SSL_CTX_new", errno: 0, reason: Self.errors(library))
            }
            self.library = library
            self.context = context
            guard ctls_context_use_certificate_chain(library, context, identity.certificateChainPath) == 1 else {
                throw StartError(call: "loading \(identity.certificateChainPath)", errno: 0, reason: Self.errors(library))
            }
            guard ctls_context_use_private_key(library, context, identity.privateKeyPath) == 1 else {
                throw StartError(call: "loading \(identity.privateKeyPath)", errno: 0, reason: Self.errors(library))
            }
            if identity.onlyTLS11 {
                guard ctls_context_only_tls11(library, context) == 1 else {
                    throw StartError(call: "limiting the server to TLS 1.1", errno: 0, reason: Self.errors(library))
                }
            } else {
                _ = ctls_context_require_tls12(library, context)
            }
            // SSL_write on the non-blocking socket then behaves like send(2) (SSL_CTX_set_mode(3)).
            ctls_context_set_partial_writes(library, context)
        }

        deinit { ctls_context_free(library, context) }

        static func errors(_ library: OpaquePointer) -> String {
            var lines: [String] = []
            var buffer = [CChar](repeating: 0, count: 256)
            while case let code = ctls_error_next(library), code != 0 {
                ctls_error_string(library, code, &buffer, buffer.count)
                lines.append(String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))
            }
            return lines.isEmpty ? "no reason given" : lines.joined(separator: "; ")
        }
    }

    /// One accepted connection, plain or TLS; closing it sends close_notify first (best effort)
    /// unless `sendsCloseNotify` was cleared.
    final class Link {
        let fd: Int32
        let library: OpaquePointer?
        let session: OpaquePointer?
        var sendsCloseNotify = true

        init(fd: Int32, library: OpaquePointer? = nil, session: OpaquePointer? = nil) {
            self.fd = fd
            self.library = library
            self.session = session
        }

        deinit {
            if let library, let session {
                if sendsCloseNotify { _ = ctls_shutdown(library, session) }
                ctls_session_free(library, session)
            }
            close(fd)
        }
    }
}

extension LoopbackHTTPServer.Core {
    typealias Link = LoopbackHTTPServer.Link

    /// The accepted socket as a link: as it is for a plain server; after a completed TLS handshake
    /// for an HTTPS one (nil, and closed, when the handshake fails: a client that does not trust
    /// the certificate aborts it).
    func link(_ fd: Int32) -> Link? {
        guard let tls else { return Link(fd: fd) }
        // A write to a client that has gone raises SIGPIPE (the socket BIO has no MSG_NOSIGNAL):
        // blocked on this connection thread, it stays pending here and harms nobody.
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipe, nil)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        guard let session = ctls_session_new(tls.library, tls.context) else {
            close(fd)
            return nil
        }
        let link = Link(fd: fd, library: tls.library, session: session)
        guard ctls_session_set_fd(tls.library, session, fd) == 1 else { return nil }
        while true {
            let result = ctls_accept(tls.library, session)
            if result == 1 { return link }
            guard wait(link, after: result) else {
                ctls_error_clear(tls.library)
                return nil
            }
        }
    }

    /// After a result ≤ 0 of SSL_accept, SSL_read or SSL_write: waits for what SSL_get_error(3)
    /// says the engine needs; false when it failed, the peer has gone or the server stops.
    private func wait(_ link: Link, after result: Int32) -> Bool {
        switch ctls_get_error(link.library, link.session, result) {
        case Int32(CTLS_ERROR_WANT_READ): return waitFor(link.fd, events: POLLIN)
        case Int32(CTLS_ERROR_WANT_WRITE): return waitFor(link.fd, events: POLLOUT)
        default: return false
        }
    }

    /// Appends what arrives, decrypted; false when the peer closed, on an error, or when the server stops.
    func receiveTLS(_ link: Link, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { ctls_read(link.library, link.session, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                buffer += chunk[..<Int(count)]
                return true
            }
            guard wait(link, after: count) else { return false }
        }
    }

    /// Encrypts and sends all of `bytes`; false when the peer is gone or the server stops.
    func sendAllTLS(_ link: Link, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                ctls_write(link.library, link.session, $0.baseAddress! + offset, Int32(clamping: $0.count - offset))
            }
            if sent > 0 {
                offset += Int(sent)
            } else if !wait(link, after: sent) {
                return false
            }
        }
        return true
    }
}

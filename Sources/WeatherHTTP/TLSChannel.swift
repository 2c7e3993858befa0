import CTLS
import HAL
import Weather

/// TLS on one connection, with OpenSSL as a pure engine between two memory BIOs: SSL_connect,
/// SSL_read and SSL_write only move bytes in memory, and every socket call is ours (Wire), so
/// each wait is a poll bounded by the request's deadline and no write can raise SIGPIPE (a
/// socket BIO would write(2) without MSG_NOSIGNAL). SSL_ERROR_WANT_READ means "feed me what the
/// socket has"; what the engine wants sent is in the outgoing BIO after every call
/// (SSL_get_error(3), BIO_s_mem(3)).
final class TLSChannel {
    private let library: SSLLibrary
    private let session: OpaquePointer
    private let incoming: OpaquePointer
    private let outgoing: OpaquePointer
    /// The peer closed the TCP connection: the incoming BIO reads as end of file once empty.
    private var peerClosed = false
    /// The stream ended with the socket, without close_notify (RFC 8446 §6.1): a body framed by
    /// the connection's end may have been cut by anyone on the path (RFC 9112 §9.8).
    private(set) var endedWithoutCloseNotify = false
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 17 * 1024, alignment: 1)

    /// The time certificates are checked at; nil: the system clock.
    private let verificationTime: WallTime?

    /// A client session for `target` on `context`: SNI and the expected name for a DNS name; the
    /// expected address (subjectAltName iPAddress) for an address literal, which SNI must not
    /// carry (RFC 6066 §3); certificate validity checked at `verificationTime` when given.
    init(_ context: TLSContext, for target: HTTPTarget, isAddress: Bool, verificationTime: WallTime? = nil) throws(TransportError) {
        library = context.library
        let lib = library.pointer
        ctls_error_clear(lib)
        guard let session = ctls_session_new(lib, context.pointer) else {
            scratch.deallocate()
            throw TransportError(.tls, "SSL_new failed: \(context.library.drainErrors())")
        }
        var incoming: OpaquePointer?
        var outgoing: OpaquePointer?
        guard ctls_session_use_memory(lib, session, &incoming, &outgoing) == 1, let incoming, let outgoing else {
            ctls_session_free(lib, session)
            scratch.deallocate()
            throw TransportError(.tls, "cannot create the memory BIOs: \(context.library.drainErrors())")
        }
        self.session = session
        self.incoming = incoming
        self.outgoing = outgoing
        // Every stored property set before the first throw below, so deinit frees the session.
        self.verificationTime = verificationTime
        let named =
            isAddress
            ? ctls_session_expect_address(lib, session, target.host) == 1
            : ctls_session_set_server_name(lib, session, target.host) == 1 && ctls_session_expect_host(lib, session, target.host) == 1
        guard named else { throw TransportError(.tls, "cannot set the expected host \(target.host): \(library.drainErrors())") }
        if let verificationTime {
            // On this SSL's own copy of the verify parameters: the context and the other
            // sessions keep the system clock (SSL_get0_param(3)).
            switch ctls_session_verify_at(lib, session, verificationTime.seconds) {
            case 1: break
            case -1: throw TransportError(.tls, "cannot check certificates at a given time: time_t is narrower than 64 bits here")
            default: throw TransportError(.tls, "cannot set the certificate verification time: \(library.drainErrors())")
            }
        }
    }

    deinit {
        ctls_session_free(library.pointer, session)  // frees both BIOs too
        scratch.deallocate()
    }

    /// SSL_connect(3) until the handshake is done and the certificate verified.
    func handshake(_ fd: Int32, _ deadline: Deadline) throws(TransportError) {
        let lib = library.pointer
        _ = try drive(fd, deadline, "in the TLS handshake", handshake: true) { ctls_connect(lib, self.session) }
    }

    /// Decrypted bytes into `buffer`, waiting for at least one; 0 at the end of the stream.
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, _ deadline: Deadline) throws(TransportError) -> Int {
        let lib = library.pointer
        let count = Int32(clamping: buffer.count)
        let read = try drive(fd, deadline, "waiting for the response", handshake: false) {
            ctls_read(lib, self.session, buffer.baseAddress, count)
        }
        return Int(read)
    }

    /// All of `bytes`, encrypted and sent.
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ deadline: Deadline) throws(TransportError) {
        let lib = library.pointer
        var offset = 0
        while offset < bytes.count {
            let count = Int32(clamping: bytes.count - offset)
            let start = bytes.baseAddress! + offset
            let written = try drive(fd, deadline, "sending the request", handshake: false) { ctls_write(lib, self.session, start, count) }
            guard written > 0 else { throw TransportError(.other, "the server closed the TLS connection") }
            offset += Int(written)
        }
    }

    /// After the handshake: every certificate of the verified chain is valid at `time` (nil: the
    /// system clock), so the connection may carry a request that checks at that time.
    func chainIsValid(at time: WallTime?) -> Bool {
        if let time {
            var seconds = time.seconds
            return ctls_session_chain_valid_at(library.pointer, session, &seconds) == 1
        }
        return ctls_session_chain_valid_at(library.pointer, session, nil) == 1
    }

    /// Nothing decrypted or received waits inside the engine (an idle connection must have nothing).
    var isDrained: Bool {
        ctls_pending(library.pointer, session) == 0 && ctls_buffer_pending(library.pointer, incoming) == 0
    }

    /// Runs `operation` until it makes progress: sends what it produced, feeds it what the socket
    /// has when it wants more. Returns its result (> 0), or 0 for the end of the stream.
    private func drive(_ fd: Int32, _ deadline: Deadline, _ waitingFor: String, handshake: Bool, _ operation: () -> Int32)
        throws(TransportError) -> Int32
    {
        let lib = library.pointer
        while true {
            ctls_error_clear(lib)
            let result = operation()
            try flush(fd, deadline, waitingFor, handshake: handshake)
            if result > 0 { return result }
            switch ctls_get_error(lib, session, result) {
            case Int32(CTLS_ERROR_WANT_READ) where !peerClosed:
                try fill(fd, deadline, waitingFor, handshake: handshake)
            case Int32(CTLS_ERROR_WANT_WRITE):
                continue  // A memory BIO never refuses a write; what was produced is sent above.
            case Int32(CTLS_ERROR_ZERO_RETURN):
                // close_notify: the peer ended the stream on purpose.
                let queue = library.drainErrors()
                if handshake { throw closedInHandshake(queue) }
                return 0
            case _ where peerClosed:
                // The socket ended without close_notify: OpenSSL 3 reports
                // SSL_R_UNEXPECTED_EOF_WHILE_READING (SSL_ERROR_SSL), older releases SSL_ERROR_SYSCALL
                // with an empty queue. It reads as the end; whether that cut the body is for the
                // HTTP framing to say (RFC 9112 §9.8), so it is recorded.
                let rest = library.drainErrors(except: SSLLibrary.unexpectedEOF)
                if handshake { throw closedInHandshake(rest) }
                guard rest.isEmpty else { throw TransportError(.other, "TLS: \(rest)") }
                endedWithoutCloseNotify = true
                return 0
            default:
                throw handshake ? handshakeFailure() : TransportError(.other, "TLS: \(library.drainErrors())")
            }
        }
    }

    private func closedInHandshake(_ queue: String) -> TransportError {
        TransportError(.tls, "TLS handshake failed: the server closed the connection" + (queue.isEmpty ? "" : " (\(queue))"))
    }

    /// "TLS handshake failed: certificate verify failed: self-signed certificate (X509 error 18);
    /// error:0A000086:SSL routines::certificate verify failed": SSL_get_verify_result(3) in
    /// X509_verify_cert_error_string(3)'s words, then OpenSSL's error queue. A validity date
    /// (X509 errors 9 and 10) also sets `certificateTime` and says the time checked at when the
    /// request gave one ("certificate is not yet valid (X509 error 9, checked at 2025-03-01T00:00:00Z)").
    private func handshakeFailure() -> TransportError {
        let lib = library.pointer
        var parts: [String] = []
        let verify = ctls_verify_result(lib, session)
        let certificateTime: TransportError.CertificateTime? =
            switch verify {
            case Int(CTLS_X509_V_ERR_CERT_NOT_YET_VALID): .notYetValid
            case Int(CTLS_X509_V_ERR_CERT_HAS_EXPIRED): .expired
            default: nil
            }
        if verify != CTLS_X509_V_OK {
            let at = certificateTime != nil ? verificationTime.map { ", checked at \(CivilDateTime($0, offsetSeconds: 0))Z" } ?? "" : ""
            parts.append("certificate verify failed: \(String(cString: ctls_verify_error_string(lib, verify))) (X509 error \(verify)\(at))")
        }
        let queue = library.drainErrors()
        if !queue.isEmpty { parts.append(queue) }
        return TransportError(
            .tls, "TLS handshake failed: " + (parts.isEmpty ? "no reason given" : parts.joined(separator: "; ")),
            certificateTime: certificateTime)
    }

    /// Sends everything waiting in the outgoing BIO.
    private func flush(_ fd: Int32, _ deadline: Deadline, _ waitingFor: String, handshake: Bool) throws(TransportError) {
        let lib = library.pointer
        while ctls_buffer_pending(lib, outgoing) > 0 {
            let count = ctls_buffer_read(lib, outgoing, scratch.baseAddress, Int32(scratch.count))
            guard count > 0 else { return }
            do {
                try Wire.sendAll(fd, UnsafeRawBufferPointer(rebasing: scratch[..<Int(count)]), deadline, waitingFor)
            } catch {
                throw handshake && error.kind == .other ? TransportError(.tls, "TLS handshake failed: \(error.detail)") : error
            }
        }
    }

    /// Moves what the socket has into the incoming BIO; at the socket's end, marks the BIO so.
    private func fill(_ fd: Int32, _ deadline: Deadline, _ waitingFor: String, handshake: Bool) throws(TransportError) {
        let count: Int
        do {
            count = try Wire.receiveSome(fd, into: scratch, deadline, waitingFor)
        } catch {
            throw handshake && error.kind == .other ? TransportError(.tls, "TLS handshake failed: \(error.detail)") : error
        }
        if count == 0 {
            peerClosed = true
            ctls_buffer_mark_eof(library.pointer, incoming)
            return
        }
        // A memory BIO takes everything (it grows).
        guard ctls_buffer_write(library.pointer, incoming, scratch.baseAddress, Int32(count)) == Int32(count) else {
            throw TransportError(.other, "TLS: cannot buffer \(count) received bytes")
        }
    }
}

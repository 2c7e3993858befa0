import CCurl
import Weather

/// One transfer on an easy handle that was just created or reset: sets the options, runs
/// curl_easy_perform, collects what the callbacks received and maps the outcome.
struct CurlRequest {
    let request: HTTPRequest
    let library: OpaquePointer
    let easy: OpaquePointer
    let errorBuffer: UnsafeMutablePointer<CChar>

    func perform(_ configuration: CurlTransport.Configuration) -> Result<HTTPResponse, TransportError> {
        let host = Self.host(of: request.url)
        if let bad = request.headers.first(where: { !Self.isValidHeader($0) }) {
            let detail = "\(host): header \(Self.quoted(bad.name)) cannot be sent (a line break, NUL or bad name)"
            return .failure(TransportError(.other, detail))
        }
        var headerList: OpaquePointer?
        defer { if let headerList { ccurl_slist_free_all(library, headerList) } }
        for header in request.headers {
            // "Name:" would make libcurl drop the header; "Name;" sends it with an empty value.
            let line = header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
            guard let appended = ccurl_slist_append(library, headerList, line) else {
                return .failure(TransportError(.other, "\(host): out of memory building the header list"))
            }
            headerList = appended
        }

        let received = ReceivedResponse(limit: request.maximumBodySize)
        let context = Unmanaged.passUnretained(received).toOpaque()
        errorBuffer[0] = 0
        let timeout = Self.milliseconds(request.timeout)
        let connectTimeout = min(timeout, Self.milliseconds(configuration.connectTimeout))

        var failures: [String] = []
        func check(_ code: CCurlCode, _ what: String) {
            if code != CCURLE_OK { failures.append("\(what) (curl \(code.rawValue))") }
        }
        check(ccurl_setopt_pointer(library, easy, CCURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        check(ccurl_setopt_pointer(library, easy, CCURLOPT_URL, request.url), "CURLOPT_URL")
        if ccurl_setopt_pointer(library, easy, CCURLOPT_PROTOCOLS_STR, "http,https") != CCURLE_OK {
            // libcurl before 7.85 knows only the bit mask.
            check(ccurl_setopt_long(library, easy, CCURLOPT_PROTOCOLS, CLong(CCURLPROTO_HTTP_HTTPS)), "CURLOPT_PROTOCOLS")
        }
        check(ccurl_setopt_long(library, easy, CCURLOPT_HTTPGET, 1), "CURLOPT_HTTPGET")
        check(ccurl_setopt_long(library, easy, CCURLOPT_FOLLOWLOCATION, 0), "CURLOPT_FOLLOWLOCATION")
        check(ccurl_setopt_long(library, easy, CCURLOPT_NOSIGNAL, 1), "CURLOPT_NOSIGNAL")
        check(ccurl_setopt_long(library, easy, CCURLOPT_HTTP_VERSION, CLong(CCURL_HTTP_VERSION_1_1)), "CURLOPT_HTTP_VERSION")
        check(ccurl_setopt_long(library, easy, CCURLOPT_TIMEOUT_MS, timeout), "CURLOPT_TIMEOUT_MS")
        check(ccurl_setopt_long(library, easy, CCURLOPT_CONNECTTIMEOUT_MS, connectTimeout), "CURLOPT_CONNECTTIMEOUT_MS")
        // "" = offer every coding this libcurl decodes (gzip, deflate, br, zstd) and decode it.
        check(ccurl_setopt_pointer(library, easy, CCURLOPT_ACCEPT_ENCODING, ""), "CURLOPT_ACCEPT_ENCODING")
        check(ccurl_setopt_pointer(library, easy, CCURLOPT_HTTPHEADER, UnsafeRawPointer(headerList)), "CURLOPT_HTTPHEADER")
        check(ccurl_setopt_callback(library, easy, CCURLOPT_WRITEFUNCTION, receiveBody), "CURLOPT_WRITEFUNCTION")
        check(ccurl_setopt_pointer(library, easy, CCURLOPT_WRITEDATA, context), "CURLOPT_WRITEDATA")
        check(ccurl_setopt_callback(library, easy, CCURLOPT_HEADERFUNCTION, receiveHeader), "CURLOPT_HEADERFUNCTION")
        check(ccurl_setopt_pointer(library, easy, CCURLOPT_HEADERDATA, context), "CURLOPT_HEADERDATA")
        // TLS 1.0 and 1.1 are deprecated (RFC 8996); SocketTransport requires 1.2 as well. Without
        // this floor libcurl would leave it to OpenSSL's security level, which a distribution
        // may lower.
        check(ccurl_setopt_long(library, easy, CCURLOPT_SSLVERSION, CLong(CCURL_SSLVERSION_TLSv1_2)), "CURLOPT_SSLVERSION")
        switch configuration.trust {
        case .system:
            break
        case .bundle(let path):
            check(ccurl_setopt_pointer(library, easy, CCURLOPT_CAINFO, path), "CURLOPT_CAINFO")
        case .directory(let path):
            check(ccurl_setopt_pointer(library, easy, CCURLOPT_CAINFO, nil), "CURLOPT_CAINFO")
            check(ccurl_setopt_pointer(library, easy, CCURLOPT_CAPATH, path), "CURLOPT_CAPATH")
        }
        if !failures.isEmpty {
            return .failure(TransportError(.other, "\(host): libcurl refused \(failures.joined(separator: ", "))"))
        }

        let code = withExtendedLifetime(received) { ccurl_easy_perform(library, easy) }
        guard code == CCURLE_OK else {
            return .failure(error(code, host: host, received: received))
        }
        var status = 0
        guard ccurl_getinfo_long(library, easy, CCURLINFO_RESPONSE_CODE, &status) == CCURLE_OK, status > 0 else {
            return .failure(TransportError(.other, "\(host): no HTTP status after the transfer"))
        }
        return .success(HTTPResponse(status: status, headers: received.headers, body: received.body))
    }

    private func error(_ code: CCurlCode, host: String, received: ReceivedResponse) -> TransportError {
        let kind: TransportError.Kind
        switch code {
        case CCURLE_OPERATION_TIMEDOUT: kind = .timeout
        case CCURLE_COULDNT_CONNECT: kind = .connectionRefused
        case CCURLE_COULDNT_RESOLVE_HOST, CCURLE_COULDNT_RESOLVE_PROXY: kind = .hostNotFound
        case CCURLE_PARTIAL_FILE: kind = .truncated
        case CCURLE_WRITE_ERROR where received.exceeded, CCURLE_FILESIZE_EXCEEDED: kind = .tooLarge
        case CCURLE_SSL_CONNECT_ERROR, CCURLE_PEER_FAILED_VERIFICATION_OLD, CCURLE_SSL_ENGINE_NOTFOUND,
            CCURLE_SSL_ENGINE_SETFAILED, CCURLE_SSL_CERTPROBLEM, CCURLE_SSL_CIPHER, CCURLE_PEER_FAILED_VERIFICATION,
            CCURLE_USE_SSL_FAILED, CCURLE_SSL_ENGINE_INITFAILED, CCURLE_SSL_CACERT_BADFILE, CCURLE_SSL_SHUTDOWN_FAILED,
            CCURLE_SSL_CRL_BADFILE, CCURLE_SSL_ISSUER_ERROR, CCURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CCURLE_SSL_INVALIDCERTSTATUS, CCURLE_SSL_CLIENTCERT:
            kind = .tls
        default: kind = .other
        }
        let summary = String(cString: ccurl_strerror(library, code))
        var message = Self.oneLine(String(cString: errorBuffer))
        if kind == .tooLarge {
            message = "body larger than \(request.maximumBodySize) bytes"
        }
        if message.isEmpty { message = summary }
        return TransportError(kind, "\(host): \(message) (curl \(code.rawValue): \(summary))")
    }

    /// CURLOPT_TIMEOUT_MS of a duration: at least 1 (0 would mean "never"), at most 2³¹−1 so
    /// that it fits a 32-bit `long` too.
    static func milliseconds(_ duration: Duration) -> CLong {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 1 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        let total = overflow ? Int64(Int32.max) : whole &+ attoseconds / 1_000_000_000_000_000
        return CLong(max(1, min(total, Int64(Int32.max))))
    }

    /// The authority of an absolute URL without user information: "api.met.no", "127.0.0.1:8080".
    static func host(of url: String) -> String { HTTPText.authority(of: url) }

    static func isValidHeader(_ header: HTTPHeader) -> Bool { HTTPText.isSendable(header) }

    static func oneLine(_ text: String) -> String { HTTPText.oneLine(text) }

    static func quoted(_ text: String) -> String { HTTPText.quoted(text) }
}

/// What the callbacks collect during one transfer.
final class ReceivedResponse {
    let limit: Int
    var headers: [HTTPHeader] = []
    var body: [UInt8] = []
    /// The write callback refused data because the body would pass `limit`.
    var exceeded = false

    init(limit: Int) { self.limit = max(0, limit) }

    func takeBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= limit else {
            exceeded = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// One raw header line as libcurl hands it over, CR LF included. A status line starts a new
    /// response (an interim 1xx or a proxy's CONNECT answer came before), so only the headers of
    /// the final response remain.
    func takeHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        var line = bytes[...]
        while let last = line.last, last == 0x0A || last == 0x0D { line = line.dropLast() }
        if line.isEmpty { return }
        if line.starts(with: "HTTP/".utf8) {
            headers.removeAll(keepingCapacity: true)
            return
        }
        let count = headers.count
        HTTPText.appendHeaderLine(line, to: &headers)
        guard headers.count > count, let value = headers.last?.value else { return }
        if body.isEmpty, HTTPResponse(status: 0, headers: [headers[headers.count - 1]]).header("Content-Length") != nil,
            let length = Int(value), length > 0
        {
            // A hint only: with a content coding it is the encoded length.
            body.reserveCapacity(min(length, limit))
        }
    }
}

/// CURLOPT_WRITEFUNCTION: appends to the body, or takes nothing (→ CURLE_WRITE_ERROR) once the
/// body would pass the request's limit.
private func receiveBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard length > 0, let data, let context else { return length }
    let received = Unmanaged<ReceivedResponse>.fromOpaque(context).takeUnretainedValue()
    return received.takeBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// CURLOPT_HEADERFUNCTION: one complete header line per call.
private func receiveHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard length > 0, let data, let context else { return length }
    let received = Unmanaged<ReceivedResponse>.fromOpaque(context).takeUnretainedValue()
    received.takeHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
    return length
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's optional white space).
    func trimmingSpaces() -> String {
        let bytes = Array(utf8)
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}

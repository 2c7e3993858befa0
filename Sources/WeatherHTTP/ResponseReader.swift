import Weather

/// Reads one HTTP/1.1 response off a connection (RFC 9112): the status line and header section
/// (§4, §5), interim 1xx responses skipped (RFC 9110 §15.2), the body framed by §6.3 — none, a
/// Content-Length, the chunked coding (§7.1) or the connection's end — and decoded by `BodySink`.
struct ResponseReader {
    let connection: SocketConnection
    let deadline: Deadline
    let maximumBodySize: Int
    let zlib: ZlibLibrary

    /// The most a header section (and the trailer section) may take: a server sending more is
    /// broken or hostile, and this memory is the board's.
    static let headLimit = 64 * 1024
    static let waiting = "waiting for the response"

    struct Head {
        var minorVersion: Int
        var status: Int
        var headers: [HTTPHeader]

        func values(_ name: String) -> [String] {
            headers.filter { $0.isNamed(name) }.map(\.value)
        }

        /// The comma-separated elements of every `name` field, trimmed and lowercased.
        func tokens(_ name: String) -> [String] {
            values(name).flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces().lowercased() }.filter { !$0.isEmpty }
        }
    }

    enum Framing: Equatable {
        case none
        case length(Int)
        case chunked
        case untilClose
    }

    /// The response and whether the connection can carry another request.
    func read() throws(TransportError) -> (response: HTTPResponse, reusable: Bool) {
        var head = try readHead(first: true)
        while (100..<200).contains(head.status) {
            // 101 would switch protocols, which a GET without Upgrade never asked for.
            guard head.status != 101 else { throw TransportError(.other, "unexpected 101 Switching Protocols") }
            head = try readHead(first: false)
        }
        let (framing, closeAfter) = try Self.framing(of: head)
        var body: [UInt8] = []
        if framing != .none {
            let coding = HTTPHeader.first("Content-Encoding", in: head.headers)
            var sink = try BodySink(limit: maximumBodySize, contentEncoding: coding, zlib: zlib)
            switch framing {
            case .none: break
            case .length(let length):
                if !sink.isDecoded {
                    guard length <= sink.limit else { throw sink.tooLarge }
                    sink.reserve(length)
                }
                try copy(length, into: &sink, cut: { "the connection closed after \($0) of \(length) body bytes" })
            case .chunked: try readChunks(into: &sink)
            case .untilClose: try readToEnd(into: &sink)
            }
            try sink.finish()
            body = sink.body
        }
        // Persistent unless the server says close, or speaks HTTP/1.0 without keep-alive (RFC 9112
        // §9.3), or the body ran to the connection's end, or bytes follow that nobody asked for.
        let options = head.tokens("Connection")
        let persistent = head.minorVersion >= 1 ? !options.contains("close") : options.contains("keep-alive")
        let reusable = persistent && !closeAfter && framing != .untilClose && connection.inbox.isEmpty
        return (HTTPResponse(status: head.status, headers: head.headers, body: body), reusable)
    }

    // MARK: The head

    private func readHead(first: Bool) throws(TransportError) -> Head {
        let inbox = connection.inbox
        var scanned = 0
        while true {
            // The header section ends with an empty line; a lone LF ends a line too (RFC 9112 §2.2).
            while let lineFeed = inbox.firstIndex(of: 0x0A, from: scanned) {
                scanned = lineFeed + 1
                let emptyLine =
                    (lineFeed >= 1 && inbox[lineFeed - 1] == 0x0A)
                    || (lineFeed >= 2 && inbox[lineFeed - 1] == 0x0D && inbox[lineFeed - 2] == 0x0A)
                if emptyLine {
                    guard scanned <= Self.headLimit else { break }
                    let head = try Self.parseHead(inbox.bytes(0..<scanned))
                    inbox.consume(scanned)
                    return head
                }
            }
            // Not found yet: everything received is head. Found past the cap: the same.
            guard scanned <= Self.headLimit && inbox.count <= Self.headLimit else {
                throw TransportError(.other, "the response head is larger than \(Self.headLimit / 1024) KiB")
            }
            guard try connection.fill(deadline, Self.waiting) else {
                if first && inbox.isEmpty { throw TransportError(.other, "the server closed the connection without a response") }
                throw TransportError(.other, "the server closed the connection inside the response head")
            }
        }
    }

    /// The status line (RFC 9112 §4) and the field lines (§5) of a complete head.
    static func parseHead(_ bytes: UnsafeRawBufferPointer) throws(TransportError) -> Head {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let statusLine = lines.first else { throw TransportError(.other, "an empty response head") }
        // HTTP-version SP 3DIGIT SP [reason-phrase]; the reason is not needed.
        let status = Array(statusLine)
        let digit = { (i: Int) in i < status.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(status[i]) }
        guard status.starts(with: Array("HTTP/1.".utf8)), digit(7), status.count >= 12, status[8] == 0x20, digit(9), digit(10), digit(11),
            status.count == 12 || status[12] == 0x20
        else {
            let shown = String(decoding: status.prefix(40), as: UTF8.self)
            throw TransportError(.other, "not an HTTP/1.x response: \(HTTPText.quoted(shown))")
        }
        let number = { (i: Int) in Int(status[i] - UInt8(ascii: "0")) }
        var head = Head(minorVersion: number(7), status: number(9) * 100 + number(10) * 10 + number(11), headers: [])
        for line in lines.dropFirst() { HTTPText.appendHeaderLine(line, to: &head.headers) }
        return head
    }

    /// RFC 9112 §6.3, for the response to a GET: which framing, and whether the connection must
    /// close after it (a Transfer-Encoding next to a Content-Length, item 3).
    static func framing(of head: Head) throws(TransportError) -> (Framing, closeAfter: Bool) {
        if (100..<200).contains(head.status) || head.status == 204 || head.status == 304 { return (.none, false) }
        let lengths = head.tokens("Content-Length")
        let codings = head.tokens("Transfer-Encoding")
        if !codings.isEmpty {
            // Only "chunked" is a transfer coding a server may send unasked (RFC 9112 §7.4: a
            // client that sends no TE gets no other), and chunked must be the last one (§6.1).
            guard codings == ["chunked"] else {
                throw TransportError(.other, "Transfer-Encoding \(HTTPText.quoted(codings.joined(separator: ", "))) is not supported")
            }
            return (.chunked, !lengths.isEmpty)
        }
        guard let first = lengths.first else { return (.untilClose, false) }
        // Several equal values ("42, 42") are one length; different or non-numeric ones cannot be
        // trusted to frame anything (§6.3 item 5).
        guard lengths.allSatisfy({ $0 == first }), first.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw TransportError(.other, "invalid Content-Length \(HTTPText.quoted(head.values("Content-Length").joined(separator: ", ")))")
        }
        return (.length(Int(first) ?? Int.max), false)  // more digits than Int holds: larger than any limit
    }

    // MARK: Bodies

    /// `length` bytes into `sink`; the connection's end before them is `.truncated`.
    private func copy(_ length: Int, into sink: inout BodySink, cut message: (Int) -> String) throws(TransportError) {
        let inbox = connection.inbox
        var remaining = length
        while remaining > 0 {
            if inbox.isEmpty {
                guard try connection.fill(deadline, Self.waiting) else { throw TransportError(.truncated, message(length - remaining)) }
            }
            let take = min(remaining, inbox.count)
            try sink.append(inbox.bytes(0..<take))
            inbox.consume(take)
            remaining -= take
        }
    }

    /// Everything until the server closes (§6.3 item 8). Over TLS that end must be close_notify:
    /// without it anyone on the path could have cut the body, and nothing else frames it, so it
    /// is `.truncated` (RFC 9112 §9.8, RFC 8446 §6.1).
    private func readToEnd(into sink: inout BodySink) throws(TransportError) {
        let inbox = connection.inbox
        repeat {
            try sink.append(inbox.bytes(0..<inbox.count))
            inbox.consume(inbox.count)
        } while try connection.fill(deadline, Self.waiting)
        if connection.endedWithoutCloseNotify {
            throw TransportError(.truncated, "the TLS connection ended without close_notify, so the body may be cut")
        }
    }

    /// The longest chunk-size line, extensions included. Nothing here uses an extension (a
    /// recipient ignores those it does not know, RFC 9112 §7.1.1), so a longer line is a broken or
    /// hostile server, and this memory is the board's.
    static let chunkLineLimit = 4096

    /// chunked-body (RFC 9112 §7.1): chunk-size [ chunk-ext ] CRLF chunk-data CRLF …, then
    /// last-chunk, the trailer section (§7.1.2, read and dropped: trailers are not merged into the
    /// headers, RFC 9110 §6.5.1) and a final CRLF. Lines are parsed where they lie in the inbox.
    private func readChunks(into sink: inout BodySink) throws(TransportError) {
        let inbox = connection.inbox
        let cut = "the connection closed before the last chunk"
        while true {
            let sizeLine = try line(limit: Self.chunkLineLimit, cut: cut, tooLong: "a chunk-size line is longer than \(Self.chunkLineLimit) bytes")
            let size = try Self.chunkSize(inbox.bytes(0..<sizeLine.length))
            inbox.consume(sizeLine.end)
            if size == 0 { break }
            try copy(size, into: &sink, cut: { _ in cut })
            // chunk-data is followed by CRLF and nothing else.
            let end = try line(limit: 0, cut: cut, tooLong: "a chunk is longer than its size")
            inbox.consume(end.end)
        }
        var trailerBytes = 0
        while true {
            let tooLong = "the trailer section is larger than \(Self.headLimit / 1024) KiB"
            let trailer = try line(limit: Self.headLimit - trailerBytes, cut: cut, tooLong: tooLong)
            inbox.consume(trailer.end)
            if trailer.length == 0 { return }
            trailerBytes += trailer.length
        }
    }

    /// Waits until the inbox starts with a whole line and returns its length without CR LF (or a
    /// lone LF, §2.2) and how much to consume with its end. Longer than `limit`: refused, whether
    /// it arrived in pieces or in one read.
    private func line(limit: Int, cut: String, tooLong: String) throws(TransportError) -> (length: Int, end: Int) {
        let inbox = connection.inbox
        var scanned = 0
        while true {
            if let lineFeed = inbox.firstIndex(of: 0x0A, from: scanned) {
                let length = lineFeed > 0 && inbox[lineFeed - 1] == 0x0D ? lineFeed - 1 : lineFeed
                guard length <= limit else { throw TransportError(.other, tooLong) }
                return (length, lineFeed + 1)
            }
            scanned = inbox.count
            // One more byte than the limit may be the CR of a line that is not too long.
            guard inbox.count <= limit + 1 else { throw TransportError(.other, tooLong) }
            guard try connection.fill(deadline, Self.waiting) else { throw TransportError(.truncated, cut) }
        }
    }

    /// chunk-size = 1*HEXDIG (at most 15 digits: no overflow), then nothing, or BWS ";" and chunk
    /// extensions (RFC 9112 §7.1.1), which are skipped. Anything else after the digits ("5 junk",
    /// "5 5") is refused: a parser that reads it differently, such as a proxy on the way, would
    /// frame a different body (request smuggling's cousin, RFC 9112 §11.2). Controls other than
    /// HTAB are refused inside extensions too.
    static func chunkSize(_ line: UnsafeRawBufferPointer) throws(TransportError) -> Int {
        var size = 0
        var index = 0
        while index < line.count, let value = hexValue(line[index]) {
            guard index < 15 else { throw TransportError(.other, "a chunk size of more than 15 hex digits") }
            size = size << 4 | value
            index += 1
        }
        guard index > 0 else { throw badChunkSize(line) }
        while index < line.count && (line[index] == 0x20 || line[index] == 0x09) { index += 1 }  // BWS
        guard index < line.count else { return size }
        guard line[index] == UInt8(ascii: ";") else { throw badChunkSize(line) }
        for byte in line[index...] where (byte < 0x20 && byte != 0x09) || byte == 0x7F { throw badChunkSize(line) }
        return size
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    private static func badChunkSize(_ line: UnsafeRawBufferPointer) -> TransportError {
        TransportError(.other, "bad chunk size \(HTTPText.quoted(String(decoding: line.prefix(20), as: UTF8.self)))")
    }
}

import CTLS
import Weather

/// A libz opened by the shim; immutable and shared (each z_stream is used by one thread).
struct ZlibLibrary: @unchecked Sendable {
    let pointer: OpaquePointer

    /// `.unavailable` ("libz.so.1 not found: apt install zlib1g") when it cannot be opened.
    static func open(_ name: String) -> Result<ZlibLibrary, TransportError> {
        var error = [CChar](repeating: 0, count: 256)
        let opened = error.withUnsafeMutableBufferPointer { czlib_open(name, $0.baseAddress, $0.count) }
        guard let opened else { return .failure(TransportError(.unavailable, HTTPText.string(error))) }
        return .success(ZlibLibrary(pointer: opened))
    }

    var version: String { String(cString: czlib_version(pointer)) }
}

/// Where a response body goes: decoded from its content coding (RFC 9110 §8.4: gzip, x-gzip,
/// deflate), and refused with `.tooLarge` as soon as the decoded bytes pass the request's limit,
/// so a small gzip that inflates to gigabytes stops there — or as soon as the encoded bytes pass
/// `encodedLimit`, so that gzip members that inflate to nothing do not go on forever either.
struct BodySink {
    let limit: Int
    /// The most encoded bytes a body within `limit` can take: deflate's worst case is a stored
    /// block, 5 bytes per 65,535 (RFC 1951 §3.2.4), plus gzip's 18-byte frame and its optional
    /// header fields (FEXTRA alone up to 64 KiB, RFC 1952 §2.3.1). Generous on purpose.
    let encodedLimit: Int
    private(set) var body: [UInt8] = []
    private var encoded = 0
    private let inflater: Inflater?

    /// Fails with `.other` for a coding this transport cannot decode (br, zstd, compress, or a
    /// chain of several): its bytes would only reach the decoder as nonsense.
    init(limit: Int, contentEncoding: String?, zlib: ZlibLibrary) throws(TransportError) {
        self.limit = max(0, limit)
        encodedLimit = self.limit > Int.max / 2 ? Int.max : self.limit + self.limit / 8 + 64 * 1024
        let codings = (contentEncoding ?? "").split(separator: ",").map { $0.trimmingSpaces().lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        switch codings {
        case []: inflater = nil
        case ["gzip"], ["x-gzip"]: inflater = try Inflater(zlib, windowBits: Int32(CZ_WINDOW_GZIP))
        case ["deflate"]: inflater = try Inflater(zlib, windowBits: Int32(CZ_WINDOW_ZLIB))
        default:
            let named = HTTPText.quoted(codings.joined(separator: ", "))
            throw TransportError(.other, "Content-Encoding \(named) cannot be decoded (gzip and deflate can)")
        }
    }

    /// The body is sent as it is: its Content-Length is the body's length.
    var isDecoded: Bool { inflater != nil }

    var tooLarge: TransportError { TransportError(.tooLarge, "body larger than \(limit) bytes") }

    /// Room for an announced length (never more than the limit).
    mutating func reserve(_ length: Int) {
        body.reserveCapacity(min(length, limit))
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(TransportError) {
        guard !bytes.isEmpty else { return }
        if let inflater {
            guard bytes.count <= encodedLimit - encoded else {
                throw TransportError(.tooLarge, "encoded body larger than \(encodedLimit) bytes (the limit is \(limit) decoded)")
            }
            encoded += bytes.count
            try inflater.inflate(bytes, into: &body, limit: limit, tooLarge: tooLarge)
        } else {
            guard bytes.count <= limit - body.count else { throw tooLarge }
            body.append(contentsOf: bytes)
        }
    }

    /// The framing says the body is complete; so must the coding.
    func finish() throws(TransportError) {
        try inflater?.finish()
    }
}

/// zlib's inflate over one body, in steps, into a 16 KiB window of output at a time.
final class Inflater {
    private let library: ZlibLibrary
    private let stream: OpaquePointer
    private let gzip: Bool
    private let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 1)
    /// Some input was given.
    private var started = false
    /// A gzip member (or the zlib stream) has ended.
    private var ended = false
    /// Bytes after the last member (or the zlib stream) that do not start another member.
    private var trailing = 0
    /// Trailing bytes are ignored, as gzip(1) does with "trailing garbage" (a line end some
    /// servers add), up to this many; more is refused: a server sending without end would
    /// otherwise be read, for nothing, until the deadline.
    static let trailingLimit = 1024

    init(_ library: ZlibLibrary, windowBits: Int32) throws(TransportError) {
        self.library = library
        gzip = windowBits == Int32(CZ_WINDOW_GZIP)
        var code: Int32 = 0
        guard let stream = czlib_inflate_new(library.pointer, windowBits, &code) else {
            output.deallocate()
            throw TransportError(.other, "zlib: inflateInit2 failed (\(code))")
        }
        self.stream = stream
    }

    deinit {
        czlib_inflate_free(library.pointer, stream)
        output.deallocate()
    }

    func inflate(_ input: UnsafeRawBufferPointer, into body: inout [UInt8], limit: Int, tooLarge: TransportError) throws(TransportError) {
        started = true
        var offset = 0
        var produced = 0
        // Until the input is used up and zlib holds no more output (a full window may hide more).
        while offset < input.count || produced == output.count {
            if ended {
                guard offset < input.count else { return }
                // RFC 1952 §2.2: a gzip file is a series of members; another one starts with 1F 8B
                // right after the previous one.
                guard gzip, trailing == 0, input[offset] == 0x1F else {
                    trailing += input.count - offset
                    guard trailing <= Self.trailingLimit else {
                        throw TransportError(.other, "more than \(Self.trailingLimit) bytes after the end of the \(gzip ? "gzip" : "deflate") body")
                    }
                    return
                }
                _ = czlib_inflate_reset(library.pointer, stream)
                ended = false
            }
            var consumed = 0
            produced = 0
            let code = czlib_inflate(
                library.pointer, stream, input.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) + offset },
                input.count - offset, output.baseAddress!.assumingMemoryBound(to: UInt8.self), output.count, &consumed, &produced)
            offset += consumed
            if produced > 0 {
                guard produced <= limit - body.count else { throw tooLarge }
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: output[..<produced]))
            }
            switch code {
            case Int32(CZ_OK):
                if consumed == 0 && produced == 0 { return }
            case Int32(CZ_STREAM_END):
                ended = true
            case Int32(CZ_BUF_ERROR):
                return  // No progress possible without more input.
            default:
                let message = czlib_message(stream).map { String(cString: $0) } ?? "zlib error \(code)"
                throw TransportError(.other, "the \(gzip ? "gzip" : "deflate") body is corrupt (\(message))")
            }
        }
    }

    /// A body that started but did not reach the end of its stream was cut inside the coding.
    func finish() throws(TransportError) {
        if started && !ended {
            throw TransportError(.other, "the \(gzip ? "gzip" : "deflate") body ends before its stream does")
        }
    }
}

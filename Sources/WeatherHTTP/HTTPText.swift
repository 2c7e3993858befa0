import Weather

/// Text rules both transports share: which headers may be sent, how a failure names its host and
/// keeps to one line.
enum HTTPText {
    /// The authority of an absolute URL without user information: "api.met.no", "127.0.0.1:8080".
    static func authority(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        return host.isEmpty ? "(no host)" : String(host)
    }

    /// A name of RFC 9110 token characters (§5.1, §5.6.2) and a value without CR, LF or NUL, which
    /// would end the line early or smuggle a header in (RFC 9110 §5.5).
    static func isSendable(_ header: HTTPHeader) -> Bool {
        let name = header.name.utf8
        return !name.isEmpty && name.allSatisfy(isTokenCharacter)
            && !header.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    /// tchar of RFC 9110 §5.6.2: no separators, no spaces, no controls.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Adds one header line of a response head (RFC 9112 §5), without its CR LF, to `headers`:
    /// `field-name ":" OWS field-value OWS`. An obs-fold line (§5.2, starting with a space or a
    /// tab) continues the previous value, joined by a space. A line that is neither is skipped
    /// rather than trusted: a name with spaces or without a colon frames nothing.
    static func appendHeaderLine<Line: Collection<UInt8>>(_ line: Line, to headers: inout [HTTPHeader]) {
        let bytes = Array(line)
        if bytes.first == 0x20 || bytes.first == 0x09 {
            if let last = headers.indices.last {
                let more = String(decoding: bytes, as: UTF8.self).trimmingSpaces()
                headers[last].value += headers[last].value.isEmpty ? more : " " + more
            }
            return
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, bytes[..<colon].allSatisfy(isTokenCharacter)
        else { return }
        headers.append(
            HTTPHeader(
                String(decoding: bytes[..<colon], as: UTF8.self),
                String(decoding: bytes[(colon + 1)...], as: UTF8.self).trimmingSpaces()))
    }

    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 }).trimmingSpaces()
    }

    static func quoted(_ text: String) -> String {
        "\"" + String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) }) + "\""
    }

    /// A NUL-terminated C buffer as text.
    static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
    }

    /// "300 ms", "20 s": a request's timeout as a failure quotes it.
    static func duration(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = attoseconds / 1_000_000_000_000_000
        if milliseconds == 0 { return "\(seconds) s" }
        return seconds < 1000 ? "\(seconds * 1000 + milliseconds) ms" : "\(seconds) s"
    }
}

import Weather

/// Where a request goes and what its first lines say, from an absolute `http:` or `https:` URL
/// (RFC 3986 §3; the schemes of RFC 9110 §4.2).
struct HTTPTarget: Equatable {
    var secure: Bool
    /// Lowercased; an IPv6 literal without its brackets.
    var host: String
    var port: UInt16
    /// The request-target in origin-form (RFC 9112 §3.2.1): path and query, never empty.
    var pathAndQuery: String
    /// The host was written as "[v6]" in the URL.
    var isIPv6Literal: Bool
    /// The port was written in the URL and is not the scheme's default.
    var hasOtherPort: Bool

    /// The Host header (RFC 9110 §7.2): the authority without user information, the port only
    /// when it is not the scheme's default.
    var hostHeader: String {
        let name = isIPv6Literal ? "[\(host)]" : host
        return hasOtherPort ? "\(name):\(port)" : name
    }

    /// Connections are reused only for the same scheme, host and port.
    var connectionKey: String { "\(secure ? "https" : "http")://\(hostHeader):\(port)" }

    /// The target, or why the URL cannot be requested (`.other`, one line, without the URL).
    static func parse(_ url: String) throws(TransportError) -> HTTPTarget {
        guard let schemeEnd = url.firstRange(of: "://") else { throw TransportError(.other, "not an absolute URL") }
        let secure: Bool
        switch url[..<schemeEnd.lowerBound].lowercased() {
        case "http": secure = false
        case "https": secure = true
        case let other: throw TransportError(.other, "unsupported URL scheme \(HTTPText.quoted(other)) (http and https only)")
        }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if authority.contains("@") { throw TransportError(.other, "user information in the URL is not supported") }

        var hostPart = Substring(authority)
        var portPart: Substring?
        var isIPv6Literal = false
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { throw TransportError(.other, "an IPv6 address without its closing \"]\"") }
            let after = hostPart[hostPart.index(after: close)...]
            if after.hasPrefix(":") {
                portPart = after.dropFirst()
            } else if !after.isEmpty {
                throw TransportError(.other, "junk after the IPv6 address")
            }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
            isIPv6Literal = true
            guard !hostPart.isEmpty, hostPart.utf8.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else {
                throw TransportError(.other, "not an IPv6 address: [\(hostPart)]")
            }
        } else if let colon = hostPart.firstIndex(of: ":") {
            portPart = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty else { throw TransportError(.other, "no host in the URL") }
        if !isIPv6Literal {
            // A reg-name or IPv4 address of letters, digits, "-", "." and "_" (RFC 3986 §3.2.2);
            // internationalised names must arrive as their A-labels ("xn--…").
            let allowed = hostPart.utf8.allSatisfy {
                isHexDigit($0) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_")
            }
            guard allowed else {
                throw TransportError(.other, "the host \(HTTPText.quoted(String(hostPart))) has characters a host name cannot have")
            }
        }

        let defaultPort: UInt16 = secure ? 443 : 80
        var port = defaultPort
        if let portPart, !portPart.isEmpty {  // RFC 3986 §3.2.3: an empty port is the default one.
            let digits = portPart.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard digits, let number = UInt16(portPart), number > 0 else {
                throw TransportError(.other, "bad port \(HTTPText.quoted(String(portPart)))")
            }
            port = number
        }

        var path = rest[authority.endIndex...]
        if let fragment = path.firstIndex(of: "#") { path = path[..<fragment] }  // never sent (RFC 9110 §4.2.5)
        var pathAndQuery = String(path)
        if pathAndQuery.isEmpty || pathAndQuery.hasPrefix("?") { pathAndQuery = "/" + pathAndQuery }
        // The request line is split at spaces (RFC 9112 §3): the target must be visible ASCII.
        guard pathAndQuery.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw TransportError(.other, "the URL's path or query has a space, a control or a non-ASCII character: percent-encode it")
        }
        return HTTPTarget(
            secure: secure, host: hostPart.lowercased(), port: port, pathAndQuery: pathAndQuery, isIPv6Literal: isIPv6Literal,
            hasOtherPort: port != defaultPort)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    /// The request head of a GET (RFC 9112 §3, §5): the request line; Host first (RFC 9110 §7.2
    /// asks for it first); the request's headers verbatim and in order; `Accept-Encoding: gzip`
    /// unless the request names its own; `Connection: keep-alive` unless it names its own. An
    /// empty value is sent as "Name:" (a field value may be empty, RFC 9110 §5.5).
    func requestHead(_ headers: [HTTPHeader]) -> [UInt8] {
        let has = { (name: String) in HTTPHeader.first(name, in: headers) != nil }
        var text = "GET \(pathAndQuery) HTTP/1.1\r\n"
        if !has("Host") { text += "Host: \(hostHeader)\r\n" }
        for header in headers {
            text += header.value.isEmpty ? "\(header.name):\r\n" : "\(header.name): \(header.value)\r\n"
        }
        if !has("Accept-Encoding") { text += "Accept-Encoding: gzip\r\n" }
        if !has("Connection") { text += "Connection: keep-alive\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }
}

import JSON

/// Where the weather comes from (`"weather"`): the provider, an optional address of a mirror or
/// test server, the contact some providers' terms require, or the simulated service.
extension BoardValidator {
    static let weatherKeys = ["provider", "baseURL", "contact", "simulated"]

    mutating func weather(_ value: JSONValue, at path: String) -> WeatherConfig? {
        guard let members = members(of: value, at: path, allowed: Self.weatherKeys) else { return nil }
        let provider = field(members, "provider", at: path, default: WeatherConfig.Provider.openMeteo) {
            $0.choice($1, at: $2, of: WeatherConfig.Provider.self)
        }
        let baseURL: String?? = field(members, "baseURL", at: path, default: String?.none) { $0.baseURL($1, at: $2).map { .some($0) } }
        let contact: String?? = field(members, "contact", at: path, default: String?.none) {
            $0.headerText($1, at: $2).map { .some($0) }
        }
        let simulated = field(members, "simulated", at: path, default: false) { $0.bool($1, at: $2) }
        if provider == .metNorway, simulated == false, let contact, contact == nil {
            report(FieldPath.member(path, "contact"), "MET Norway's terms require a contact in every request (an e-mail address or a URL, e.g. \"me@example.org\"); add \"contact\", or use \"provider\": \"open-meteo\"")
            return nil
        }
        guard let provider, let baseURL, let contact, let simulated else { return nil }
        return WeatherConfig(provider: provider, baseURL: baseURL, contact: contact, simulated: simulated)
    }

    /// Text that goes into an HTTP header (the User-Agent) as it is: printable ASCII only,
    /// 1–128 characters (RFC 9110 §5.5 leaves other bytes to chance).
    private mutating func headerText(_ value: JSONValue, at path: String) -> String? {
        guard let text = self.text(value, at: path, maximum: 128) else { return nil }
        guard text.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
            report(path, "must be printable ASCII (it is sent in the User-Agent header), e.g. \"me@example.org\" or a URL")
            return nil
        }
        return text
    }

    /// `http://` or `https://`, a host, no query or fragment (the provider adds its own path and
    /// query), no trailing slash needed.
    private mutating func baseURL(_ value: JSONValue, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        let schemes = ["https://", "http://"]
        guard let scheme = schemes.first(where: { text.lowercased().hasPrefix($0) }) else {
            report(path, "expected an address starting with https:// (or http:// for a test server), e.g. \"https://api.open-meteo.com\"; found \"\(text)\"")
            return nil
        }
        let rest = text.dropFirst(scheme.count)
        let plain = text.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) } && text.utf8.count <= 256
        if rest.isEmpty || rest.hasPrefix("/") || !plain || text.contains(where: { $0 == "?" || $0 == "#" }) {
            report(path, "\"\(text)\" is not a plain address: a host (and port) after \(scheme), in ASCII without spaces, query or fragment")
            return nil
        }
        if let problem = Self.authorityProblem(rest.prefix { $0 != "/" }) {
            report(path, "\"\(text)\" cannot be requested: \(problem)")
            return nil
        }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// What the HTTP client would refuse in the authority (host and port, RFC 3986 §3.2), so the
    /// file is refused here instead of every fetch failing later as a "network" error: user
    /// information, an unclosed or malformed "[IPv6]", a host of other characters than a
    /// reg-name's or an IPv4 address's (§3.2.2; an internationalised name as its "xn--" A-label),
    /// a port that is not digits or not a TCP port 1–65535 (§3.2.3; RFC 9293 §3.1, port 0 is
    /// reserved). An empty port is the scheme's default one (§3.2.3).
    static func authorityProblem(_ authority: Substring) -> String? {
        if authority.contains("@") { return "user information (\"…@\") is not supported; give only the host and port" }
        var host = authority
        var port: Substring = ""
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "the IPv6 address has no closing \"]\"" }
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return "only \":port\" may follow the IPv6 address's \"]\"" }
            port = after.dropFirst()
            host = authority[authority.index(after: authority.startIndex)..<close]
            let hex = host.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit || $0 == ":" || $0 == "." }
            guard !host.isEmpty, hex, host.contains(":") else { return "\"[\(host)]\" is not an IPv6 address" }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                port = authority[authority.index(after: colon)...]
            }
            guard !host.isEmpty else { return "there is no host before the port" }
            let hostName = host.unicodeScalars.allSatisfy {
                ("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "-" || $0 == "." || $0 == "_"
            }
            guard hostName else { return "the host \"\(host)\" has characters a host name cannot have (ASCII letters, digits, \"-\", \".\")" }
        }
        guard !port.isEmpty else { return nil }
        guard port.allSatisfy({ ("0"..."9").contains($0) }) else { return "the port \"\(port)\" is not a number" }
        guard let number = Int(port), (1...65535).contains(number) else {
            return "the port \(port) is out of range; a TCP port is 1 to 65535, e.g. 8089"
        }
        return nil
    }
}

/// The weather's source, as the board file says it.
public struct WeatherConfig: Sendable, Equatable {
    public enum Provider: String, Sendable, CaseIterable {
        /// api.open-meteo.com: no key, free for non-commercial use (CC BY 4.0).
        case openMeteo = "open-meteo"
        /// api.met.no Locationforecast 2.0: needs a contact in the User-Agent.
        case metNorway = "met-norway"
    }

    public let provider: Provider
    /// Another address for the provider's API: a mirror, or a server on 127.0.0.1 for tests.
    public let baseURL: String?
    /// Put in the User-Agent; required by MET Norway's terms.
    public let contact: String?
    /// The simulated Open-Meteo answers instead of the network (`"simulated"`).
    public let simulated: Bool

    public init(provider: Provider, baseURL: String? = nil, contact: String? = nil, simulated: Bool = false) {
        self.provider = provider
        self.baseURL = baseURL
        self.contact = contact
        self.simulated = simulated
    }

    public static let standard = WeatherConfig(provider: .openMeteo)
}

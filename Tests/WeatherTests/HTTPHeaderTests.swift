import Testing
import Weather

/// The one case-insensitive header lookup (RFC 9110 §5.1), which the providers and both
/// transports share.
struct HTTPHeaderTests {
    @Test("Names compare without regard to ASCII case, and only ASCII case")
    func names() {
        #expect(HTTPHeader("content-ENCODING", "gzip").isNamed("Content-Encoding"))
        #expect(!HTTPHeader("Content-Encodings", "gzip").isNamed("Content-Encoding"))
        #expect(!HTTPHeader("Content-Encodin", "gzip").isNamed("Content-Encoding"))
        // "ſ" (U+017F) folds to "s" in Unicode, not in HTTP; "@" is "`" with the case bit.
        #expect(!HTTPHeader("X-ſ", "1").isNamed("X-S"))
        #expect(!HTTPHeader("X-@", "1").isNamed("X-`"))
    }

    @Test("The first header of a name wins, in messages as in a plain list")
    func first() {
        let headers = [HTTPHeader("Age", "1"), HTTPHeader("age", "2")]
        #expect(HTTPHeader.first("AGE", in: headers) == "1")
        #expect(HTTPHeader.first("Date", in: headers) == nil)
        #expect(HTTPResponse(status: 200, headers: headers).header("age") == "1")
        #expect(HTTPRequest(url: "http://x/", headers: headers).header("Age") == "1")
    }
}

import Testing
import Weather
import WeatherHTTP

/// What only `CurlTransport` has: its library. The contract both transports share is tested in
/// TransportTests, TransportCorpusTests and TLSTransportTests.
struct CurlTransportTests {
    static func get(_ url: String) -> HTTPRequest { HTTPRequest(url: url, timeout: .seconds(10)) }

    @Test("Without libcurl every request fails with .unavailable, and nothing crashes")
    func libraryMissing() {
        var client = CurlTransport(libraryName: "libcurl-does-not-exist.so")
        let result = client.send(Self.get("http://127.0.0.1:9/"))
        #expect(result.failureKind == .unavailable)
        #expect(result.failureDetail == "libcurl-does-not-exist.so not found: apt install libcurl4t64 (Debian 13) or libcurl4 (Debian 12)")
        #expect(client.send(Self.get("http://127.0.0.1:9/")).failureKind == .unavailable, "and again")
        guard case .failure(let error) = client.libraryVersion else {
            Issue.record("a version without a library")
            return
        }
        #expect(error.kind == .unavailable)
    }

    @Test("A library that is not libcurl is refused with .unavailable")
    func notLibcurl() {
        var client = CurlTransport(libraryName: "libz.so.1")
        let result = client.send(Self.get("http://127.0.0.1:9/"))
        #expect(result.failureKind == .unavailable)
        #expect(result.failureDetail.contains("lacks curl_"), "\(result.failureDetail)")
    }

    @Test("The default library is libcurl 7.x or later, with a TLS backend")
    func libraryVersion() throws {
        let version = try CurlTransport().libraryVersion.get()
        #expect(version.hasPrefix("libcurl/"), "\(version)")
        #expect(version.contains("SSL") || version.contains("TLS"), "\(version)")
    }
}

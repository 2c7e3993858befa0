import HAL
import HALSim
import Testing
@testable import Weather

/// MET Norway's terms through the repository: no request before `Expires`, then a conditional
/// one that a 304 answers, which keeps the forecast and renews its fetch time.
@Suite("Weather repository with MET Norway")
struct RepositoryMETTests {
    static let body = Array(METNorwayDecodingTests.minimal.utf8)

    @Test("Expires is obeyed, If-Modified-Since sent, 304 keeps the forecast fresh")
    func conditionalRefresh() throws {
        let headers = [
            HTTPHeader("Date", "Thu, 01 Jan 2026 00:00:00 GMT"), HTTPHeader("Last-Modified", "Wed, 31 Dec 2025 23:50:00 GMT"),
            HTTPHeader("Expires", "Thu, 01 Jan 2026 00:40:00 GMT"),
        ]
        let transport = ScriptedTransport(otherwise: .response(HTTPResponse(status: 304, headers: headers)))
        transport.script = [.response(HTTPResponse(status: 200, headers: headers, body: Self.body))]
        var rig = WeatherRig(service: METNorwayDecodingTests.service, transport: transport)
        rig.run(until: rig.clock.now() + .seconds(4 * 3600), position: try Coordinate(latitude: 59.9139, longitude: 10.7522))
        // Every gap is at least the 40 minutes Expires asks for (longer than the 15-minute cadence).
        #expect((6...7).contains(rig.fetches.count), "4 h at 40–42 min a fetch")
        #expect(rig.gaps.allSatisfy { $0 >= 2400 && $0 <= 2400 + 120 }, "\(rig.gaps)")
        #expect(Set(rig.gaps).count > 1, "a random offset after Expires, not Expires itself")
        #expect(transport.requests[0].header("If-Modified-Since") == nil)
        #expect(transport.requests.dropFirst().allSatisfy { $0.header("If-Modified-Since") == "Wed, 31 Dec 2025 23:50:00 GMT" })
        let report = try #require(rig.repository.state.value)
        #expect(report.current?.condition?.group == .clear)
        #expect(rig.clock.wallTime() - report.fetchedAt < .seconds(2520))
        #expect(rig.repository.freshness(at: rig.clock.wallTime()) == .fresh)
    }

    @Test("a 403 stops fetching until the configuration changes")
    func forbidden() throws {
        let transport = ScriptedTransport(otherwise: .response(HTTPResponse(status: 403, body: Array("Missing User-Agent".utf8))))
        var rig = WeatherRig(service: METNorwayDecodingTests.service, transport: transport)
        rig.run(until: rig.clock.now() + .seconds(86_400), position: try Coordinate(latitude: 59.9139, longitude: 10.7522))
        #expect(rig.fetches.count == 1)
        #expect(rig.repository.state.failure == .forbidden(reason: "Missing User-Agent"))
    }
}

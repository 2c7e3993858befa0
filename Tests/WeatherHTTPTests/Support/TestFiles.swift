import CorpusTesting
import HTTPTesting
import Weather


/// The weather corpus (`../shared/corpus/weather`): provider bodies and recorded response
/// heads (see its README.md).
enum WeatherCorpus {
    static let isPresent = Corpus.exists("weather")

    /// The names of the corpus files ending in `suffix`, sorted; empty when the corpus is absent.
    static func names(endingWith suffix: String) -> [String] { Corpus.names(in: "weather", endingWith: suffix) }

    static var jsonFiles: [String] { names(endingWith: ".json") }

    static func bytes(_ name: String) throws -> [UInt8] { try Corpus.bytes("weather/" + name) }

    /// A recorded response head (`*.headers.txt`) as a reply of the loopback server.
    static func recordedReply(_ name: String, body: [UInt8] = []) throws -> LoopbackHTTPServer.Reply {
        try .recorded(head: String(decoding: bytes(name), as: UTF8.self), body: body)
    }
}

/// The checked-in fixtures of this test target (Tests/WeatherHTTPTests/Fixtures).
enum Fixtures {
    static let directory: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/Fixtures"
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        try TestFile.bytes(directory + "/" + name)
    }
}

enum TestFile {
    static func bytes(_ path: String) throws -> [UInt8] { try Corpus.readFile(path) }
}

extension Result where Failure == TransportError {
    /// The kind of the failure, or nil on success.
    var failureKind: TransportError.Kind? {
        if case .failure(let error) = self { error.kind } else { nil }
    }

    var failureDetail: String {
        if case .failure(let error) = self { error.detail } else { "(succeeded)" }
    }
}

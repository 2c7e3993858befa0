import CorpusTesting
import HTTPTesting
import Weather

extension WeatherCorpus {
    /// A recorded response head (`*.headers.txt`) as a reply of the loopback server.
    static func recordedReply(_ name: String, body: [UInt8] = []) throws -> LoopbackHTTPServer.Reply {
        try .recorded(head: head(name), body: body)
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

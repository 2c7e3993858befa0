import HTTPTesting
import Weather

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The weather corpus (`../shared/corpus/weather`, next to the repository, or
/// `$THUNDERSTORM_CORPUS/weather`), read without Foundation: provider bodies and recorded
/// response heads (see its README.md).
enum WeatherCorpus {
    static let directory: String = {
        if let root = getenv("THUNDERSTORM_CORPUS") { return String(cString: root) + "/weather" }
        // #filePath = …/<repo>/Tests/WeatherHTTPTests/Support/TestFiles.swift → …/shared/corpus/weather
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(5)
        return parts.joined(separator: "/") + "/shared/corpus/weather"
    }()

    static let isPresent: Bool = {
        guard let dir = opendir(directory) else { return false }
        closedir(dir)
        return true
    }()

    /// The names of the corpus files ending in `suffix`, sorted; empty when the corpus is absent.
    static func names(endingWith suffix: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(suffix) { names.append(name) }
        }
        return names.sorted()
    }

    static var jsonFiles: [String] { names(endingWith: ".json") }

    static func bytes(_ name: String) throws -> [UInt8] {
        try TestFile.bytes(directory + "/" + name)
    }

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
    struct Unreadable: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path) cannot be read" }
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw Unreadable(path: path) }
        defer { fclose(file) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n == 0 { break }
            result += buffer[..<n]
        }
        return result
    }
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

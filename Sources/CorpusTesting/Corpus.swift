#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The shared corpus, for the conformance suites: the project's collection of test data that
/// is not its own to ship (gpsd's receiver captures under gpsd's licence, the I²C streams other
/// display libraries send, BME280 vectors, weather-service answers), kept outside the
/// repository and placed beside the checkout as `../shared/corpus` (or wherever
/// `$THUNDERSTORM_CORPUS` points). CI always has it; a fresh clone does not, so suites use
/// `Corpus.exists` in `.enabled(if:)`, say in their skip message what they need, and are
/// reported skipped, not passed. Read without Foundation.
public enum Corpus {
    public static let root: String = {
        if let root = getenv("THUNDERSTORM_CORPUS") { return String(cString: root) }
        // #filePath = …/<repo>/Sources/CorpusTesting/Corpus.swift → …/shared/corpus
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)
        return parts.joined(separator: "/") + "/shared/corpus"
    }()

    /// `root/relative`.
    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// Whether the file or directory `relative` is there.
    public static func exists(_ relative: String) -> Bool { access(path(relative), F_OK) == 0 }

    /// The bytes of `relative`.
    public static func bytes(_ relative: String) throws(Unreadable) -> [UInt8] { try readFile(path(relative)) }

    /// The names in the directory `relative` ending in `suffix`, sorted; empty when absent.
    public static func names(in relative: String, endingWith suffix: String) -> [String] {
        guard let dir = opendir(path(relative)) else { return [] }
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

    /// The names in the directory `relative` ending in `suffix`, for a corpus-driven argument
    /// list: none when the directory is absent (its suite is skipped by `.enabled(if:)`), else
    /// exactly `count` of them or an error. A listing that came back short would run fewer
    /// cases, or none, and pass; thrown from `arguments:`, the error fails the test instead.
    public static func names(
        in relative: String, endingWith suffix: String, expecting count: Int
    ) throws(UnexpectedListing) -> [String] {
        guard exists(relative) else { return [] }
        let found = names(in: relative, endingWith: suffix)
        guard found.count == count else {
            throw UnexpectedListing(directory: path(relative), suffix: suffix, expected: count, found: found)
        }
        return found
    }

    public struct UnexpectedListing: Error, CustomStringConvertible {
        public var directory: String
        public var suffix: String
        public var expected: Int
        public var found: [String]
        public var description: String {
            "\(directory): \(found.count) names ending in \(suffix) where the corpus has \(expected)"
                + (found.isEmpty ? "" : ": " + found.joined(separator: ", "))
        }
    }

    public struct Unreadable: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "\(path) cannot be read" }
    }

    /// Any file's bytes (the test targets' own fixtures too).
    public static func readFile(_ path: String) throws(Unreadable) -> [UInt8] {
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

import Foundation
import Testing

/// Golden pictures kept as text files beside the tests (found through the test file's
/// `#filePath`: the tests run from the source tree, no bundle resources needed).
///
/// Set `GRAPHICS_RECORD_GOLDEN=1` to write the pictures drawn now as the new goldens; the test
/// still fails, so a recording run is never mistaken for a passing one. Review the diff.
public struct GoldenArt: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    public static var recording: Bool { ProcessInfo.processInfo.environment["GRAPHICS_RECORD_GOLDEN"] == "1" }

    /// Expects `actual` to match the golden `name`, or records it.
    public func expect(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = directory.appendingPathComponent(name + ".txt")
        if Self.recording {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? (actual + "\n").write(to: url, atomically: true, encoding: .utf8)
            Issue.record("recorded golden \(name).txt; run again without GRAPHICS_RECORD_GOLDEN", sourceLocation: sourceLocation)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("missing golden \(name).txt; record it with GRAPHICS_RECORD_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        expectArt(actual, expected, name, sourceLocation: sourceLocation)
    }
}

import Foundation
import Graphics
import GraphicsTesting
import HAL
import Testing

/// The goldens of this target, in Tests/GraphicsTests/Golden/ (see `GoldenArt`).
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func expect(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        GoldenArt(directory: directory).expect(actual, named: name, sourceLocation: sourceLocation)
    }

    /// A file of the repository, e.g. the icon art in Tools/graphics/icons/.
    static func repositoryFile(_ path: String) -> String? {
        try? String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }
}

extension SplitMix64 {
    /// A coin flip from the lowest bit.
    mutating func bool() -> Bool { next() & 1 == 1 }

    mutating func pick<T>(_ values: [T]) -> T { values[next(in: 0 ... values.count - 1)] }
}

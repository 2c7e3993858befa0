import Foundation
import Graphics
import GraphicsTesting
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

/// SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): seeded, so a failing property test fails the
/// same way on every run; bounded values by multiply-high rather than the standard library's
/// `random(in:using:)`, whose algorithm may change between toolchains.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `range`, inclusive.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(span.multipliedFullWidth(by: next()).high)
    }

    mutating func bool() -> Bool { next() & 1 == 1 }

    mutating func pick<T>(_ values: [T]) -> T { values[int(0 ... values.count - 1)] }
}


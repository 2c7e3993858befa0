import Foundation
import Graphics
import GraphicsTesting
import Screens
import Testing

/// Every scene on every panel as golden ASCII art (Tests/ScreensTests/Golden/), drawn on a mock
/// display that fails on overdraw and on drawing outside the panel; the character LCD screens
/// as their text. Re-record with `GRAPHICS_RECORD_GOLDEN=1` and review the diff.
@Suite struct ScreenGoldenTests {
    static let golden = GoldenArt(
        directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden"))

    static let oledSizes = [(128, 64), (128, 32)]

    @Test(arguments: SampleScene.allCases)
    func oledScenes(_ scene: SampleScene) {
        for (width, height) in Self.oledSizes {
            for (index, model) in scene.frames.enumerated() {
                var display = MockDisplay(width: width, height: height)
                OLEDScreens.draw(model, scene.screen, into: &display)
                #expect(display.problems.isEmpty, "\(scene.rawValue) \(width)x\(height): \(display.problems.prefix(3))")
                Self.golden.expect(display.art, named: "oled-\(width)x\(height)-\(scene.rawValue)-\(index + 1)")
            }
        }
    }

    /// The fast paths of `Framebuffer` draw exactly what the generic `setPixel` path draws.
    @Test(arguments: SampleScene.allCases)
    func framebufferMatchesMockDisplay(_ scene: SampleScene) {
        for (width, height) in Self.oledSizes {
            for model in scene.frames {
                var display = MockDisplay(width: width, height: height)
                OLEDScreens.draw(model, scene.screen, into: &display)
                var frame = Framebuffer(width: width, height: height)
                OLEDScreens.render(model, scene.screen, into: &frame)
                #expect(Self.art(frame) == display.art, "\(scene.rawValue) \(width)x\(height)")
            }
        }
    }

    @Test(arguments: SampleScene.allCases)
    func characterScenes(_ scene: SampleScene) {
        for (columns, rows) in [(16, 2), (20, 4)] {
            for (index, model) in scene.frames.enumerated() {
                var frame = CharacterFrame(columns: columns, rows: rows)
                CharacterScreens.render(model, scene.screen, into: &frame)
                Self.golden.expect(Self.text(frame), named: "lcd-\(columns)x\(rows)-\(scene.rawValue)-\(index + 1)")
            }
        }
    }

    static func art(_ frame: Framebuffer) -> String {
        (0..<frame.height).map { y in String((0..<frame.width).map { frame[$0, y] ? "#" : "." }) }
            .joined(separator: "\n")
    }

    /// The frame as text in a box, each `CellGlyph` as one mark from `glyphMarks` so the
    /// columns stay aligned.
    static func text(_ frame: CharacterFrame) -> String {
        var lines = ["+" + String(repeating: "-", count: frame.columns) + "+"]
        for row in 0..<frame.rows {
            var line = "|"
            for column in 0..<frame.columns {
                switch frame[column, row] {
                case .scalar(let scalar): line.unicodeScalars.append(scalar)
                case .glyph(let glyph): line.append(glyphMarks[glyph] ?? "?")
                }
            }
            lines.append(line + "|")
        }
        lines.append(lines[0])
        return lines.joined(separator: "\n")
    }

    static let glyphMarks: [CellGlyph: Character] = [
        .degree: "°", .sun: "☼", .moon: "☾", .partlyCloudy: "⛅", .cloud: "☁", .fog: "≡", .drizzle: "⋰",
        .rain: "☂", .snow: "❄", .showers: "☔", .thunder: "ϟ", .drop: "💧", .wind: "≈", .satellite: "⊕",
        .warning: "⚠", .moonNew: "○", .moonCrescentRight: "❩", .moonQuarterRight: "◑", .moonGibbousRight: "◗",
        .moonFull: "●", .moonGibbousLeft: "◖", .moonQuarterLeft: "◐", .moonCrescentLeft: "❨",
        .rising: "↗", .falling: "↘",
    ]
}

import App
import HALSim
import Testing

/// The terminal pictures as plain strings: the half-block mapping, the box, the sizes `simulate`
/// lays out, and what happens to text that a terminal would act on.
@Suite("Terminal pictures")
struct TerminalPictureTests {
    @Test("each cell is two pixel rows: top, bottom → space, ▀, ▄, █")
    func halfBlocks() {
        let image = PanelImage(art: """
            #.#.
            ..##
            ##..
            .#.#
            """)
        #expect(TerminalPicture.panel(image) == [
            "┌────┐",
            "│▀ █▄│",
            "│▀█ ▄│",
            "└────┘",
        ])
    }

    @Test("an odd last pixel row is the top half of a cell over a dark bottom half")
    func oddHeight() {
        let image = PanelImage(art: "##\n.#\n#.\n")
        #expect(TerminalPicture.panel(image) == ["┌──┐", "│▀█│", "│▀ │", "└──┘"])
    }

    @Test("a 128×64 panel is 32 rows of 128 cells in a box: 34 rows of 130 characters")
    func fullPanel() {
        // The frame of the panel lit, and one pixel at (5, 3): cell row 1, lower half.
        var image = PanelImage(width: 128, height: 64) { x, y in x == 0 || y == 0 || x == 127 || y == 63 }
        image[5, 3] = true
        let rows = TerminalPicture.panel(image)
        #expect(rows.count == 34)
        #expect(rows.allSatisfy { $0.count == 130 })
        #expect(rows[0] == "┌" + String(repeating: "─", count: 128) + "┐")
        #expect(rows[33] == "└" + String(repeating: "─", count: 128) + "┘")
        // Pixel row 0 lit, row 1 only at the sides; pixel row 63 lit, row 62 only at the sides.
        #expect(rows[1] == "│█" + String(repeating: "▀", count: 126) + "█│")
        #expect(rows[32] == "│█" + String(repeating: "▄", count: 126) + "█│")
        #expect(Array(rows[2])[1] == "█" && Array(rows[2])[128] == "█")  // the side columns
        #expect(Array(rows[2])[6] == "▄")  // (5, 3), one column right of the box edge
        #expect(Array(rows[2])[5] == " " && Array(rows[3])[6] == " ")
    }

    @Test("a 128×32 panel is 16 rows; an all-dark panel is blank inside its box")
    func smallPanel() {
        let rows = TerminalPicture.panel(PanelImage(width: 128, height: 32))
        #expect(rows.count == 18)
        #expect(rows[1...16].allSatisfy { $0 == "│" + String(repeating: " ", count: 128) + "│" })
    }

    @Test("control characters are shown as ? and never reach the terminal")
    func controlCharacters() {
        #expect(TerminalPicture.statusLine("a\u{1B}[2Jb", width: 6) == "a?[2Jb")
        #expect(TerminalPicture.statusLine("line 3: bad\nline 4\u{7F}\u{9B}", width: 40) == "line 3: bad?line 4??")
    }

    @Test("a status line is cut to the width, never wrapped")
    func statusLine() {
        #expect(TerminalPicture.statusLine("gps: fix 3D · 8 satellites", width: 10) == "gps: fix 3")
        #expect(TerminalPicture.statusLine("short", width: 80) == "short")
        #expect(TerminalPicture.statusLine("anything", width: 0) == "")
        #expect(TerminalPicture.statusLine("°C→", width: 2) == "°C")
    }
}

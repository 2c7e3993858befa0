import HALSim

/// The simulated panel as lines of text for a terminal (`simulate` without `--headless`), pure so
/// that the pictures are tested as strings.
///
/// An OLED is drawn with half blocks: one character cell holds two pixel rows, the upper one in
/// the top half of the cell and the lower one in the bottom half (" ", "▀", "▄", "█"). Terminal
/// cells are about twice as tall as wide, so the pixels come out square and a 128×64 panel
/// needs 128×32 cells (luma.emulator's `asciiblock` and u8g2's `sys/utf8`
/// do the same; quadrants would halve the width but distort the aspect). Colour is not used:
/// the half blocks alone need no 256-colour support.
///
/// Every picture is framed with a thin box, so the panel's edges show even when its border
/// pixels are dark, and so a picture that is one column too wide is seen at once.
public enum TerminalPicture {
    /// The four half-block cells, indexed by `top << 1 | bottom`.
    static let halfBlocks: [Character] = [" ", "▄", "▀", "█"]

    /// `image` (a 128×64 or 128×32 OLED, a character LCD's dots, any size) as `(height + 1) / 2` rows of `width`
    /// half-block characters, boxed: `height / 2 + 2` strings of `width + 2` characters for
    /// an even height. An odd last pixel row is drawn as the top half of a cell whose bottom
    /// half is dark.
    public static func panel(_ image: PanelImage) -> [String] {
        var rows: [String] = []
        rows.reserveCapacity((image.height + 1) / 2 + 2)
        rows.append(border(left: "┌", right: "┐", width: image.width))
        var y = 0
        while y < image.height {
            var row = "│"
            row.reserveCapacity(image.width * 3 + 6)
            for x in 0..<image.width {
                let top = image[x, y] ? 2 : 0
                let bottom = image[x, y + 1] ? 1 : 0  // dark past the last row
                row.append(halfBlocks[top | bottom])
            }
            row.append("│")
            rows.append(row)
            y += 2
        }
        rows.append(border(left: "└", right: "┘", width: image.width))
        return rows
    }

    /// `text` on one line of at most `width` characters: cut, never wrapped (a wrapped line
    /// would push the picture down and leave a stale line at the bottom). Line breaks and other
    /// control characters become "?" (see `printable`). Empty when `width` ≤ 0.
    public static func statusLine(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        return String(printable(text).prefix(width))
    }

    // MARK: Pieces

    /// `left`, `width` × "─", `right`.
    static func border(left: Character, right: Character, width: Int) -> String {
        String(left) + String(repeating: "─", count: max(width, 0)) + String(right)
    }

    /// `text` padded with spaces or cut to exactly `width` characters.
    static func fitted(_ text: String, width: Int) -> String {
        let count = text.count
        if count == width { return text }
        if count > width { return String(text.prefix(width)) }
        return text + String(repeating: " ", count: width - count)
    }

    /// `text` with every C0 control character, DEL and C1 control character replaced by "?".
    /// A terminal acts on them: an ESC from a script's error message or a service's reason
    /// would move the cursor or change the colours, and a newline would break the frame.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            result.unicodeScalars.append(isControl(scalar) ? "?" : scalar)
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}

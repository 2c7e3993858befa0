/// A custom 5×8 picture a layout loads into CGRAM (HD44780U Table 5), so that a reading can
/// name it where it shows: `text` when the picture stands for a character (the degree sign),
/// otherwise it reads as `CharacterGlassReading.placeholder`.
public struct CharacterPicture: Sendable {
    public var name: String
    public var rows: HD44780GlyphRows
    public var text: Character?

    public init(name: String, rows: HD44780GlyphRows, text: Character? = nil) {
        self.name = name
        self.rows = rows
        self.text = text
    }
}

/// What a character LCD's glass shows, as text: each row's characters (ROM A00 codes as
/// `HD44780Model.character` names them), custom pictures as `placeholder` (or their `text`),
/// and where each custom picture stands.
public struct CharacterGlassReading: Sendable, Equatable {
    /// A custom picture on the glass: which cell, and which of the known pictures it is (nil:
    /// none of them, e.g. CGRAM never written since power-on).
    public struct Picture: Sendable, Equatable {
        public var column: Int
        public var row: Int
        public var name: String?

        public init(column: Int, row: Int, name: String?) {
            self.column = column
            self.row = row
            self.name = name
        }
    }

    /// A run of text on one row: words one space apart; two or more spaces start a new run.
    public struct Run: Sendable, Equatable {
        public var text: String
        public var column: Int
        public var row: Int
    }

    /// What a custom picture without a `text` reads as: U+FFFD, the replacement character.
    public static let placeholder: Character = "\u{FFFD}"

    public var rows: [String]
    public var pictures: [Picture]

    /// The runs of every row, top to bottom.
    public var runs: [Run] {
        var runs: [Run] = []
        for (row, line) in rows.enumerated() {
            let cells = Array(line)
            var column = 0
            while column < cells.count {
                guard cells[column] != " " else {
                    column += 1
                    continue
                }
                var end = column + 1
                while end < cells.count, cells[end] != " " || (end + 1 < cells.count && cells[end + 1] != " ") { end += 1 }
                runs.append(Run(text: String(cells[column..<end]), column: column, row: row))
                column = end
            }
        }
        return runs
    }

    /// One row of 5-bit dot rows as a number (row 0 in the top bits), for comparing pictures.
    static func key(_ rows: HD44780GlyphRows) -> UInt64 {
        withUnsafeBytes(of: rows) { raw in raw.reduce(UInt64(0)) { $0 << 5 | UInt64($1 & 0x1F) } }
    }

}

extension CharacterGlassReading {
    /// Reads a glass drawn the way `HD44780Model.image` draws it — 5×8 dots per cell, cells one
    /// dark pixel apart — cell by cell: a known picture first, then the ROM A00 character with
    /// exactly those dots (`HD44780CharacterROM`); a cell that is neither (a cursor line, CGRAM
    /// noise) reads as `placeholder` with no name. Nil when the image is not `columns × rows`
    /// cells in size.
    public init?(image: PanelImage, columns: Int, rows: Int, pictures: [CharacterPicture]) {
        guard columns > 0, rows > 0, image.width == columns * 6 - 1, image.height == rows * 9 - 1 else { return nil }
        var rom: [UInt64: UInt8] = [:]
        let unknown = Self.key(HD44780CharacterROM.unknownRows)
        // ASCII before the upper half, so a pattern the ROM has twice (blank 0x20 and 0xFE) reads as ASCII.
        for code in 0x10...0xFF {
            let key = Self.key(HD44780CharacterROM.rows(UInt8(code)))
            if key != unknown, rom[key] == nil { rom[key] = UInt8(code) }
        }
        self.rows = []
        self.pictures = []
        for row in 0..<rows {
            var line = ""
            for column in 0..<columns {
                var dots: HD44780GlyphRows = (0, 0, 0, 0, 0, 0, 0, 0)
                withUnsafeMutableBytes(of: &dots) { raw in
                    for y in 0..<8 {
                        for x in 0..<5 where image[column * 6 + x, row * 9 + y] { raw[y] |= 0x10 >> UInt8(x) }
                    }
                }
                let key = Self.key(dots)
                if let picture = pictures.first(where: { Self.key($0.rows) == key }) {
                    line.append(picture.text ?? Self.placeholder)
                    if picture.text == nil { self.pictures.append(Picture(column: column, row: row, name: picture.name)) }
                } else if let code = rom[key] {
                    line += HD44780Model.character(code)
                } else {
                    line.append(Self.placeholder)
                    self.pictures.append(Picture(column: column, row: row, name: nil))
                }
            }
            self.rows.append(line)
        }
    }
}

extension HD44780Model {
    /// The glass as text, from DDRAM and CGRAM: each cell's code as the display shows it (line
    /// mode and display shift applied, `code(row:column:)`); CGRAM codes 0…15 read as the known
    /// picture whose dots CGRAM holds (its `text`, or `placeholder`). All blank while the display
    /// is off (D = 0) and on a row the line mode does not drive, as the glass then is.
    public func readGlass(pictures: [CharacterPicture]) -> CharacterGlassReading {
        var rows: [String] = []
        var found: [CharacterGlassReading.Picture] = []
        for row in 0..<geometry.rows {
            var line = ""
            for column in 0..<geometry.columns {
                guard displayOn, let code = code(row: row, column: column) else {
                    line.append(" ")
                    continue
                }
                guard code < 0x10 else {
                    line += Self.character(code)
                    continue
                }
                let slot = Int(code & 0x07) * 8
                let dots: HD44780GlyphRows = (
                    cgram[slot], cgram[slot + 1], cgram[slot + 2], cgram[slot + 3],
                    cgram[slot + 4], cgram[slot + 5], cgram[slot + 6], cgram[slot + 7])
                let key = CharacterGlassReading.key(dots)
                let picture = pictures.first { CharacterGlassReading.key($0.rows) == key }
                line.append(picture?.text ?? CharacterGlassReading.placeholder)
                if picture?.text == nil { found.append(.init(column: column, row: row, name: picture?.name)) }
            }
            rows.append(line)
        }
        return CharacterGlassReading(rows: rows, pictures: found)
    }
}

import Graphics

/// Unicode scalars to character codes of the HD44780U's ROM A00 (Hitachi HD44780U, Table 4
/// "Correspondence between Character Codes and Character Patterns (ROM Code: A00)"), the
/// Japanese standard font of nearly every module sold.
///
/// - Printable ASCII is ASCII, except 0x5C (¥ on A00) and 0x7E (→): `\` is shown as 0xA4
///   (、, a short falling stroke, the closest shape) and `~` as `-`; ¥, → and ← map to 0x5C,
///   0x7E and 0x7F.
/// - A00's few Latin and Greek letters: ä 0xE1, ß (as β) 0xE2, µ 0xE4, ¢ 0xEC, £ 0xED,
///   ñ 0xEE, ö 0xEF, ü 0xF5, ÷ 0xFD, and α ε σ ρ √ θ ∞ Ω Σ π where A00 has them.
/// - ° is 0xDF (the handakuten ゜, the usual degree sign); the driver prefers a CGRAM glyph.
/// - Other Latin-1 letters lose their accent (é → e, Ä → A, Ö → O, Ü → U, Å → A, Ç → C);
///   everything else is `?`.
///
/// A pure function of the scalar: no tables are built at run time.
public enum HD44780ROMCodes {
    public static let questionMark: UInt8 = 0x3F
    public static let degreeA00: UInt8 = 0xDF

    /// Base letters of U+00C0…U+00FF, `?` where there is none; the A00 specials are handled
    /// before this table is read.
    private static let latin1Letters: StaticString =
        "AAAAAA?CEEEEIIIIDNOOOOOxOUUUUY??aaaaaa?ceeeeiiiidnooooo?ouuuuy?y"

    /// The ROM A00 code for `scalar`.
    public static func codeA00(for scalar: Unicode.Scalar) -> UInt8 {
        let value = scalar.value
        switch value {
        case 0x5C: return 0xA4
        case 0x7E: return 0x2D
        case 0x20...0x7D: return UInt8(value)
        case 0xA0: return 0x20
        case 0xA2: return 0xEC
        case 0xA3: return 0xED
        case 0xA5: return 0x5C
        case 0xB0: return degreeA00
        case 0xB5, 0x3BC: return 0xE4
        case 0xB7: return 0xA5
        case 0xDF, 0x3B2: return 0xE2
        case 0xE4: return 0xE1
        case 0xF1: return 0xEE
        case 0xF6: return 0xEF
        case 0xF7: return 0xFD
        case 0xFC: return 0xF5
        case 0xC0...0xFF:
            return latin1Letters.withUTF8Buffer { $0[Int(value - 0xC0)] }
        case 0x3B1: return 0xE0
        case 0x3B5: return 0xE3
        case 0x3C3: return 0xE5
        case 0x3C1: return 0xE6
        case 0x3B8: return 0xF2
        case 0x3A9, 0x2126: return 0xF4
        case 0x3A3: return 0xF6
        case 0x3C0: return 0xF7
        case 0x221A: return 0xE8
        case 0x221E: return 0xF3
        case 0x2190: return 0x7F
        case 0x2192: return 0x7E
        case 0x2212, 0x2010, 0x2013: return 0x2D
        case 0x2588: return 0xFF
        default: return questionMark
        }
    }
}

/// The glyphs on screen, given CGRAM slots (HD44780U §"Character Generator RAM", Table 5:
/// 8 patterns of 5×8 dots, codes 0–7).
///
/// A glyph already in a slot keeps it; a new glyph takes a slot never written since power-up
/// first (so glyphs of another screen stay cached for its return), then one whose glyph is no
/// longer wanted, and only those slots are rewritten. With more than 8 glyphs wanted, pictures go first (in
/// the order they appear) and the degree sign last, because it has a ROM fallback (0xDF); a
/// picture without a slot is shown as `?`. `°` and `.glyph(.degree)` are the same glyph.
struct CGRAMSlots {
    static let count = 8

    /// What each slot holds; `nil` after power-on or a failure (unknown).
    private(set) var slots: [CellGlyph?] = Array(repeating: nil, count: CGRAMSlots.count)
    /// Slots to write in this flush, one bit each.
    private(set) var rewritten: UInt8 = 0
    private var wanted: [CellGlyph] = Array(repeating: .degree, count: CellGlyph.allCases.count)

    mutating func reset() {
        for i in slots.indices { slots[i] = nil }
        rewritten = 0
    }

    /// The glyph a cell shows through CGRAM, if any.
    static func glyph(of cell: CharacterFrame.Cell) -> CellGlyph? {
        switch cell {
        case .glyph(let glyph): return glyph
        case .scalar(let scalar): return scalar == "°" ? .degree : nil
        }
    }

    /// Assigns slots for the glyphs of `frame` and sets `rewritten`.
    mutating func assign(_ frame: CharacterFrame) {
        var seen: UInt32 = 0
        var n = 0
        var degree = false
        for cell in frame.cells {
            guard let glyph = Self.glyph(of: cell) else { continue }
            if glyph == .degree {
                degree = true
                continue
            }
            let bit: UInt32 = 1 << UInt32(glyph.rawValue)
            if seen & bit == 0 {
                seen |= bit
                wanted[n] = glyph
                n += 1
            }
        }
        if degree {
            wanted[n] = .degree
            n += 1
        }
        n = min(n, Self.count)
        var placed: UInt32 = 0
        var keep: UInt8 = 0
        for s in 0..<Self.count {
            guard let glyph = slots[s], isWanted(glyph, n) else { continue }
            placed |= 1 << UInt32(glyph.rawValue)
            keep |= 1 << UInt8(s)
        }
        rewritten = 0
        for i in 0..<n where placed & (1 << UInt32(wanted[i].rawValue)) == 0 {
            // A free slot: unknown first, then one whose glyph is not wanted.
            var free = -1
            for s in 0..<Self.count where keep & (1 << UInt8(s)) == 0 {
                if slots[s] == nil { free = s; break }
                if free < 0 { free = s }
            }
            guard free >= 0 else { break }
            slots[free] = wanted[i]
            keep |= 1 << UInt8(free)
            rewritten |= 1 << UInt8(free)
        }
    }

    private func isWanted(_ glyph: CellGlyph, _ n: Int) -> Bool {
        for i in 0..<n where wanted[i] == glyph { return true }
        return false
    }

    /// The slot holding `glyph`, if any.
    func slot(of glyph: CellGlyph) -> UInt8? {
        for s in 0..<Self.count where slots[s] == glyph { return UInt8(s) }
        return nil
    }

    /// The code to show `cell`: its CGRAM slot, else ROM A00 (`°` → 0xDF, pictures → `?`).
    func code(for cell: CharacterFrame.Cell) -> UInt8 {
        if let glyph = Self.glyph(of: cell) {
            if let slot = slot(of: glyph) { return slot }
            return glyph == .degree ? HD44780ROMCodes.degreeA00 : HD44780ROMCodes.questionMark
        }
        guard case .scalar(let scalar) = cell else { return HD44780ROMCodes.questionMark }
        return HD44780ROMCodes.codeA00(for: scalar)
    }
}

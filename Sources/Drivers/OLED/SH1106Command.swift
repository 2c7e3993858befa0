/// SH1106 commands (Sino Wealth SH1106 V2.3, "Commands" 1–21). The SH1106 has its own, smaller
/// set: no addressing modes, windows (20h/21h/22h), charge pump (8Dh) or scrolling — on an
/// SH1106 those SSD1306 bytes are no commands at all. Display RAM is 132 columns × 8 pages and
/// is written in page addressing only: set the page and the column, then send data; the column
/// advances after each byte and the page never does.
public enum SH1106Command: Sendable, Equatable, Hashable {
    /// Command 3, Set Pump voltage value (30h–33h): the DC-DC converter's output.
    public enum PumpVoltage: UInt8, Sendable, CaseIterable {
        case volts6_4 = 0
        case volts7_4 = 1
        /// The power-on value.
        case volts8_0 = 2
        case volts9_0 = 3
    }

    /// Command 1, Set Lower Column Address (00h–0Fh): the low nibble of `column`.
    case columnLow(UInt8)
    /// Command 2, Set Higher Column Address (10h–1Fh): the high nibble of `column`.
    case columnHigh(UInt8)
    /// Command 3, Set Pump voltage value (30h–33h).
    case pumpVoltage(PumpVoltage)
    /// Command 4, Set Display Start Line (40h–7Fh).
    case startLine(UInt8)
    /// Command 5, Set Contrast Control Register (81h + 00h–FFh).
    case contrast(UInt8)
    /// Command 6, Set Segment Re-map: A0h column 0 → SEG0, A1h column 131 → SEG0.
    case segmentRemap(Bool)
    /// Command 7, Set Entire Display OFF/ON: A4h follows RAM, A5h every pixel on.
    case entireDisplayOn(Bool)
    /// Command 8, Set Normal/Reverse Display: A6h / A7h.
    case inverted(Bool)
    /// Command 9, Set Multiplex Ration (A8h + 00h–3Fh): rows driven, 1–64 (sent as rows − 1).
    case multiplexRatio(rows: UInt8)
    /// Command 10, Set DC-DC OFF/ON (ADh + 8Ah off / 8Bh on, the power-on value).
    case dcDC(Bool)
    /// Command 11, Display OFF/ON: AEh (sleep) / AFh.
    case displayOn(Bool)
    /// Command 12, Set Page Address (B0h–B7h).
    case page(UInt8)
    /// Command 13, Set Common Output Scan Direction: C0h COM0 → COM[N−1], C8h reversed.
    case comScanReversed(Bool)
    /// Command 14, Set Display Offset (D3h + 00h–3Fh).
    case displayOffset(UInt8)
    /// Command 15, Set Display Clock Divide Ratio/Oscillator Frequency (D5h + value, POR 50h).
    case clockDivide(UInt8)
    /// Command 16, Set Dis-charge/Pre-charge Period (D9h + value: low nibble pre-charge, high
    /// nibble dis-charge, in DCLKs; POR 22h).
    case precharge(UInt8)
    /// Command 17, Set Common pads hardware configuration (DAh + 02h sequential / 12h
    /// alternative, POR).
    case comPins(UInt8)
    /// Command 18, Set VCOM Deselect Level (DBh + value, POR 35h).
    case vcomDeselect(UInt8)
    /// Command 21, NOP (E3h).
    case nop

    /// Appends the command bytes (no control byte).
    public func encode(into buffer: inout TransmitBuffer) {
        switch self {
        case .columnLow(let column): buffer.append(column & 0x0F)
        case .columnHigh(let column): buffer.append(0x10 | ((column >> 4) & 0x0F))
        case .pumpVoltage(let voltage): buffer.append(0x30 | voltage.rawValue)
        case .startLine(let line): buffer.append(0x40 | (line & 0x3F))
        case .contrast(let value): buffer.append(0x81, value)
        case .segmentRemap(let remapped): buffer.append(remapped ? 0xA1 : 0xA0)
        case .entireDisplayOn(let on): buffer.append(on ? 0xA5 : 0xA4)
        case .inverted(let on): buffer.append(on ? 0xA7 : 0xA6)
        case .multiplexRatio(let rows): buffer.append(0xA8, (min(max(rows, 1), 64) - 1))
        case .dcDC(let on): buffer.append(0xAD, on ? 0x8B : 0x8A)
        case .displayOn(let on): buffer.append(on ? 0xAF : 0xAE)
        case .page(let page): buffer.append(0xB0 | (page & 0x07))
        case .comScanReversed(let reversed): buffer.append(reversed ? 0xC8 : 0xC0)
        case .displayOffset(let offset): buffer.append(0xD3, offset & 0x3F)
        case .clockDivide(let value): buffer.append(0xD5, value)
        case .precharge(let value): buffer.append(0xD9, value)
        case .comPins(let value): buffer.append(0xDA, (value & 0x10) | 0x02)
        case .vcomDeselect(let value): buffer.append(0xDB, value)
        case .nop: buffer.append(0xE3)
        }
    }

    /// The command bytes, for tests and logs (allocates).
    public var bytes: [UInt8] {
        var buffer = TransmitBuffer(capacity: 4)
        encode(into: &buffer)
        return buffer.bytes
    }
}

/// The control byte that starts every I²C write to an SSD1306 or SH1106 (SSD1306 §8.1.5.2,
/// Figure 8-7; SH1106 "I²C-bus Interface"): Co (bit 7) says whether another control byte
/// follows after one byte, D/C# (bit 6) whether the byte(s) are commands or display data.
public enum OLEDControlByte {
    /// Co = 0, D/C# = 0: every following byte of the transaction is a command.
    public static let commandStream: UInt8 = 0x00
    /// Co = 0, D/C# = 1: every following byte of the transaction is display RAM data.
    public static let dataStream: UInt8 = 0x40
    /// Co = 1, D/C# = 0: one command byte, then another control byte.
    public static let singleCommand: UInt8 = 0x80
    /// Co = 1, D/C# = 1: one data byte, then another control byte.
    public static let singleData: UInt8 = 0xC0
}

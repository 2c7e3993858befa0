/// SSD1306 commands (Solomon Systech SSD1306 Rev 1.1, Table 9-1 "Command Table", described in
/// §10.1 "Fundamental Command" and §10.2 "Graphic Acceleration Command"; the charge pump in the
/// "Charge Pump Regulator" application note appended to the data sheet).
///
/// One case per command with its arguments in the units a reader thinks in; `encode(into:)`
/// is the only place that knows the bytes (the rust `ssd1306` crate's `command.rs`). Arguments
/// outside a field are masked to the field, as the controller itself would read them.
public enum SSD1306Command: Sendable, Equatable, Hashable {
    /// §10.1.3 Set Memory Addressing Mode (20h). Only bits 1:0 count: `20 10` is horizontal.
    public enum AddressingMode: UInt8, Sendable, CaseIterable {
        case horizontal = 0
        case vertical = 1
        case page = 2
    }

    /// §10.1.12 Set Display ON/OFF: AEh (sleep) / AFh (on).
    case displayOn(Bool)
    /// §10.1.7 Set Contrast Control (81h, 1–256 steps).
    case contrast(UInt8)
    /// §10.1.9 Entire Display ON: A4h follows RAM, A5h lights every pixel.
    case entireDisplayOn(Bool)
    /// §10.1.10 Set Normal/Inverse Display: A6h / A7h.
    case inverted(Bool)
    /// §10.1.3 Set Memory Addressing Mode (20h).
    case addressingMode(AddressingMode)
    /// §10.1.4 Set Column Address (21h): the window's first and last column, 0–127.
    case columnAddress(first: UInt8, last: UInt8)
    /// §10.1.5 Set Page Address (22h): the window's first and last page, 0–7.
    case pageAddress(first: UInt8, last: UInt8)
    /// §10.1.13 Set Page Start Address for Page Addressing Mode (B0h–B7h).
    case pageModeStartPage(UInt8)
    /// §10.1.1 and §10.1.2 Set Lower / Higher Column Start Address for Page Addressing Mode
    /// (00h–0Fh then 10h–1Fh): two bytes.
    case pageModeStartColumn(UInt8)
    /// §10.1.6 Set Display Start Line (40h–7Fh).
    case startLine(UInt8)
    /// §10.1.8 Set Segment Re-map: A0h column 0 → SEG0, A1h column 127 → SEG0. Acts on RAM
    /// written afterwards only.
    case segmentRemap(Bool)
    /// §10.1.11 Set Multiplex Ratio (A8h): the number of rows driven, 16–64 (sent as rows − 1).
    case multiplexRatio(rows: UInt8)
    /// §10.1.14 Set COM Output Scan Direction: C0h COM0 → COM[N−1], C8h reversed. Acts at once.
    case comScanReversed(Bool)
    /// §10.1.15 Set Display Offset (D3h): vertical shift by COM, 0–63.
    case displayOffset(UInt8)
    /// §10.1.18 Set COM Pins Hardware Configuration (DAh): `0x02` sequential, `0x12`
    /// alternative (128×64), `0x22`/`0x32` with left/right remap. Bits 5:4 count.
    case comPins(UInt8)
    /// §10.1.16 Set Display Clock Divide Ratio / Oscillator Frequency (D5h): high nibble the
    /// frequency, low nibble the divide ratio − 1 (reset 80h).
    case clockDivide(UInt8)
    /// §10.1.17 Set Pre-charge Period (D9h): low nibble phase 1, high nibble phase 2 (DCLKs).
    case precharge(UInt8)
    /// §10.1.19 Set V_COMH Deselect Level (DBh): 00h 0.65·Vcc, 20h 0.77·Vcc, 30h 0.83·Vcc
    /// (40h is the common undocumented ~0.89·Vcc).
    case vcomhDeselect(UInt8)
    /// Charge Pump Setting (8Dh): 14h on (internal VCC modules stay dark without it), 10h off.
    case chargePump(Bool)
    /// §10.2.3 Deactivate Scroll (2Eh).
    case deactivateScroll
    /// §10.1.20 NOP (E3h).
    case nop

    /// Appends the command bytes (no control byte).
    public func encode(into buffer: inout TransmitBuffer) {
        switch self {
        case .displayOn(let on): buffer.append(on ? 0xAF : 0xAE)
        case .contrast(let value): buffer.append(0x81, value)
        case .entireDisplayOn(let on): buffer.append(on ? 0xA5 : 0xA4)
        case .inverted(let on): buffer.append(on ? 0xA7 : 0xA6)
        case .addressingMode(let mode): buffer.append(0x20, mode.rawValue)
        case .columnAddress(let first, let last):
            buffer.append(0x21)
            buffer.append(first & 0x7F, last & 0x7F)
        case .pageAddress(let first, let last):
            buffer.append(0x22)
            buffer.append(first & 0x07, last & 0x07)
        case .pageModeStartPage(let page): buffer.append(0xB0 | (page & 0x07))
        case .pageModeStartColumn(let column):
            buffer.append(column & 0x0F, 0x10 | ((column >> 4) & 0x07))
        case .startLine(let line): buffer.append(0x40 | (line & 0x3F))
        case .segmentRemap(let remapped): buffer.append(remapped ? 0xA1 : 0xA0)
        case .multiplexRatio(let rows): buffer.append(0xA8, (min(max(rows, 16), 64) - 1))
        case .comScanReversed(let reversed): buffer.append(reversed ? 0xC8 : 0xC0)
        case .displayOffset(let offset): buffer.append(0xD3, offset & 0x3F)
        case .comPins(let value): buffer.append(0xDA, (value & 0x30) | 0x02)
        case .clockDivide(let value): buffer.append(0xD5, value)
        case .precharge(let value): buffer.append(0xD9, value)
        case .vcomhDeselect(let value): buffer.append(0xDB, value)
        case .chargePump(let on): buffer.append(0x8D, on ? 0x14 : 0x10)
        case .deactivateScroll: buffer.append(0x2E)
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

extension OLEDControllerModel {
    /// SSD1306 §10.1.3 "Set Memory Addressing Mode (20h)": A[1:0] = 00 horizontal, 01 vertical,
    /// 10 page (the reset value); 11 is invalid. The SH1106 has page addressing only.
    public enum AddressingMode: UInt8, Sendable, Equatable {
        case horizontal = 0, vertical = 1, page = 2
    }

    /// The controller's settings, with the reset values of SSD1306 Table 9-1 and the SH1106
    /// power-on values. Everything a command sets is here, so a test can check a command's
    /// effect directly, and the image is a function of `registers` and `ram` alone.
    public struct Registers: Sendable, Equatable {
        /// `AE`/`AF` (SSD1306 §10.1.12; SH1106 11): off after reset.
        public var displayOn = false
        /// `81 xx` (SSD1306 §10.1.7: reset 0x7F; SH1106 5: POR 0x80). Not drawn: the image is 1-bit.
        public var contrast: UInt8
        /// `A4`/`A5` entire display on (SSD1306 §10.1.9; SH1106 7).
        public var entireDisplayOn = false
        /// `A6`/`A7` inverse display (SSD1306 §10.1.10; SH1106 8).
        public var inverted = false
        /// Rows scanned, 1 + the `A8` argument (SSD1306 §10.1.11: 16…64, reset 64; SH1106 9).
        public var multiplexRatio = 64
        /// `D3 xx` vertical shift by COM (SSD1306 §10.1.15; SH1106 14), 0…63.
        public var displayOffset: UInt8 = 0
        /// `40`…`7F`: the RAM row shown on the first scanned row (SSD1306 §10.1.6; SH1106 4).
        public var startLine: UInt8 = 0
        /// `A0`/`A1` segment remap (SSD1306 §10.1.8; SH1106 6 "ADC select"): column address
        /// 0 goes to SEG0, or to the last SEG. Applies to data written afterwards.
        public var segmentRemap = false
        /// `C0`/`C8` COM scan direction (SSD1306 §10.1.14; SH1106 13): COM[N-1] → COM0 when
        /// reversed. Applies to the image at once.
        public var comScanReversed = false
        /// `DA` bit 4: alternative COM pin configuration (the reset value, 0x12) or sequential.
        public var comAlternative = true
        /// `DA` bit 5 (SSD1306 only): COM left/right remap.
        public var comLeftRightRemap = false
        /// SSD1306 `8D 14`/`8D 10` (the data sheet's charge pump appendix: bit 2, disabled after
        /// reset); SH1106 DC-DC `AD 8B`/`AD 8A` (10: on after power-on).
        public var chargePump: Bool
        public var addressingMode: AddressingMode = .page
        /// The horizontal/vertical window: `21 start end`, `22 start end` (SSD1306 §10.1.4–5).
        public var columnStart: UInt8 = 0
        public var columnEnd: UInt8 = 127
        public var pageStart: UInt8 = 0
        public var pageEnd: UInt8 = 7
        /// The RAM write pointer, as a column address (before the segment remap) and a page.
        /// An `Int`, because the SH1106's column address register goes beyond its 132 columns.
        public var column = 0
        public var page: UInt8 = 0
        /// The page-mode column start set by `00`–`1F` (SSD1306 §10.1.1–2): where the column
        /// pointer returns after column 127 in page addressing mode.
        public var pageModeColumnStart: UInt8 = 0
        /// `D5`, `D9`, `DB`: timing and voltage settings, recorded, not drawn.
        public var clockDivide: UInt8 = 0x80
        public var precharge: UInt8 = 0x22
        public var vcomhDeselect: UInt8
        /// SH1106 `30`–`33` pump voltage (3: POR 0x32 = 8.0 V): the low two bits.
        public var pumpVoltage: UInt8 = 2
        /// SSD1315 `AD xx` internal IREF selection, tolerated on the SSD1306 (CircuitPython sends
        /// `AD 30`); nil until sent.
        public var currentReference: UInt8?
        /// SSD1306 scrolling (§10.2): the last setup command with its arguments, and whether
        /// `2F` activated it. The image never scrolls (see `PanelProtocolError.Kind.unsupportedEffect`).
        public var scrollSetup: [UInt8] = []
        public var scrollActive = false
        /// SH1106 `E0` read-modify-write: the column to go back to at `EE` (19–20).
        public var readModifyWriteColumn: Int?

        public init(_ controller: Controller) {
            switch controller {
            case .ssd1306:
                contrast = 0x7F
                chargePump = false
                vcomhDeselect = 0x20
            case .sh1106:
                contrast = 0x80
                chargePump = true
                vcomhDeselect = 0x35
            }
        }
    }
}

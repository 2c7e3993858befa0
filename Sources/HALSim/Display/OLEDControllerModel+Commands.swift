// The command decoders: SSD1306 Rev 1.1 Table 9-1 and SH1106 V2.3 "Commands".

extension OLEDControllerModel {
    /// How many argument bytes follow an SSD1306 command byte (SSD1306 Rev 1.1 Table 9-1), or
    /// nil for a byte that is no command. `AD` is the SSD1315's IREF selection, tolerated.
    static func ssd1306ArgumentCount(_ command: UInt8) -> Int? {
        switch command {
        case 0x00...0x17, 0x40...0x7F, 0xB0...0xB7: 0  // column nibbles, start line, page (§10.1.1–2, 6, 13)
        case 0x20, 0x81, 0x8D, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB: 1
        case 0x21, 0x22, 0xA3: 2  // column / page window (§10.1.4–5), vertical scroll area (§10.2.5)
        case 0x26, 0x27: 6  // horizontal scroll setup (§10.2.1): dummy, start page, interval, end page, 00, FF
        case 0x29, 0x2A: 5  // vertical and horizontal scroll setup (§10.2.2)
        case 0x2E, 0x2F: 0  // deactivate / activate scroll (§10.2.3–4)
        case 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE3: 0
        default: nil
        }
    }

    /// Runs one complete SSD1306 command (Table 9-1, §10.1–10.2).
    func executeSSD1306(_ command: UInt8, _ a: [UInt8]) {
        var r = registers
        defer { registers = r }
        switch command {
        case 0x00...0x0F:  // §10.1.1 lower column start address (page mode); moves the pointer
            r.pageModeColumnStart = r.pageModeColumnStart & 0xF0 | command & 0x0F
            r.column = Int(r.pageModeColumnStart)
            rangeReported = false
        case 0x10...0x17:  // §10.1.2 higher column start address
            r.pageModeColumnStart = r.pageModeColumnStart & 0x0F | (command & 0x07) << 4
            r.column = Int(r.pageModeColumnStart)
            rangeReported = false
        case 0x20:  // §10.1.3: only A[1:0] count, so `20 10` selects horizontal mode
            if let mode = AddressingMode(rawValue: a[0] & 0x03) {
                r.addressingMode = mode
            } else {
                record(.invalidArgument, byte: a[0],
                    "20 \(hex(a[0])): addressing mode 11b is invalid; the mode stays \(r.addressingMode)")
            }
        case 0x21:  // §10.1.4 column window; the pointer goes to its start
            r.columnStart = a[0] & 0x7F
            r.columnEnd = a[1] & 0x7F
            r.column = Int(r.columnStart)
            rangeReported = false
        case 0x22:  // §10.1.5 page window
            r.pageStart = a[0] & 0x07
            r.pageEnd = a[1] & 0x07
            r.page = r.pageStart
            rangeReported = false
        case 0x26, 0x27, 0x29, 0x2A, 0xA3:
            r.scrollSetup = [command] + a
        case 0x2E:
            r.scrollActive = false
        case 0x2F:
            r.scrollActive = true
            record(.unsupportedEffect, byte: command,
                "2F activates scrolling (\(r.scrollSetup.map { hex($0) }.joined(separator: " "))); the model shows the RAM unscrolled")
        case 0x40...0x7F:
            r.startLine = command & 0x3F
        case 0x81:
            r.contrast = a[0]
        case 0x8D:  // charge pump: 10 off, 14 on
            if a[0] & 0xFB != 0x10 {
                record(.invalidArgument, byte: a[0],
                    "8D \(hex(a[0])): the charge pump setting is 10 or 14; bit 2 taken")
            }
            r.chargePump = a[0] & 0x04 != 0
        case 0xA0, 0xA1:
            r.segmentRemap = command == 0xA1
        case 0xA4, 0xA5:
            r.entireDisplayOn = command == 0xA5
        case 0xA6, 0xA7:
            r.inverted = command == 0xA7
        case 0xA8:  // §10.1.11: 15…63 (mux 16…64); 0…14 invalid
            let value = a[0] & 0x3F
            if value < 15 || a[0] > 0x3F {
                record(.invalidArgument, byte: a[0],
                    "A8 \(hex(a[0])): the multiplex ratio must be 0x0F…0x3F\(value < 15 ? "; ignored" : "; bits 5…0 taken")")
            }
            if value >= 15 { r.multiplexRatio = Int(value) + 1 }
        case 0xAD:
            r.currentReference = a[0]
        case 0xAE, 0xAF:
            r.displayOn = command == 0xAF
            if r.displayOn { everSwitchedOn = true }
        case 0xB0...0xB7:  // §10.1.13 page start address (page mode); moves the pointer
            r.page = command & 0x07
            rangeReported = false
        case 0xC0, 0xC8:
            r.comScanReversed = command == 0xC8
        case 0xD3:
            r.displayOffset = a[0] & 0x3F
        case 0xD5:
            r.clockDivide = a[0]
        case 0xD9:
            r.precharge = a[0]
        case 0xDA:  // §10.1.18: 0 0 A5 A4 0 0 1 0
            if a[0] & 0xCF != 0x02 {
                record(.invalidArgument, byte: a[0],
                    "DA \(hex(a[0])): COM pins configuration is 02, 12, 22 or 32; bits 4 and 5 taken")
            }
            r.comAlternative = a[0] & 0x10 != 0
            r.comLeftRightRemap = a[0] & 0x20 != 0
        case 0xDB:
            r.vcomhDeselect = a[0]
        default:  // E3 NOP
            break
        }
    }

    /// Names of SSD1306 commands the SH1106 lacks, for the SH1106's unknown-command message.
    static func ssd1306Name(_ byte: UInt8) -> String? {
        switch byte {
        case 0x20: "Set Memory Addressing Mode"
        case 0x21: "Set Column Address"
        case 0x22: "Set Page Address"
        case 0x26, 0x27, 0x29, 0x2A: "scroll setup"
        case 0x2E: "Deactivate Scroll"
        case 0x2F: "Activate Scroll"
        case 0x8D: "Charge Pump Setting"
        case 0xA3: "Set Vertical Scroll Area"
        default: nil
        }
    }

    func unknownCommandMessage(_ byte: UInt8) -> String {
        switch configuration.controller {
        case .ssd1306:
            return "\(hex(byte)) is not an SSD1306 command (Table 9-1); ignored"
        case .sh1106:
            let name = Self.ssd1306Name(byte).map { " (it is the SSD1306's \($0))" } ?? ""
            return "\(hex(byte)) is not an SH1106 command\(name); run as a one-byte no-op, so any argument bytes after it run as commands"
        }
    }
}

extension OLEDControllerModel {
    /// How many argument bytes follow an SH1106 command byte (SH1106 V2.3 "Commands"), or nil
    /// for a byte that is no SH1106 command.
    ///
    /// The SH1106 has no addressing-mode, window, scrolling or charge-pump commands. The data
    /// sheet does not say what such bytes do; the model reads them as one-byte no-ops, so the
    /// argument bytes an SSD1306 driver sends after them run as commands of their own
    /// (`20 10`: no-op, then higher column address 0; `8D 14`: no-op, then column 0x40;
    /// `21 00 7F`: no-op, column 0, start line 63) — the reading `corpus/displays/README.md`
    /// calls safe. Each is reported as `.unknownCommand`.
    static func sh1106ArgumentCount(_ command: UInt8) -> Int? {
        switch command {
        case 0x00...0x1F, 0x30...0x33, 0x40...0x7F, 0xB0...0xB7, 0xC0...0xCF: 0  // 1–4, 12, 13
        case 0xA0, 0xA1, 0xA4...0xA7, 0xAE, 0xAF, 0xE0, 0xE3, 0xEE: 0  // 6–8, 11, 19–21
        case 0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB: 1  // 5, 9, 10, 14–18
        default: nil
        }
    }

    /// Runs one complete SH1106 command (V2.3 "Commands" 1–21).
    func executeSH1106(_ command: UInt8, _ a: [UInt8]) {
        var r = registers
        defer { registers = r }
        switch command {
        case 0x00...0x0F:  // 1. lower column address
            r.column = r.column & 0xF0 | Int(command & 0x0F)
            rangeReported = false
        case 0x10...0x1F:  // 2. higher column address (4 bits: the register reaches 255)
            r.column = r.column & 0x0F | Int(command & 0x0F) << 4
            rangeReported = false
        case 0x30...0x33:  // 3. pump voltage 6.4 / 7.4 / 8.0 / 9.0 V
            r.pumpVoltage = command & 0x03
        case 0x40...0x7F:  // 4. display start line
            r.startLine = command & 0x3F
        case 0x81:  // 5. contrast
            r.contrast = a[0]
        case 0xA0, 0xA1:  // 6. segment remap (ADC)
            r.segmentRemap = command == 0xA1
        case 0xA4, 0xA5:  // 7. entire display off/on
            r.entireDisplayOn = command == 0xA5
        case 0xA6, 0xA7:  // 8. normal / reverse
            r.inverted = command == 0xA7
        case 0xA8:  // 9. multiplex ratio 1…64
            if a[0] > 0x3F {
                record(.invalidArgument, byte: a[0],
                    "A8 \(hex(a[0])): the multiplex ratio is 0x00…0x3F; bits 5…0 taken")
            }
            r.multiplexRatio = Int(a[0] & 0x3F) + 1
        case 0xAD:  // 10. DC-DC control: 1 0 0 0 1 0 1 D
            if a[0] & 0xFE != 0x8A {
                record(.invalidArgument, byte: a[0],
                    "AD \(hex(a[0])): the DC-DC setting is 8A (off) or 8B (on); bit 0 taken")
            }
            r.chargePump = a[0] & 0x01 != 0
        case 0xAE, 0xAF:  // 11. display off/on
            r.displayOn = command == 0xAF
            if r.displayOn { everSwitchedOn = true }
        case 0xB0...0xB7:  // 12. page address
            r.page = command & 0x07
            rangeReported = false
        case 0xC0...0xCF:  // 13. common output scan direction: bit 3
            r.comScanReversed = command & 0x08 != 0
        case 0xD3:  // 14. display offset
            r.displayOffset = a[0] & 0x3F
        case 0xD5:  // 15. clock divide ratio / oscillator frequency
            r.clockDivide = a[0]
        case 0xD9:  // 16. discharge / precharge period
            r.precharge = a[0]
        case 0xDA:  // 17. common pads hardware configuration: 0 0 0 D 0 0 1 0
            if a[0] & 0xEF != 0x02 {
                record(.invalidArgument, byte: a[0],
                    "DA \(hex(a[0])): the common pads configuration is 02 or 12; bit 4 taken")
            }
            r.comAlternative = a[0] & 0x10 != 0
        case 0xDB:  // 18. VCOM deselect level
            r.vcomhDeselect = a[0]
        case 0xE0:  // 19. read-modify-write: remember the column for `EE`
            r.readModifyWriteColumn = r.column
        case 0xEE:  // 20. end of read-modify-write: back to that column
            if let column = r.readModifyWriteColumn { r.column = column }
            r.readModifyWriteColumn = nil
        default:  // 21. E3 NOP
            break
        }
    }
}

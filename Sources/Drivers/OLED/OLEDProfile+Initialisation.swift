extension OLEDProfile {
    /// Appends the initialisation commands (no control byte) for this profile.
    ///
    /// SSD1306 (Table 9-1; the order of the Rev 1.1 application example, as Adafruit_SSD1306
    /// and u8g2 send it): display off, clock, mux, offset, start line, charge pump, horizontal
    /// addressing, segment remap + COM scan for `rotation`, COM pins, contrast, pre-charge,
    /// V_COMH, follow RAM, normal/inverse, scroll off —
    /// `AE D5 80 A8 3F D3 00 40 8D 14 20 00 A1 C8 DA 12 81 CF D9 F1 DB 40 A4 A6 2E` for 128×64.
    ///
    /// SH1106 (commands 1–18 of V2.3; only its own commands — `20`, `8D` and `2E` are none):
    /// `AE D5 80 A8 3F D3 00 40 AD 8B A1 C8 DA 12 81 80 D9 22 DB 35 A4 A6`.
    ///
    /// The display stays off (AEh): the driver clears all of RAM before it sends AFh, so the
    /// panel never shows what the RAM held at power-on.
    public func encodeInitialisation(
        into buffer: inout TransmitBuffer, rotation: Rotation, inverted: Bool, level: Level
    ) {
        let upright = rotation == .normal
        switch controller {
        case .ssd1306:
            func put(_ command: SSD1306Command) { command.encode(into: &buffer) }
            put(.displayOn(false))
            put(.clockDivide(clockDivide))
            put(.multiplexRatio(rows: UInt8(height)))
            put(.displayOffset(0))
            put(.startLine(0))
            put(.chargePump(!externalVCC))
            put(.addressingMode(.horizontal))
            put(.segmentRemap(upright))
            put(.comScanReversed(upright))
            put(.comPins(comPins))
            put(.contrast(level.contrast))
            put(.precharge(level.precharge))
            put(.vcomhDeselect(vcomh))
            put(.entireDisplayOn(false))
            put(.inverted(inverted))
            put(.deactivateScroll)
        case .sh1106:
            func put(_ command: SH1106Command) { command.encode(into: &buffer) }
            put(.displayOn(false))
            put(.clockDivide(clockDivide))
            put(.multiplexRatio(rows: UInt8(height)))
            put(.displayOffset(0))
            put(.startLine(0))
            put(.dcDC(!externalVCC))
            put(.segmentRemap(upright))
            put(.comScanReversed(upright))
            put(.comPins(comPins))
            put(.contrast(level.contrast))
            put(.precharge(level.precharge))
            put(.vcomDeselect(vcomh))
            put(.entireDisplayOn(false))
            put(.inverted(inverted))
        }
    }

    /// The initialisation command bytes (no control byte), for tests and `board check`
    /// (allocates). `rotation` defaults to the profile's.
    public func initialisationCommands(
        rotation: Rotation? = nil, inverted: Bool = false, brightness: Brightness = .normal
    ) -> [UInt8] {
        var buffer = TransmitBuffer(capacity: 64)
        encodeInitialisation(
            into: &buffer, rotation: rotation ?? self.rotation, inverted: inverted, level: level(brightness))
        return buffer.bytes
    }

    /// Appends the segment remap and COM scan direction for `rotation` (SSD1306 §10.1.8 and
    /// §10.1.14; SH1106 commands 6 and 13): `A1 C8` upright, `A0 C0` turned by 180°.
    func encodeRotation(_ rotation: Rotation, into buffer: inout TransmitBuffer) {
        let upright = rotation == .normal
        switch controller {
        case .ssd1306:
            SSD1306Command.segmentRemap(upright).encode(into: &buffer)
            SSD1306Command.comScanReversed(upright).encode(into: &buffer)
        case .sh1106:
            SH1106Command.segmentRemap(upright).encode(into: &buffer)
            SH1106Command.comScanReversed(upright).encode(into: &buffer)
        }
    }

    /// Appends contrast and pre-charge: `81 cc D9 pp`.
    func encodeLevel(_ level: Level, into buffer: inout TransmitBuffer) {
        switch controller {
        case .ssd1306:
            SSD1306Command.contrast(level.contrast).encode(into: &buffer)
            SSD1306Command.precharge(level.precharge).encode(into: &buffer)
        case .sh1106:
            SH1106Command.contrast(level.contrast).encode(into: &buffer)
            SH1106Command.precharge(level.precharge).encode(into: &buffer)
        }
    }

    /// Appends AEh / AFh (the same byte on both controllers).
    func encodeDisplayOn(_ on: Bool, into buffer: inout TransmitBuffer) {
        switch controller {
        case .ssd1306: SSD1306Command.displayOn(on).encode(into: &buffer)
        case .sh1106: SH1106Command.displayOn(on).encode(into: &buffer)
        }
    }

    /// Appends A6h / A7h.
    func encodeInverted(_ on: Bool, into buffer: inout TransmitBuffer) {
        switch controller {
        case .ssd1306: SSD1306Command.inverted(on).encode(into: &buffer)
        case .sh1106: SH1106Command.inverted(on).encode(into: &buffer)
        }
    }
}

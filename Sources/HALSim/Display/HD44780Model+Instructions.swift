import HAL

extension HD44780Model {
    /// Runs one instruction (RS = 0) or data write (RS = 1): HD44780U Table 6.
    func execute(_ byte: UInt8, registerSelect: Bool, at time: Instant?) {
        executed += 1
        var duration = registerSelect ? timing.dataWrite : timing.instruction
        var what = registerSelect ? "data write \(PanelProtocolError.hex(byte))" : "instruction \(PanelProtocolError.hex(byte))"
        initialisationWait = false
        let initialising = !isInitialised && !registerSelect && eightBitInterface && byte & 0xF0 == 0x30
        if initialising {
            // Figure 24: function set (8-bit) three times, with > 4.1 ms and > 100 µs waits.
            functionSetsSeen += 1
            switch functionSetsSeen {
            case 1: (duration, initialisationWait) = (timing.afterFirstFunctionSet, true)
            case 2: (duration, initialisationWait) = (timing.afterSecondFunctionSet, true)
            default: isInitialised = true
            }
            what = "initialisation function set \(functionSetsSeen)"
        } else if !isInitialised && !reportedUninitialised {
            reportedUninitialised = true
            record(.usedBeforeInitialisation, byte: byte, time,
                "\(what) before the initialisation by instruction (function set 0x3 three times, Figure 24); run anyway")
        }
        if registerSelect {
            writeData(byte)
        } else {
            switch byte {
            case 0x01:  // clear display
                ddram = [UInt8](repeating: 0x20, count: 80)
                (addressCounter, addressesCGRAM, incrementing, displayShift) = (0, false, true, 0)
                duration = timing.clearOrHome
                what = "clear display"
            case 0x02, 0x03:  // return home
                (addressCounter, addressesCGRAM, displayShift) = (0, false, 0)
                duration = timing.clearOrHome
                what = "return home"
            case 0x04...0x07:  // entry mode set: I/D, S
                (incrementing, shiftsOnWrite) = (byte & 0x02 != 0, byte & 0x01 != 0)
            case 0x08...0x0F:  // display on/off control: D, C, B
                (displayOn, cursorOn, blinkOn) = (byte & 0x04 != 0, byte & 0x02 != 0, byte & 0x01 != 0)
            case 0x10...0x1F:  // cursor or display shift: S/C, R/L
                let right = byte & 0x04 != 0
                if byte & 0x08 != 0 {
                    shiftDisplay(left: !right)
                } else if !addressesCGRAM {
                    addressCounter = step(addressCounter, up: right)
                }
            case 0x20...0x3F:  // function set: DL, N, F
                eightBitInterface = byte & 0x10 != 0
                twoLines = byte & 0x08 != 0
                tallFont = byte & 0x04 != 0
                highNibble = nil
            case 0x40...0x7F:  // set CGRAM address
                (addressCounter, addressesCGRAM) = (byte & 0x3F, true)
            case 0x80...0xFF:  // set DDRAM address
                (addressCounter, addressesCGRAM) = (byte & 0x7F, false)
                if cell(addressCounter) == nil {
                    record(.invalidAddress, byte: byte, time,
                        "DDRAM address \(PanelProtocolError.hex(byte & 0x7F)) does not exist in \(twoLines ? "2-line" : "1-line") mode; writes there are lost")
                }
            default:  // 0x00: no instruction
                break
            }
        }
        if let time {
            busyUntil = time + duration
            busyWith = "\(what) (\(Self.micro(duration)))"
        }
    }

    /// Writes to CGRAM or DDRAM at the address counter, then moves it (and the display, if S).
    private func writeData(_ byte: UInt8) {
        if addressesCGRAM {
            cgram[Int(addressCounter & 0x3F)] = byte
            addressCounter = (incrementing ? addressCounter &+ 1 : addressCounter &- 1) & 0x3F
            return  // writing CGRAM never shifts the display
        }
        if let index = cell(addressCounter) { ddram[index] = byte }
        addressCounter = step(addressCounter, up: incrementing)
        if shiftsOnWrite { shiftDisplay(left: incrementing) }
    }

    /// The DDRAM cell of `address` in the current line mode, or nil when there is none.
    func cell(_ address: UInt8) -> Int? {
        if twoLines {
            switch address {
            case 0x00...0x27: return Int(address)
            case 0x40...0x67: return 40 + Int(address - 0x40)
            default: return nil
            }
        }
        return address < 0x50 ? Int(address) : nil
    }

    /// The DDRAM address after `address`, in the increment or decrement direction; the second
    /// line follows the first and the first follows the second in 2-line mode.
    func step(_ address: UInt8, up: Bool) -> UInt8 {
        switch (twoLines, up, address) {
        case (true, true, 0x27): return 0x40
        case (true, true, 0x67): return 0x00
        case (true, false, 0x00): return 0x67
        case (true, false, 0x40): return 0x27
        case (false, true, 0x4F): return 0x00
        case (false, false, 0x00): return 0x4F
        default: return (up ? address &+ 1 : address &- 1) & 0x7F
        }
    }

    /// Shifting the display left moves every line's window one cell to the right.
    private func shiftDisplay(left: Bool) {
        let span = twoLines ? 40 : 80
        displayShift = (displayShift + (left ? 1 : span - 1)) % span
    }
}

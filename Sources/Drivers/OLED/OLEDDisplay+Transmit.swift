import HAL

/// The transactions: initialisation, windows, single commands. Every send goes through
/// `transmit`, which marks the shadow untrusted when the bus fails.
extension OLEDDisplay {
    /// Sends `tx` as one transaction, counting it; on failure the panel needs initialising.
    mutating func transmit(_ report: inout FlushReport, dataBytes: Int = 0) throws(I2CError) {
        let address = profile.address
        do {
            try tx.send(to: &bus, address: address)
        } catch {
            needsInitialisation = true
            throw error
        }
        report.recordTransaction(payload: tx.count)
        report.dataBytes += dataBytes
    }

    /// Starts a command transaction (`00 …`), or returns `false` when the panel is to be
    /// initialised anyway (the setting is then applied by the initialisation).
    mutating func beginCommands() -> Bool {
        guard !needsInitialisation else { return false }
        tx.removeAll()
        tx.append(OLEDControlByte.commandStream)
        return true
    }

    mutating func sendCommands() throws(I2CError) -> FlushReport {
        var report = FlushReport()
        try transmit(&report)
        return report
    }

    mutating func sendDisplayOn(_ report: inout FlushReport) throws(I2CError) {
        tx.removeAll()
        tx.append(OLEDControlByte.commandStream)
        profile.encodeDisplayOn(true, into: &tx)
        try transmit(&report)
    }

    /// The initialisation of `OLEDProfile.encodeInitialisation` with the driver's settings, then
    /// all of RAM cleared, display still off:
    /// - SSD1306: one command transaction ending with the window of all RAM
    ///   (`… 2E 21 00 7F 22 00 07`), then `40` + 1,024 zero bytes.
    /// - SH1106: the command transaction, then each of the 8 pages over all 132 columns from
    ///   column 0 (`B0+p 00 10` + 132 zero bytes) in the driver's framing.
    mutating func initialise(_ report: inout FlushReport) throws(I2CError) {
        needsInitialisation = true
        tx.removeAll()
        tx.append(OLEDControlByte.commandStream)
        profile.encodeInitialisation(into: &tx, rotation: rotation, inverted: isInverted, level: level)
        let ramColumns = profile.ramColumns
        let ramPages = profile.ramPages
        switch profile.controller {
        case .ssd1306:
            SSD1306Command.columnAddress(first: 0, last: UInt8(ramColumns - 1)).encode(into: &tx)
            SSD1306Command.pageAddress(first: 0, last: UInt8(ramPages - 1)).encode(into: &tx)
            try transmit(&report)
            tx.removeAll()
            tx.append(OLEDControlByte.dataStream)
            tx.append(0, repeating: ramColumns * ramPages)
            try transmit(&report, dataBytes: ramColumns * ramPages)
        case .sh1106:
            try transmit(&report)
            for page in 0..<ramPages {
                try beginWindow(ramColumns: 0...ramColumns - 1, pages: page...page, &report)
                tx.append(0, repeating: ramColumns)
                try transmit(&report, dataBytes: ramColumns)
            }
        }
        for i in shadow.indices { shadow[i] = 0 }
        needsInitialisation = false
        report.reinitialised = true
    }

    /// Sends `window` of `frame` (page-major bytes) and records it in the shadow. On the
    /// SH1106 a window is one page (page addressing: the page never advances).
    mutating func sendWindow(_ window: OLEDWindow, from frame: [UInt8], _ report: inout FlushReport) throws(I2CError) {
        let width = profile.width
        let offset = profile.columnOffset(for: rotation)
        let ramColumns = offset + window.firstColumn...offset + window.lastColumn
        try beginWindow(ramColumns: ramColumns, pages: window.firstPage...window.lastPage, &report)
        for page in window.firstPage...window.lastPage {
            let start = page * width + window.firstColumn
            tx.append(contentsOf: frame, range: start..<start + window.columnCount)
        }
        try transmit(&report, dataBytes: window.byteCount)
        shadow.withUnsafeMutableBufferPointer { dst in
            frame.withUnsafeBufferPointer { src in
                for page in window.firstPage...window.lastPage {
                    let start = page * width + window.firstColumn
                    for i in start..<start + window.columnCount { dst[i] = src[i] }
                }
            }
        }
    }

    /// Positions the controller at a window of RAM columns × pages and leaves `tx` ready for
    /// the data bytes (ending in the `40` control byte). In `commandThenData` framing the
    /// command transaction is sent here.
    ///
    /// SSD1306 (horizontal addressing, §10.1.3–§10.1.5): `21 c0 c1 22 p0 p1`; when both pointers
    /// reach the window's end they return to its start. SH1106 (page addressing, commands 12,
    /// 1, 2): `B0+p`, `0x0L`, `0x1H`.
    mutating func beginWindow(
        ramColumns: ClosedRange<Int>, pages: ClosedRange<Int>, _ report: inout FlushReport
    ) throws(I2CError) {
        tx.removeAll()
        let single = framing == .singleTransaction
        if !single { tx.append(OLEDControlByte.commandStream) }
        let mark = tx.count
        let first = UInt8(ramColumns.lowerBound)
        switch profile.controller {
        case .ssd1306:
            SSD1306Command.columnAddress(first: first, last: UInt8(ramColumns.upperBound)).encode(into: &tx)
            SSD1306Command.pageAddress(first: UInt8(pages.lowerBound), last: UInt8(pages.upperBound)).encode(into: &tx)
        case .sh1106:
            precondition(pages.count == 1, "SH1106 windows are one page")
            SH1106Command.page(UInt8(pages.lowerBound)).encode(into: &tx)
            SH1106Command.columnLow(first).encode(into: &tx)
            SH1106Command.columnHigh(first).encode(into: &tx)
        }
        if single {
            // Interleave a Co = 1 control byte before each command byte, back to front.
            let commands = tx.count - mark
            tx.interleave(OLEDControlByte.singleCommand, lastBytes: commands)
        } else {
            try transmit(&report)
            tx.removeAll()
        }
        tx.append(OLEDControlByte.dataStream)
    }
}

extension TransmitBuffer {
    /// Puts `control` before each of the last `n` bytes (`21 00` → `80 21 80 00`).
    mutating func interleave(_ control: UInt8, lastBytes n: Int) {
        let start = count - n
        for _ in 0..<n { append(0) }
        var read = start + n - 1
        var write = count - 1
        while read >= start {
            let byte = self[read]
            self[write] = byte
            self[write - 1] = control
            write -= 2
            read -= 1
        }
    }
}

extension OLEDControllerModel {
    /// One display-data byte: stored at the write pointer, then the pointer moves as the
    /// addressing mode says.
    ///
    /// - The byte fills one column of one page, bit 0 at the top row (SSD1306 §8.7,
    ///   Figure 8-14). The segment remap in force *now* decides which SEG it lands on (§10.1.8:
    ///   A0/A1 only affect data written afterwards), so the RAM is kept in segment order.
    /// - SSD1306 page mode (§10.1.3, Figures 10-1/10-2): the column pointer increments; after column
    ///   127 it goes back to the page-mode column start (`00`–`17`), the page stays.
    /// - SSD1306 horizontal mode (Figure 10-3): the column increments inside the `21` window;
    ///   after its end column it returns to the start column and the page moves to the next one
    ///   in the `22` window, wrapping from the end page to the start page.
    /// - SSD1306 vertical mode (Figure 10-4): the page increments inside the window; after the
    ///   end page it returns to the start page and the column moves on, wrapping likewise.
    /// - The page-mode commands `00`–`17` and `B0`–`B7` move the pointer in every mode: the data
    ///   sheet names them for page mode only, but u8g2 positions its horizontal-mode writes with
    ///   them on real modules, and its corpus images need it.
    /// - SH1106 (page addressing only, "Write Display Data"): the column increments and does not
    ///   wrap; a byte for a column past 131 is lost and reported.
    ///
    /// Reported: a byte for a column or page outside the `21`/`22` window in horizontal or
    /// vertical mode (it is still written: the pointer is where the driver put it), a byte past
    /// the SH1106's RAM (once per run of such bytes), a byte while a command waits for arguments.
    func writeRAM(_ byte: UInt8) {
        reportCutOff(by: "a data byte")
        var r = registers
        defer { registers = r }
        switch configuration.controller {
        case .sh1106:
            if r.column < ramColumns {
                store(byte, column: r.column, page: r.page, remap: r.segmentRemap)
            } else if !rangeReported {
                rangeReported = true
                record(.ramWriteOutOfRange, byte: byte,
                    "data for column \(r.column) of page \(r.page): the SH1106 RAM has columns 0…131; the byte is lost")
            }
            r.column = min(r.column + 1, 0x100)
        case .ssd1306:
            let column = UInt8(r.column & 0x7F)
            if r.addressingMode != .page, !rangeReported,
                !Self.inWindow(column, r.columnStart, r.columnEnd) || !Self.inWindow(r.page, r.pageStart, r.pageEnd)
            {
                rangeReported = true
                record(
                    .ramWriteOutOfRange, byte: byte,
                    "data at column \(column), page \(r.page): outside the window (columns \(r.columnStart)…\(r.columnEnd), pages \(r.pageStart)…\(r.pageEnd))")
            }
            store(byte, column: Int(column), page: r.page, remap: r.segmentRemap)
            advanceSSD1306(&r, from: column)
        }
    }

    private func advanceSSD1306(_ r: inout Registers, from column: UInt8) {
        switch r.addressingMode {
        case .page:
            r.column = column == 127 ? Int(r.pageModeColumnStart) : Int(column) + 1
        case .horizontal:
            if column == r.columnEnd {
                r.column = Int(r.columnStart)
                r.page = r.page == r.pageEnd ? r.pageStart : (r.page + 1) & 0x07
            } else {
                r.column = Int(column + 1) & 0x7F
            }
        case .vertical:
            if r.page == r.pageEnd {
                r.page = r.pageStart
                r.column = column == r.columnEnd ? Int(r.columnStart) : Int(column + 1) & 0x7F
            } else {
                r.page = (r.page + 1) & 0x07
            }
        }
    }

    private static func inWindow(_ value: UInt8, _ start: UInt8, _ end: UInt8) -> Bool {
        start <= end ? (start...end).contains(value) : value >= start || value <= end
    }

    /// Puts `byte` in RAM column `column` (an address) of `page` through the segment remap.
    private func store(_ byte: UInt8, column: Int, page: UInt8, remap: Bool) {
        let segment = remap ? ramColumns - 1 - column : column
        ram[Int(page) * ramColumns + segment] = byte
    }

    /// The RAM byte at column address `column` of `page` as the segment remap now in force
    /// would address it (what a driver reading back would get).
    public func ramByte(column: Int, page: Int) -> UInt8 {
        precondition((0..<ramColumns).contains(column) && (0..<8).contains(page), "outside the display RAM")
        let segment = registers.segmentRemap ? ramColumns - 1 - column : column
        return ram[page * ramColumns + segment]
    }
}

import Graphics
import HAL

/// Steady state: CGRAM for the glyphs on screen, then the changed DDRAM cells.
extension HD44780Display {
    /// Writes what changed between the glass and `frame` in one transaction (more only if a
    /// flush outgrows the transmit buffer, which it is sized never to do).
    ///
    /// 1. CGRAM (HD44780U Table 6 "Set CGRAM address", Table 5): each slot whose glyph
    ///    changed gets `0x40 | slot << 3` (omitted when it follows the slot just written) and
    ///    its 8 rows. The address counter then points into CGRAM, so a DDRAM address follows.
    /// 2. DDRAM: cells are visited in address order; a cell is written when its code differs
    ///    from the shadow, when its CGRAM slot was rewritten, or when everything is to be
    ///    rewritten. A run starts with `0x80 | address` unless the address counter already
    ///    points there (entry mode increment); a gap of unchanged cells is rewritten instead of
    ///    setting the address again when that takes no more port states.
    mutating func write(_ frame: CharacterFrame, _ report: inout FlushReport) throws(I2CError) {
        cgram.assign(frame)
        let cells = frame.cells
        for i in cells.indices { target[i] = cgram.code(for: cells[i]) }
        tx.removeAll()
        writer.beginTransaction()
        var dataBytes = 0
        var counterKnown = false
        var counter: UInt8 = 0

        // 1. CGRAM.
        let rewritten = cgram.rewritten
        var previousSlot = -2
        for slot in 0..<CGRAMSlots.count where rewritten & (1 << UInt8(slot)) != 0 {
            guard let glyph = cgram.slots[slot] else { continue }
            if slot != previousSlot + 1 {
                try room(for: 1, &report, dataBytes: &dataBytes)
                instruction(.setCGRAMAddress(UInt8(slot) << 3))
            }
            let rows = glyph.rows
            for index in 0..<8 {
                try room(for: 1, &report, dataBytes: &dataBytes)
                writer.appendByte(Self.row(rows, index), registerSelect: true, into: &tx)
                dataBytes += 1
            }
            previousSlot = slot
        }

        // 2. DDRAM.
        let perCell = writer.statesPerDataByte
        let perAddress = writer.statesPerAddress
        var last = -1
        var runs = 0
        for k in order.indices {
            let cell = order[k]
            guard isChanged(cell, rewritten) else { continue }
            let address = addresses[cell]
            if !(counterKnown && counter == address) {
                let gap = k - last - 1
                if counterKnown && last >= 0 && gap * perCell <= perAddress && gapFollows(last, k) {
                    for g in last + 1..<k {
                        try room(for: 1, &report, dataBytes: &dataBytes)
                        writer.appendByte(target[order[g]], registerSelect: true, into: &tx)
                        dataBytes += 1
                    }
                } else {
                    try room(for: 1, &report, dataBytes: &dataBytes)
                    instruction(.setDDRAMAddress(address))
                    runs += 1
                }
            }
            try room(for: 1, &report, dataBytes: &dataBytes)
            writer.appendByte(target[cell], registerSelect: true, into: &tx)
            dataBytes += 1
            counter = address &+ 1
            counterKnown = true
            last = k
        }
        if rewritten != 0 && !counterKnown {
            instruction(.setDDRAMAddress(0))
        }
        if !tx.isEmpty { try transmit(&report, dataBytes: dataBytes) }
        report.windows += runs
        report.fullFrame = report.fullFrame || rewriteAll
        for i in target.indices { shadow[i] = target[i] }
        rewriteAll = false
    }

    /// Row `index` of a glyph's 5×8 dots (a tuple, read without building an array).
    static func row(_ rows: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8), _ index: Int) -> UInt8 {
        switch index {
        case 0: rows.0
        case 1: rows.1
        case 2: rows.2
        case 3: rows.3
        case 4: rows.4
        case 5: rows.5
        case 6: rows.6
        default: rows.7
        }
    }

    private func isChanged(_ cell: Int, _ rewritten: UInt8) -> Bool {
        let code = target[cell]
        if rewriteAll || code != shadow[cell] { return true }
        return code < 8 && rewritten & (1 << code) != 0
    }

    /// Whether the cells between order positions `last` and `k` are consecutive in DDRAM.
    private func gapFollows(_ last: Int, _ k: Int) -> Bool {
        for g in last + 1...k where !follows[g] { return false }
        return true
    }

    /// Sends what is buffered when `bytes` more LCD bytes might not fit.
    private mutating func room(for bytes: Int, _ report: inout FlushReport, dataBytes: inout Int) throws(I2CError) {
        guard tx.remaining < bytes * writer.maxStatesPerByte else { return }
        try transmit(&report, dataBytes: dataBytes)
        dataBytes = 0
        tx.removeAll()
        writer.beginTransaction()
    }
}

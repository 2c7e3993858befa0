import Graphics
import HAL

/// What a call to an `HD44780Display` achieved.
public enum HD44780Progress: Sendable, Equatable {
    /// The frame is on the glass; the report counts this call's traffic and that of the
    /// initialisation steps before it.
    case done(FlushReport)
    /// The LCD is executing a long instruction (initialisation, clear); call again at or after
    /// this instant. Nothing sleeps: the event loop arms a timer.
    case busy(until: Instant)
}

/// An HD44780 character LCD behind a PCF8574 I²C backpack, in 4-bit mode.
///
/// Initialisation follows HD44780U Figure 24 ("4-Bit Interface"), which also resynchronises a
/// display left mid-byte by a host that restarted: nibbles 0x3, 0x3, 0x3, 0x2, then 0x28
/// (4-bit, 2 lines, 5×8), 0x08 (off), 0x01 (clear), 0x06 (increment), 0x0C (on, no cursor).
/// Its waits are steps: `start(now:)` / `flush(_:now:)` send one step and return
/// `.busy(until:)`; called again at that instant they send the next.
///
/// Steady state keeps a shadow of DDRAM and writes only the cells that changed, each run of
/// cells after one DDRAM address (none where a run continues the previous one), all of a
/// flush's port states packed into one transaction. Clear is never sent again: it would blank
/// the display for 1.5 ms. Glyphs go into CGRAM slots (`CGRAMSlots`); ROM codes come from
/// `HD44780ROMCodes`.
///
/// Any failed transaction restarts the initialisation at the next call and rewrites every
/// cell, CGRAM included. Every buffer is allocated in `init`.
public struct HD44780Display<Bus: I2CBus> {
    enum Phase: Sendable, Equatable {
        case powerUp, firstFunctionSet, secondFunctionSet, fourBitMode, configure, ready
    }

    public var bus: Bus
    public let address: UInt8
    public let pins: HD44780PinMap
    public let geometry: CharacterLCDGeometry
    public let timing: HD44780Timing
    public private(set) var backlight = true

    var phase = Phase.powerUp
    var readyAt: Instant?
    /// Traffic of initialisation steps not yet reported.
    var pending = FlushReport()
    /// DDRAM codes on the glass, row-major (all spaces after the initialisation's clear);
    /// `rewriteAll` after a failure, when every cell is written again.
    var shadow: [UInt8]
    var target: [UInt8]
    var rewriteAll = false
    /// Cell indices in DDRAM address order, the address of each cell, and whether a cell in
    /// that order directly follows the one before it in DDRAM (a 20×4's row 0 runs on into row 2).
    let order: [Int]
    let addresses: [UInt8]
    let follows: [Bool]
    var cgram = CGRAMSlots()
    var writer: HD44780PortWriter
    var tx: TransmitBuffer

    public init(
        bus: Bus, address: UInt8 = 0x27, pins: HD44780PinMap = .ywrobot,
        geometry: CharacterLCDGeometry = .lcd16x2, timing: HD44780Timing = HD44780Timing()
    ) {
        self.bus = bus
        self.address = address
        self.pins = pins
        self.geometry = geometry
        self.timing = timing
        let cells = geometry.columns * geometry.rows
        shadow = [UInt8](repeating: 0x20, count: cells)
        target = shadow
        var addresses = [UInt8](repeating: 0, count: cells)
        for row in 0..<geometry.rows {
            for column in 0..<geometry.columns {
                addresses[row * geometry.columns + column] = geometry.address(column: column, row: row)
            }
        }
        let order = (0..<cells).sorted { addresses[$0] < addresses[$1] }
        var follows = [Bool](repeating: false, count: cells)
        for k in 1..<max(cells, 1) where addresses[order[k]] == addresses[order[k - 1]] &+ 1 { follows[k] = true }
        self.addresses = addresses
        self.order = order
        self.follows = follows
        writer = HD44780PortWriter(pins: pins, timing: timing)
        // Room for a whole rewrite in one transaction: CGRAM (8 addresses + 64 rows), one
        // address per row, every cell, one spare address.
        let bytes = 8 * 9 + geometry.rows + cells + 1
        tx = TransmitBuffer(capacity: max(64, bytes * writer.maxStatesPerByte))
    }

    /// Whether the initialisation has finished.
    public var isReady: Bool { phase == .ready }

    /// Runs the initialisation as far as time allows; `.done` once the LCD is ready (blank).
    public mutating func start(now: Instant) throws(I2CError) -> HD44780Progress {
        if let until = try initialise(now: now) { return .busy(until: until) }
        defer { pending = FlushReport() }
        return .done(pending)
    }

    /// Shows `frame` (of the geometry's size), initialising first when needed.
    public mutating func flush(_ frame: CharacterFrame, now: Instant) throws(I2CError) -> HD44780Progress {
        precondition(frame.columns == geometry.columns && frame.rows == geometry.rows, "frame size ≠ LCD size")
        if let until = try initialise(now: now) { return .busy(until: until) }
        var report = pending
        pending = FlushReport()
        try write(frame, &report)
        return .done(report)
    }

    /// Backlight on or off: one port state with E low, which the LCD ignores.
    @discardableResult
    public mutating func setBacklight(_ on: Bool) throws(I2CError) -> FlushReport {
        backlight = on
        writer.backlight = on
        var report = FlushReport()
        guard phase != .powerUp else { return report }
        tx.removeAll()
        writer.beginTransaction()
        writer.appendBacklight(into: &tx)
        try transmit(&report)
        return report
    }

    /// Forgets the LCD's state: the next call initialises it again and rewrites every cell.
    public mutating func invalidate() { fail() }

    /// Sends `tx`; on failure the LCD is to be initialised again.
    mutating func transmit(_ report: inout FlushReport, dataBytes: Int = 0) throws(I2CError) {
        let address = self.address
        do {
            try tx.send(to: &bus, address: address)
        } catch {
            fail()
            throw error
        }
        report.recordTransaction(payload: tx.count)
        report.dataBytes += dataBytes
    }

    mutating func fail() {
        phase = .powerUp
        readyAt = nil
        pending = FlushReport()
        rewriteAll = true
        cgram.reset()
        writer.reset()
    }

    /// One initialisation step when its time has come; returns when to come back, or `nil`
    /// once the LCD is ready. Step times count from `now` plus the step's own wire time.
    mutating func initialise(now: Instant) throws(I2CError) -> Instant? {
        while phase != .ready {
            if let until = readyAt, now < until { return until }
            tx.removeAll()
            writer.beginTransaction()
            if readyAt != nil { writer.waited() }
            let wait: Duration?
            switch phase {
            case .powerUp:
                writer.reset()
                writer.appendIdle(into: &tx)
                wait = timing.powerUp
                phase = .firstFunctionSet
            case .firstFunctionSet:
                writer.appendNibble(0x3, registerSelect: false, waitBits: 0, into: &tx)
                wait = timing.afterFirstFunctionSet
                phase = .secondFunctionSet
            case .secondFunctionSet:
                writer.appendNibble(0x3, registerSelect: false, waitBits: 0, into: &tx)
                wait = timing.afterSecondFunctionSet
                phase = .fourBitMode
            case .fourBitMode:
                writer.appendNibble(0x3, registerSelect: false, waitBits: writer.instructionBits, into: &tx)
                writer.appendNibble(0x2, registerSelect: false, waitBits: writer.instructionBits, into: &tx)
                let twoLines = geometry.twoLineMode
                instruction(.functionSet(eightBit: false, twoLines: twoLines, font5x10: false))
                instruction(.displayControl(display: false, cursor: false, blink: false))
                instruction(.clearDisplay)
                wait = timing.clearDisplay
                phase = .configure
            case .configure, .ready:
                instruction(.entryMode(increment: true, shift: false))
                instruction(.displayControl(display: true, cursor: false, blink: false))
                wait = nil
                phase = .ready
            }
            let bits = TransmitBuffer.bitTimes(payload: tx.count)
            var step = FlushReport()
            try transmit(&step)
            step.reinitialised = true
            pending.add(step)
            if let wait {
                readyAt = now + timing.duration(bitTimes: bits) + wait
                return readyAt
            }
            readyAt = nil
            // Clear left DDRAM all spaces; CGRAM is unknown after power-up.
            for i in shadow.indices { shadow[i] = 0x20 }
        }
        return nil
    }

    mutating func instruction(_ instruction: HD44780Instruction) {
        writer.appendByte(instruction.code, registerSelect: false, into: &tx)
    }
}

import Drivers
import Graphics
import HAL

/// A bus that records transactions and can fail the next ones.
final class RecordingI2CBus: I2CBus {
    var transactions: [[UInt8]] = []
    var failures: [I2CError.Kind] = []

    func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        if !failures.isEmpty { throw I2CError(failures.removeFirst()) }
        transactions.append(Array(write))
    }

    /// The transactions since the last call.
    func take() -> [[UInt8]] {
        defer { transactions.removeAll() }
        return transactions
    }
}

/// An LCD driver on a recording bus, a decoder fed with everything it sends, and a virtual
/// time that follows the driver's `.busy(until:)`.
struct LCDHarness {
    let bus = RecordingI2CBus()
    var lcd: HD44780Display<RecordingI2CBus>
    var decoder: LCDDecoder
    var now = Instant(nanoseconds: 1_000_000_000)
    /// The `.busy(until:)` instants seen, in order.
    var waits: [Instant] = []

    init(pins: HD44780PinMap = .ywrobot, geometry: CharacterLCDGeometry = .lcd16x2, timing: HD44780Timing = HD44780Timing()) {
        lcd = HD44780Display(bus: bus, pins: pins, geometry: geometry, timing: timing)
        decoder = LCDDecoder(pins: pins, busClockHz: timing.busClockHz)
    }

    /// Flushes until done, advancing time to each `.busy(until:)`; returns the last report.
    @discardableResult
    mutating func show(_ frame: CharacterFrame) throws(I2CError) -> FlushReport {
        var afterWait = false
        while true {
            let progress = try lcd.flush(frame, now: now)
            for t in bus.take() {
                decoder.feed(t, afterWait: afterWait)
                afterWait = false
            }
            switch progress {
            case .done(let report): return report
            case .busy(let until):
                waits.append(until)
                now = until
                afterWait = true
            }
        }
    }

    /// The glass as text, `?` for codes other than printable ASCII.
    func text(_ row: Int) -> String {
        String(decoder.row(row, lcd.geometry).map { (0x20...0x7D).contains($0) ? Character(UnicodeScalar($0)) : "?" })
    }
}

/// A frame with `lines` written from column 0 of each row.
func characterFrame(_ geometry: CharacterLCDGeometry, _ lines: [String]) -> CharacterFrame {
    var frame = CharacterFrame(columns: geometry.columns, rows: geometry.rows)
    for (row, line) in lines.enumerated() {
        for (column, scalar) in line.unicodeScalars.enumerated() { frame[column, row] = .scalar(scalar) }
    }
    return frame
}

/// Reads PCF8574 port states the way an HD44780 does, for tests: it latches D7–D4 and RS on
/// each falling edge of E, in 8-bit mode until a function set with DL = 0, then pairs nibbles;
/// it keeps DDRAM and CGRAM, and checks that E never rises while an instruction executes
/// (37 µs, 41 µs for data, at the given bus clock: 9 bit-times per state, 11 more between
/// transactions). Independent of the driver's own port writer.
struct LCDDecoder {
    let pins: HD44780PinMap
    let busClockHz: Int
    var fourBit = false
    var pendingHigh: (rs: Bool, nibble: UInt8)?
    var lastPort: UInt8 = 0
    /// Every byte the LCD took, in order.
    var bytes: [(rs: Bool, byte: UInt8)] = []
    var ddram = [UInt8](repeating: 0x20, count: 128)
    var cgram = [UInt8](repeating: 0, count: 64)
    var addressCounter = 0
    var inCGRAM = false
    var timingErrors: [String] = []
    private var sinceLatch = 1_000_000
    private var neededBits = 0

    init(pins: HD44780PinMap, busClockHz: Int = 100_000) {
        self.pins = pins
        self.busClockHz = busClockHz
    }

    /// One write transaction; `afterWait` when the driver's `.busy(until:)` passed before it.
    mutating func feed(_ states: [UInt8], afterWait: Bool = false) {
        if afterWait { neededBits = 0 }
        sinceLatch += 11
        for state in states {
            sinceLatch += 9
            let e = state & pins.enableMask != 0
            let wasE = lastPort & pins.enableMask != 0
            if e && !wasE && sinceLatch < neededBits {
                timingErrors.append("E rose \(sinceLatch) bit-times after a latch that needs \(neededBits)")
            }
            if wasE && !e {
                let rs = state & (1 << UInt8(pins.registerSelect)) != 0
                latch(rs, (state >> UInt8(pins.firstDataBit)) & 0x0F)
                sinceLatch = 0
            }
            lastPort = state
        }
    }

    private func bits(_ microseconds: Int) -> Int { (microseconds * busClockHz + 999_999) / 1_000_000 }

    private mutating func latch(_ rs: Bool, _ nibble: UInt8) {
        guard fourBit else {
            execute(rs, nibble << 4)
            if !rs && nibble == 0x2 { fourBit = true }  // 0x2x: function set, DL = 0
            return
        }
        if let high = pendingHigh {
            pendingHigh = nil
            execute(rs, high.nibble << 4 | nibble)
        } else {
            pendingHigh = (rs, nibble)
            neededBits = 0
        }
    }

    private mutating func execute(_ rs: Bool, _ byte: UInt8) {
        bytes.append((rs, byte))
        neededBits = bits(rs ? 41 : 37)
        if rs {
            if inCGRAM { cgram[addressCounter & 0x3F] = byte } else { ddram[addressCounter & 0x7F] = byte }
            addressCounter += 1
        } else if byte & 0x80 != 0 {
            addressCounter = Int(byte & 0x7F)
            inCGRAM = false
        } else if byte & 0x40 != 0 {
            addressCounter = Int(byte & 0x3F)
            inCGRAM = true
        } else if byte == 0x01 {
            for i in ddram.indices { ddram[i] = 0x20 }
            addressCounter = 0
            inCGRAM = false
        }
    }

    /// The codes of one row of the glass.
    func row(_ row: Int, _ geometry: CharacterLCDGeometry) -> [UInt8] {
        let start = Int(geometry.rowAddress(row))
        return Array(ddram[start..<start + geometry.columns])
    }

    /// Data bytes written to DDRAM or CGRAM, instructions excluded.
    var dataCount: Int { bytes.filter { $0.rs }.count }
    var instructions: [UInt8] { bytes.filter { !$0.rs }.map(\.byte) }
}

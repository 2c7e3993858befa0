import HAL

/// A Hitachi HD44780U character LCD controller seen through its pins, modelled from the data
/// sheet (HD44780U ADE-207-272(Z) '99.9 Rev. 0.0): fed one port state of the I²C backpack at a
/// time (`portWritten(_:at:)`, usually by `HD44780Backpack`), it latches on E's falling edge and
/// runs the instructions of Table 6 on its DDRAM, CGRAM and address counter.
///
/// - Interface (Figures 9, 24): 8-bit after power-on, so each nibble is a whole instruction
///   (D3…D0 are not wired on a backpack and read as 0) until a function set with DL = 0; in
///   4-bit mode two nibbles, high first, make a byte. The initialisation by instruction —
///   nibbles 3, 3, 3, then 2 — works from any state, which is also how it resynchronises a
///   controller left between nibbles by a restarted host: in 4-bit mode the first 3 completes
///   the stray byte, the next two make 0x33, the last 3 and the 2 are 8-bit function sets.
/// - Timing (Table 6, fosc 270 kHz; Figure 24): an instruction runs 37 µs after its latching
///   edge, a data write 37 + 4 µs, clear and return home 1.52 ms; the first function set of the
///   initialisation needs > 4.1 ms, the second > 100 µs, and the first E pulse > 40 ms after
///   power-on. E rising for a new transfer earlier is a protocol error (`.busy`,
///   `.initialisationWait`); the model still runs the transfer. Without times, nothing is checked.
/// - Also reported: an instruction or data before the initialisation (once per power-on),
///   RS differing between the nibbles of one byte (the first nibble's RS is used), E pulsing
///   with R/W high (a read: ignored), a DDRAM address the line mode lacks. R/W is sampled when
///   E rises (the set-up time tAS comes before the rising edge): a cycle that began as a read
///   is never a write, including the one the PCF8574's power-on state (every pin high) starts.
///
/// Outputs: `lines` (text), `image` (`HD44780Model+Display.swift`), `backlightOn`.
public final class HD44780Model {
    /// The glass: characters per row, rows, and the DDRAM address each row starts at.
    public struct Geometry: Sendable, Equatable {
        public var columns: Int
        public var rows: Int
        public var rowAddresses: [UInt8]

        public init(columns: Int, rows: Int, rowAddresses: [UInt8]) {
            precondition(rowAddresses.count == rows, "one start address per row")
            self.columns = columns
            self.rows = rows
            self.rowAddresses = rowAddresses
        }

        public static let lcd16x2 = Geometry(columns: 16, rows: 2, rowAddresses: [0x00, 0x40])
        public static let lcd20x2 = Geometry(columns: 20, rows: 2, rowAddresses: [0x00, 0x40])
        public static let lcd16x4 = Geometry(columns: 16, rows: 4, rowAddresses: [0x00, 0x40, 0x10, 0x50])
        public static let lcd20x4 = Geometry(columns: 20, rows: 4, rowAddresses: [0x00, 0x40, 0x14, 0x54])
    }

    /// Execution times and waits (HD44780U Table 6 at fosc = 270 kHz; Figure 24).
    public struct Timing: Sendable, Equatable {
        public var instruction: Duration = .microseconds(37)
        public var dataWrite: Duration = .microseconds(41)
        public var clearOrHome: Duration = .microseconds(1520)
        public var afterFirstFunctionSet: Duration = .microseconds(4100)
        public var afterSecondFunctionSet: Duration = .microseconds(100)
        public var afterPowerOn: Duration = .milliseconds(40)
        public init() {}
        public static let datasheet = Timing()
    }

    public let geometry: Geometry
    public let pinMap: BackpackWiring
    public let timing: Timing
    /// What CGRAM holds after power-on (the data sheet leaves it undefined): seeded noise.
    public let cgramSeed: UInt64

    /// 80 DDRAM cells: addresses 0x00…0x27 then 0x40…0x67 in 2-line mode, 0x00…0x4F in 1-line.
    public internal(set) var ddram = [UInt8](repeating: 0x20, count: 80)
    /// 64 CGRAM bytes: eight 5×8 glyphs, a row per byte, bit 4 leftmost.
    public internal(set) var cgram = [UInt8](repeating: 0, count: 64)
    /// The address counter, and whether it addresses CGRAM (after `0x40|a`) or DDRAM.
    public internal(set) var addressCounter: UInt8 = 0
    public internal(set) var addressesCGRAM = false
    /// Entry mode (I/D, S), display control (D, C, B), function set (DL, N, F).
    public internal(set) var incrementing = true
    public internal(set) var shiftsOnWrite = false
    public internal(set) var displayOn = false
    public internal(set) var cursorOn = false
    public internal(set) var blinkOn = false
    public internal(set) var eightBitInterface = true
    public internal(set) var twoLines = false
    public internal(set) var tallFont = false
    /// How far the display is shifted left (cursor/display shift, entry mode S), in cells.
    public internal(set) var displayShift = 0
    public internal(set) var backlightOn = false
    /// Whether the initialisation by instruction (three 8-bit function sets) has happened.
    public internal(set) var isInitialised = false
    public internal(set) var errors: [PanelProtocolError] = []
    /// Bytes (instructions and data) executed since power-on.
    public internal(set) var executed = 0

    // The pins and the interface.
    var previousPort: UInt8 = 0xFF  // PCF8574 power-on: every pin high (§8.4)
    var highNibble: (value: UInt8, registerSelect: Bool)?
    /// Whether the E pulse in progress began as a write (R/W low when E rose). At power-on E
    /// is already high with R/W high: a read cycle.
    var cycleIsWrite = false
    var position = 0
    var busyUntil: Instant?
    var busyWith = ""
    var initialisationWait = false
    var functionSetsSeen = 0
    var poweredOnAt: Instant?
    var reportedUninitialised = false
    var reportedPowerOnWait = false

    public init(
        geometry: Geometry = .lcd16x2, pinMap: BackpackWiring = .ywRobot, timing: Timing = .datasheet,
        cgramSeed: UInt64 = 0x44780, poweredOnAt: Instant? = nil
    ) {
        self.geometry = geometry
        self.pinMap = pinMap
        self.timing = timing
        self.cgramSeed = cgramSeed
        powerOnReset(at: poweredOnAt)
    }

    /// The state after the internal reset circuit (§"Initializing by Internal Reset Circuit"):
    /// display cleared, 8-bit interface, 1 line, 5×8 font, display/cursor/blink off, increment
    /// without shift; CGRAM holds noise. `time` is when the supply came up (for the 40 ms wait).
    public func powerOnReset(at time: Instant? = nil) {
        ddram = [UInt8](repeating: 0x20, count: 80)
        var random = SplitMix64(seed: cgramSeed)
        cgram = (0..<64).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        addressCounter = 0
        addressesCGRAM = false
        (incrementing, shiftsOnWrite) = (true, false)
        (displayOn, cursorOn, blinkOn) = (false, false, false)
        (eightBitInterface, twoLines, tallFont) = (true, false, false)
        displayShift = 0
        isInitialised = false
        executed = 0
        previousPort = 0xFF
        backlightOn = pinMap.decode(0xFF).backlightOn
        highNibble = nil
        cycleIsWrite = false
        position = 0
        busyUntil = nil
        functionSetsSeen = 0
        poweredOnAt = time
        reportedUninitialised = false
        reportedPowerOnWait = false
    }

    public func clearErrors() { errors.removeAll() }

    /// Whether the first nibble of a 4-bit byte has arrived without its second.
    public var isBetweenNibbles: Bool { highNibble != nil }

    /// One state of the expander's port, at `time` (nil: timing unknown, not checked).
    public func portWritten(_ port: UInt8, at time: Instant?) {
        defer {
            previousPort = port
            position += 1
        }
        let now = pinMap.decode(port)
        let before = pinMap.decode(previousPort)
        backlightOn = now.backlightOn
        if now.enable && !before.enable {
            cycleIsWrite = !now.read
            if now.read {
                record(.read, byte: port, time,
                    "E rose with R/W high: a read, which a write-only backpack driver never does; ignored")
            } else {
                checkTiming(at: time, port: port)
            }
        } else if before.enable && !now.enable && !before.read {
            if cycleIsWrite {
                latch(before.nibble, registerSelect: before.registerSelect, at: time)
            } else {
                record(.read, byte: port, time,
                    "E fell on a cycle that began as a read (R/W high when E rose, or E high since power-on: the PCF8574 starts with every pin high); the nibble is not taken — write a state with E low first")
            }
        }
    }

    /// E rose for a write: is the controller ready for it?
    private func checkTiming(at time: Instant?, port: UInt8) {
        guard let time, highNibble == nil else { return }  // the second nibble starts nothing
        if let on = poweredOnAt, !reportedPowerOnWait, time - on < timing.afterPowerOn {
            reportedPowerOnWait = true
            record(.initialisationWait, byte: port, time,
                "E rose \(Self.micro(time - on)) after power-on; the data sheet (Figure 24) needs > \(Self.micro(timing.afterPowerOn))")
        }
        if let until = busyUntil, time < until {
            record(
                initialisationWait ? .initialisationWait : .busy, byte: port, time,
                "E rose \(Self.micro(until - time)) too early: \(busyWith) still executing; the transfer is run anyway")
        }
    }

    /// E fell with R/W low: the nibble on D7…D4 is taken.
    private func latch(_ nibble: UInt8, registerSelect: Bool, at time: Instant?) {
        if eightBitInterface {
            execute(nibble << 4, registerSelect: registerSelect, at: time)
        } else if let high = highNibble {
            highNibble = nil
            if high.registerSelect != registerSelect {
                record(.registerSelectChanged, byte: high.value << 4 | nibble, time,
                    "RS changed between the nibbles of one byte (\(high.registerSelect ? 1 : 0) then \(registerSelect ? 1 : 0)); the first nibble's RS is used")
            }
            execute(high.value << 4 | nibble, registerSelect: high.registerSelect, at: time)
        } else {
            highNibble = (nibble, registerSelect)
        }
    }

    func record(_ kind: PanelProtocolError.Kind, byte: UInt8?, _ time: Instant?, _ message: String) {
        errors.append(PanelProtocolError(kind, byte: byte, position: position, time: time, message))
    }

    /// `37 µs`, `1.52 ms`.
    static func micro(_ d: Duration) -> String {
        let ns = d.nanoseconds
        if ns >= 1_000_000 { return "\(ns / 1_000_000).\(String(ns % 1_000_000 / 10_000 + 100).dropFirst()) ms" }
        return "\(ns / 1000) µs"
    }
}

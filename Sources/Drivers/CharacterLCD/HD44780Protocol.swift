/// HD44780U instructions (Hitachi HD44780U, Table 6 "Instructions"): what RS = 0 bytes mean,
/// with their execution times at fosc = 270 kHz.
public enum HD44780Instruction: Sendable, Equatable, Hashable {
    /// 0x01: fills DDRAM with spaces, address 0, increment mode. 1.52 ms.
    case clearDisplay
    /// 0x02: address 0, display shift undone. 1.52 ms.
    case returnHome
    /// 0x04 | I/D << 1 | S.
    case entryMode(increment: Bool, shift: Bool)
    /// 0x08 | D << 2 | C << 1 | B.
    case displayControl(display: Bool, cursor: Bool, blink: Bool)
    /// 0x10 | S/C << 3 | R/L << 2.
    case cursorShift(display: Bool, right: Bool)
    /// 0x20 | DL << 4 | N << 3 | F << 2.
    case functionSet(eightBit: Bool, twoLines: Bool, font5x10: Bool)
    /// 0x40 | ACG (6 bits): the next data bytes go to CGRAM.
    case setCGRAMAddress(UInt8)
    /// 0x80 | ADD (7 bits): the next data bytes go to DDRAM.
    case setDDRAMAddress(UInt8)

    public var code: UInt8 {
        func bit(_ flag: Bool, _ shift: UInt8) -> UInt8 { flag ? 1 << shift : 0 }
        switch self {
        case .clearDisplay: return 0x01
        case .returnHome: return 0x02
        case .entryMode(let increment, let shift): return 0x04 | bit(increment, 1) | bit(shift, 0)
        case .displayControl(let display, let cursor, let blink):
            return 0x08 | bit(display, 2) | bit(cursor, 1) | bit(blink, 0)
        case .cursorShift(let display, let right): return 0x10 | bit(display, 3) | bit(right, 2)
        case .functionSet(let eightBit, let twoLines, let font5x10):
            return 0x20 | bit(eightBit, 4) | bit(twoLines, 3) | bit(font5x10, 2)
        case .setCGRAMAddress(let address): return 0x40 | (address & 0x3F)
        case .setDDRAMAddress(let address): return 0x80 | (address & 0x7F)
        }
    }

    /// Clear display and return home take 1.52 ms; everything else 37 µs (Table 6).
    public var isLong: Bool { self == .clearDisplay || self == .returnHome }
}

/// The waits of the HD44780U and the speed of the bus that carries its port states.
///
/// Long waits are not slept: the driver returns `.busy(until:)` and the event loop comes back
/// then. Short ones (37 µs per instruction, 41 µs per data write) are met by the port states
/// themselves — each lasts 9 bit-times, 90 µs at 100 kHz — and, on faster buses, by spacer
/// states (the same port byte again, E low).
public struct HD44780Timing: Sendable, Equatable {
    /// The I²C clock; the PCF8574 is specified for 100 kHz (NXP PCF8574 §1).
    public var busClockHz: Int
    /// After power-on, before the first function set: > 40 ms after VCC reaches 2.7 V
    /// (Figure 24). The driver counts from its first write.
    public var powerUp: Duration
    /// After the first 0x3 nibble: > 4.1 ms (Figure 24).
    public var afterFirstFunctionSet: Duration
    /// After the second 0x3 nibble: > 100 µs (Figure 24).
    public var afterSecondFunctionSet: Duration
    /// After clear display: 1.52 ms at 270 kHz, longer with a slower oscillator (Table 6 note).
    public var clearDisplay: Duration
    /// Every other instruction: 37 µs.
    public var instruction: Duration
    /// A data write: 37 µs plus t_ADD 4 µs before the address counter moves.
    public var dataWrite: Duration

    public init(
        busClockHz: Int = 100_000, powerUp: Duration = .milliseconds(50),
        afterFirstFunctionSet: Duration = .microseconds(4_500), afterSecondFunctionSet: Duration = .microseconds(150),
        clearDisplay: Duration = .milliseconds(2), instruction: Duration = .microseconds(37),
        dataWrite: Duration = .microseconds(41)
    ) {
        self.busClockHz = max(1, busClockHz)
        self.powerUp = powerUp
        self.afterFirstFunctionSet = afterFirstFunctionSet
        self.afterSecondFunctionSet = afterSecondFunctionSet
        self.clearDisplay = clearDisplay
        self.instruction = instruction
        self.dataWrite = dataWrite
    }

    /// Bit-times that cover `duration` at the bus clock, rounded up.
    public func bitTimes(covering duration: Duration) -> Int {
        let ns = Int64(duration.nanoseconds)
        return Int((ns * Int64(busClockHz) + 999_999_999) / 1_000_000_000)
    }

    /// The duration of `bits` bit-times, rounded up to the nanosecond.
    public func duration(bitTimes bits: Int) -> Duration {
        .nanoseconds((Int64(bits) * 1_000_000_000 + Int64(busClockHz) - 1) / Int64(busClockHz))
    }
}

/// Turns HD44780 bytes into PCF8574 port states in a transmit buffer, keeping the LCD's
/// timing with the states themselves.
///
/// In 4-bit mode a byte is two nibbles, high first (HD44780U "Interfacing to a 4-bit MPU",
/// Figure 17). Each nibble is two port states, `[d|E]` then `[d]`: D7–D4 and RS are set while
/// E rises and stay while it falls, and the LCD latches on the falling edge. The PCF8574 puts
/// each acknowledged byte on its pins (NXP PCF8574 §8.2), so every state lasts 9 bit-times.
///
/// Timing kept here, per HD44780U Figure 25 / Table 6:
/// - RS set-up before E rises (t_AS ≥ 40 ns): when RS changes, one state with the new RS and E
///   low comes first, since the expander switches all pins at once.
/// - An instruction executes for 37 µs, a data write 41 µs, after its falling edge; the next
///   rising edge is delayed by spacer states (the last state again) until that time has
///   passed. Between transactions STOP, START and the address byte (11 bit-times) count too.
/// - E pulse width (≥ 450 ns) and cycle (≥ 1 µs) are met by any state at ≤ 1 MHz.
struct HD44780PortWriter {
    let pins: HD44780PinMap
    let instructionBits: Int
    let dataBits: Int
    var backlight = true
    /// The port byte last put in the buffer: what the pins show once it is sent.
    private(set) var port: UInt8 = 0
    private var registerSelect = false
    /// Bit-times since the last falling edge of E, and how many the LCD needs before the next
    /// rising edge.
    private var sinceLatch = Int.max / 2
    private var needed = 0

    init(pins: HD44780PinMap, timing: HD44780Timing) {
        self.pins = pins
        instructionBits = timing.bitTimes(covering: timing.instruction)
        dataBits = timing.bitTimes(covering: timing.dataWrite)
    }

    /// Spacer states after a byte, inside a transaction, for a wait of `bits` bit-times.
    static func spacers(bits: Int) -> Int { max(0, (bits + 8) / 9 - 1) }

    /// The most states one byte can take (set-up, two nibbles, spacers).
    var maxStatesPerByte: Int { 5 + Self.spacers(bits: max(instructionBits, dataBits)) }

    /// Port states a data byte costs inside a run (no RS change).
    var statesPerDataByte: Int { 4 + Self.spacers(bits: dataBits) }

    /// Port states a DDRAM address costs between data bytes (two RS changes).
    var statesPerAddress: Int { 6 + Self.spacers(bits: instructionBits) }

    /// A new transaction begins: STOP, START and the address byte pass before its first state.
    mutating func beginTransaction() { sinceLatch += 11 }

    /// The wait after the last instruction was met by time (a scheduled `.busy(until:)`).
    mutating func waited() { needed = 0 }

    /// Forgets the port (after a failure or at power-up): RS is treated as unknown.
    mutating func reset() {
        port = 0
        registerSelect = false
        sinceLatch = Int.max / 2
        needed = 0
    }

    /// E low, RS low, data 0, the backlight as set: a state that latches nothing.
    mutating func appendIdle(into buffer: inout TransmitBuffer) {
        registerSelect = false
        put(pins.port(nibble: 0, registerSelect: false, enable: false, backlight: backlight), into: &buffer)
    }

    /// The current port with the backlight as set (E low): the backlight switch.
    mutating func appendBacklight(into buffer: inout TransmitBuffer) {
        var state = port & ~pins.enableMask
        if let bit = pins.backlight {
            let mask: UInt8 = 1 << UInt8(bit)
            state = backlight == pins.backlightActiveHigh ? state | mask : state & ~mask
        }
        put(state, into: &buffer)
    }

    /// One nibble as a whole transfer (8-bit mode during initialisation), followed by a wait
    /// of `waitBits` before the next rising edge.
    mutating func appendNibble(_ nibble: UInt8, registerSelect rs: Bool, waitBits: Int, into buffer: inout TransmitBuffer) {
        pulse(nibble, rs, into: &buffer)
        needed = waitBits
    }

    /// A byte in 4-bit mode: an instruction (`registerSelect` false) or a data byte.
    mutating func appendByte(_ byte: UInt8, registerSelect rs: Bool, into buffer: inout TransmitBuffer) {
        pulse(byte >> 4, rs, into: &buffer)
        needed = 0
        pulse(byte & 0x0F, rs, into: &buffer)
        needed = rs ? dataBits : instructionBits
    }

    private mutating func pulse(_ nibble: UInt8, _ rs: Bool, into buffer: inout TransmitBuffer) {
        let low = pins.port(nibble: nibble, registerSelect: rs, enable: false, backlight: backlight)
        if rs != registerSelect {
            put(low, into: &buffer)
            registerSelect = rs
        }
        while sinceLatch + 9 < needed {
            put(port & ~pins.enableMask, into: &buffer)
        }
        put(low | pins.enableMask, into: &buffer)
        put(low, into: &buffer)
        sinceLatch = 0
    }

    private mutating func put(_ state: UInt8, into buffer: inout TransmitBuffer) {
        buffer.append(state)
        port = state
        sinceLatch += 9
    }
}

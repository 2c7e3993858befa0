import HAL

/// An HD44780 character LCD behind a PCF8574 I²C backpack: one `I2CDeviceModel` that is the
/// expander (NXP PCF8574 §8: each payload byte becomes the port state when acknowledged, reads
/// return the pins) with the LCD hanging off its port through `pinMap`.
///
/// Attach it at the backpack's address (0x27, or 0x3F for a PCF8574A) on a `SimulatedI2CBus`.
/// Each port state reaches `lcd` with a time, so the LCD model can check execution times:
/// - `.wire(timing)` (the default, 100 kHz): payload byte k of a transaction reaches the port
///   at `start + (1 + 9·(k+2))/f` (`I2CWireTiming`). The host blocks while a transaction is on
///   the wire (an i2c-dev `write` returns after the STOP), but a `SimulatedI2CBus` transfer takes
///   no virtual time, so the bus time of every earlier transaction is added:
///   `start = clock.now() + Σ earlier durations`. The host's own gaps (the clock moving between
///   transfers: a driver's sleep, a log's `t=` steps) are kept; only the differences between
///   port-state times matter to the LCD. This is the timing to use for driver tests, and for
///   logs recorded from a bus stub that took no time (`corpus/displays/luma_lcd_hd44780_16x2.log`).
/// - `.stamps`: every port state of a transaction at `clock.now()`, for logs whose `t=` stamps
///   are taken to be the port-state times themselves.
/// Without a clock no times are given and nothing is checked.
public final class HD44780Backpack: PanelModel {
    public enum PortTiming: Sendable, Equatable {
        case wire(I2CWireTiming)
        case stamps
    }

    /// The expander: its latch, `portWrites`, `onPortWrite` and inputs stay usable.
    public let expander: PCF8574
    public let lcd: HD44780Model
    public let clock: VirtualClock?
    public var portTiming: PortTiming
    /// The wire time of all transactions so far (`.wire` timing), which the clock never saw.
    public private(set) var busTime: Duration = .zero

    public init(
        geometry: HD44780Model.Geometry = .lcd16x2, pinMap: BackpackWiring = .ywRobot,
        timing: HD44780Model.Timing = .datasheet, clock: VirtualClock? = nil,
        portTiming: PortTiming = .wire(I2CWireTiming()), cgramSeed: UInt64 = 0x44780
    ) {
        expander = PCF8574()
        lcd = HD44780Model(
            geometry: geometry, pinMap: pinMap, timing: timing, cgramSeed: cgramSeed, poweredOnAt: clock?.now())
        self.clock = clock
        self.portTiming = portTiming
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(I2CError) {
        try expander.write(bytes)
        guard let clock else {
            for byte in bytes { lcd.portWritten(byte, at: nil) }
            return
        }
        switch portTiming {
        case .stamps:
            for byte in bytes { lcd.portWritten(byte, at: clock.now()) }
        case .wire(let wire):
            let start = clock.now() + busTime
            for (k, byte) in bytes.enumerated() { lcd.portWritten(byte, at: wire.acknowledged(byte: k, start: start)) }
            busTime += wire.duration(payloadBytes: bytes.count)
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        try expander.read(into: buffer)
    }

    /// Both chips lose power: the expander's port goes high, the LCD restarts in 8-bit mode.
    public func powerOnReset() {
        expander.powerOnReset()
        lcd.powerOnReset(at: clock.map { $0.now() + busTime })
    }

    public var errors: [PanelProtocolError] { lcd.errors }
    public func clearErrors() { lcd.clearErrors() }

    /// The LCD's glass (`HD44780Model.image`).
    public var image: PanelImage { lcd.image }

    /// The text of each row (`HD44780Model.lines`).
    public var lines: [String] { lcd.lines }

    public var backlightOn: Bool { lcd.backlightOn }

    /// The image, after reporting a byte whose second nibble never came.
    public func snapshot() -> PanelImage {
        if lcd.isBetweenNibbles {
            lcd.record(.commandCutOff, byte: nil, clock?.now(),
                "snapshot between the two nibbles of a byte: the LCD still waits for the low nibble")
        }
        return image
    }
}

/// When the bytes of an I²C write transaction happen on the wire, with no gaps between bytes
/// (the model of docs/design/parts.md#the-display): a START (1 bit-time), the address byte and each
/// payload byte (8 bits + ACK = 9 bit-times each), a STOP (1 bit-time).
///
/// A PCF8574 puts each payload byte on its port when it acknowledges it (NXP PCF8574 §8.2), so
/// payload byte k of a transaction starting at `start` reaches the port at
/// `start + (1 + 9·(k + 2)) / f` — after the START, the address byte and bytes 0…k. At the
/// standard-mode 100 kHz (the PCF8574's rating, and the Raspberry Pi's default) a one-byte
/// transaction lasts 200 µs and port states inside one transaction are 90 µs apart.
public struct I2CWireTiming: Sendable, Equatable {
    /// The SCL frequency in Hz.
    public var clockHz: Int

    public init(clockHz: Int = 100_000) {
        precondition(clockHz > 0, "a clock runs")
        self.clockHz = clockHz
    }

    /// `count` bit-times.
    public func bitTimes(_ count: Int) -> Duration {
        .nanoseconds(Int64(count) * 1_000_000_000 / Int64(clockHz))
    }

    /// When payload byte `index` (from 0) has been acknowledged.
    public func acknowledged(byte index: Int, start: Instant) -> Instant {
        start + bitTimes(1 + 9 * (index + 2))
    }

    /// How long a write transaction with `count` payload bytes holds the bus, START to STOP.
    public func duration(payloadBytes count: Int) -> Duration {
        bitTimes(1 + 9 * (count + 1) + 1)
    }
}

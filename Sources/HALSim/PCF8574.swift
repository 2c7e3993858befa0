import HAL

/// The NXP PCF8574 / PCF8574A remote 8-bit I/O expander, from its data sheet (NXP PCF8574;
/// PCF8574A, Rev. 5, 27 May 2013) — the chip on the I²C backpacks of HD44780 character LCDs.
///
/// - §8.1 Quasi-bidirectional I/Os: there is one register and no direction register. A pin
///   whose latch bit is 0 is pulled low hard; a pin whose latch bit is 1 is held high only by a
///   weak current source, so anything outside can pull it low. Reading returns the pins as
///   they are: `latch & externalInputs`. Writing 1 to a pin is how it becomes an input.
/// - §8.2 Writing to the port: every data byte of a write transaction is put on the port when
///   it is acknowledged, overwriting the one before; a transaction carries any number of port
///   states, in order (`onPortWrite` sees each).
/// - §8.3 Reading from a port: every byte read samples the pins again.
/// - §8.4 Power-on reset: all latch bits high (`0xFF`).
/// - §8.5 Interrupt output: `INT` is asserted when a pin differs from its state at the last
///   read or write of the port, and released by a read or a write, or when the pins return to
///   that state.
///
/// The address (0x20–0x27, or 0x38–0x3F for the PCF8574A) is where it is attached on the bus.
public final class PCF8574: I2CDeviceModel {
    /// The output latch (§8.2); 0xFF at power-on.
    public private(set) var latch: UInt8 = 0xFF
    /// What the circuit outside does to each pin: a 0 bit pulls the pin low (a button to
    /// ground, an LCD driving a data line); a 1 bit leaves it to the chip.
    public var externalInputs: UInt8 = 0xFF
    /// Called with each port state written, in order (an HD44780 model hangs off this).
    public var onPortWrite: ((UInt8) -> Void)?
    /// Port states written since power-on (or since `portWrites` was last emptied).
    public var portWrites: [UInt8] = []
    /// The pins at the last read or write, for `INT` (§8.5).
    private var sampled: UInt8 = 0xFF

    public init(externalInputs: UInt8 = 0xFF) {
        self.externalInputs = externalInputs
        sampled = pins
    }

    /// The level of the eight pins P7…P0 now (§8.1).
    public var pins: UInt8 { latch & externalInputs }

    /// Whether `INT` (active low on the chip) is asserted (§8.5).
    public var interruptAsserted: Bool { pins != sampled }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(I2CError) {
        for byte in bytes {
            latch = byte
            portWrites.append(byte)
            onPortWrite?(byte)
        }
        sampled = pins
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        for i in buffer.indices { buffer[i] = pins }
        sampled = pins
    }

    public func powerOnReset() {
        latch = 0xFF
        sampled = pins
    }
}
